import http from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENUS, PLATFORM_ONLY_MENUS, ResultCode, elementCodes } from '@kelvin/contracts';
import { TENANT_ADMIN_CODES, apiOf, tenantWithAdmin, userWith, xlsxText, type TenantFixture } from '../modules/admin/fixtures.ts';
import type { Db } from '../db/index.ts';
import { startTestKelvin, type TestClient } from './harness.ts';

/**
 * The permission and tenancy rules, table-driven over every endpoint of the OpenAPI document (the row files are
 * test/rules-*.ts; rules-coverage.test.ts fails when an operation has no row). For each row:
 *  1. a user of tenant A holding every tenant code but the row's gets 40301 (a 'login' row: a call without a token
 *     gets 40101), and nothing changed;
 *  2. tenant B's administrator (holding every code) gets 40400 for A's objects, never sees A's rows in lists,
 *     cannot create in A, and platform-only endpoints refuse every tenant user — nothing changed; in a project-scoped
 *     suite a user of A holding every code but granted no project is refused the same way;
 *  3. the owner succeeds, so the refusals above came from the rules and not from a broken call.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Kind =
  | 'object' // an object of tenant A (or a call naming A's project/area/device): B gets 404
  | 'create' // B naming tenant A in the body gets 40301
  | 'list' // B gets 200 without A's rows (marker absent) and changes nothing, A sees the marker
  | 'own' // acts on the caller's own tenant only: B's call leaves A's view unchanged
  | 'self' // acts on the caller's own account only
  | 'platform'; // platform administrators only: every tenant user gets 40301

export interface Row {
  method: Method;
  /** OpenAPI path, for the coverage check */
  path: string;
  /**
   * The code the route needs. 'login': any signed-in user. Several codes: any one of them lets the call through
   * (a device's own page or the general monitor), so the refused user lacks all of them.
   */
  code: string | readonly string[];
  kind: Kind;
  url?: (id: number) => string;
  setup?: () => Promise<number>;
  body?: (id: number) => unknown;
  /** request headers of every call of the row (e.g. a money move's Idempotency-Key) */
  headers?: (id: number) => Record<string, string>;
  marker?: string;
  /** for 'list' rows: text B's answer must not contain */
  absent?: string;
  /** for 'own' rows: A's read that B's call must not change */
  aView?: string;
  /**
   * For 'object' rows whose ids of A travel in the body: B's answer when they are checked as input
   * (40000 "设备 … 不存在", the same as for an id that never existed). Default 40400.
   */
  other?: number;
  /** an 'object' or 'list' row of a project-scoped suite whose object belongs to the tenant, not to one project */
  tenantWide?: boolean;
  /** an event stream: called over a real connection, answering its first chunk */
  stream?: boolean;
  /** runs after the owner's successful call (e.g. stops a background test run) */
  after?: (answer: Answer, id: number) => Promise<void>;
}

export interface Answer {
  status: number;
  code: number;
  text: string;
  json: any;
}

/** What the rows see: filled in before the first row runs. */
export interface World {
  k: TestClient;
  platform: string;
  A: TenantFixture;
  B: TenantFixture;
  /** a user of tenant A whose grants are rewritten per row: every tenant code but the row's */
  allBut: { token: string; roleId: number };
  /** a tenant B user holding platform-only codes (a misconfigured role): the endpoints must still refuse */
  forged: string;
  /** a user of tenant A holding every code but granted no project: A's project data is as foreign to them as to B */
  outsider: string;
  /** a user of tenant A whose own account 'self' rows change */
  self: { token: string; password: string };
  /** a call that must succeed, answering its data */
  ok: (method: Method, url: string, token: string, body?: unknown) => Promise<any>;
}

export const w = {} as World;
let seq = 0;
export const uniq = (p: string) => `${p}${++seq}`;

const PLATFORM_CODES = MENUS.filter((m) => PLATFORM_ONLY_MENUS.has(m.code)).flatMap((m) => [m.code, ...elementCodes(m)]);
const codesOf = (row: Row) => (typeof row.code === 'string' ? [row.code] : [...row.code]);

/**
 * The operations anyone may call without a token, each with why (rules-coverage.test.ts checks the list against the
 * OpenAPI document; openapi-fuzz.test.ts calls them anonymously).
 */
export const PUBLIC_OPERATIONS: Readonly<Record<string, string>> = {
  'GET /api/health': 'load balancers probe it without a token; answers the version only',
  'GET /api/ready': 'load balancers and orchestrators probe readiness without a token; answers which part (database, migrations, broker) is up, nothing else',
  'POST /api/auth/jwt/token': 'the login itself (its lockout and audit are tested in auth.test.ts)',
  'GET /api/auth/jwt/invalid': 'logout revokes the caller\'s own token, whatever it is',
  'GET /api/auth/captcha': 'the login page asks for an image captcha before anyone signs in',
  'GET /api/v1/tenant/brand': 'the login page shows the brand before anyone signs in',
  'GET /api/v1/tenant/logo': 'the login page shows the logo before anyone signs in',
  'GET /api/v1/dataviews': 'a shared big screen opened without login: only a valid, unexpired, unrevoked share token answers, with that one project\'s aggregate figures; rate-limited per token and address (bigscreen.test.ts)',
  'POST /api/v1/register/sms-code': '/reg: a company without an account asks for an SMS code (image captcha first, 60 s and 10 a day per phone and address; registration.test.ts)',
  'POST /api/v1/register': '/reg: a company without an account applies (its SMS code is the proof; answered alike for any phone)',
  'GET /api/v1/showroom': '/demo: the demo tenant\'s showroom aggregates for visitors, no personal data (public-privacy.test.ts), 60 a minute per address',
  'POST /api/mqtt/auth': 'EMQX\'s HTTP authenticator calls it for a device\'s CONNECT: the shared secret header (KELVIN_BROKER_AUTH_TOKEN) authenticates EMQX, unset = 404; answers allow/deny only (emqx.test.ts)',
  'POST /api/mqtt/acl': 'EMQX\'s HTTP authorizer calls it for a publish/subscribe: the shared secret header authenticates EMQX, unset = 404; answers allow/deny only (emqx.test.ts)',
  'POST /api/v1/payment/notify/{projectId}/{provider}': 'payment providers call back without a token; the HMAC (sandbox) or RSA (WeChat Pay v3) signature is the authentication (accounts.test.ts)',
};

/**
 * Written by the access hook on every refusal, by login, by sessions, and by the server about itself (its registry
 * heartbeat, the trace kept of a refused call): not what a refused call may change.
 */
export const UNSNAPSHOTTED: ReadonlySet<string> = new Set(['gate_log', 'session', 'login_attempt', 'kysely_migration', 'kysely_migration_lock', 'ops_instance', 'ops_trace',
  // a wrong SMS code counts against its code like a wrong password against the login
  'registration_code']);

async function tableNames(db: Db): Promise<string[]> {
  const pg = process.env.DATABASE_URL?.startsWith('postgres');
  const rows = pg
    ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)).rows
    : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows;
  return rows.map((r) => r.name).filter((n) => !UNSNAPSHOTTED.has(n)).sort();
}

let tables: string[] = [];

/** Every table (but the audit and session ones), to prove that a refused call changed nothing. */
export async function snapshotAll(db: Db): Promise<string> {
  const all = await Promise.all(tables.map(async (t) => {
    const rows = (await db.selectFrom(t as never).selectAll().execute()) as Record<string, unknown>[];
    return [t, rows.map((r) => JSON.stringify(Object.keys(r).sort().map((key) => [key, r[key]]))).sort()];
  }));
  return JSON.stringify(all);
}

/** One call as a token (none for an anonymous call); downloads answer their cell text, streams their first chunk. */
export async function callAs(row: Row, token: string | null, id: number, extraBody: Record<string, unknown> = {}): Promise<Answer> {
  const url = row.url ? row.url(id) : row.path.replace(/\{\w+\}/, String(id));
  const raw = row.body?.(id);
  const body = raw instanceof FormData ? raw : raw !== undefined ? { ...(raw as object), ...extraBody } : row.method === 'GET' || row.method === 'DELETE' ? undefined : extraBody;
  if (row.stream) return stream(url, token);
  const res = await w.k.kelvin.app.inject({
    method: row.method, url, headers: { ...row.headers?.(id), ...(token ? { authorization: token } : {}) }, ...(body !== undefined ? { payload: body as object } : {}),
  });
  const type = res.headers['content-type']?.toString() ?? '';
  if (type.includes('json')) {
    const json = res.json();
    return { status: res.statusCode, code: json?.code, text: JSON.stringify(json), json };
  }
  const text = type.includes('spreadsheetml') ? (await xlsxText(res.rawPayload)).join('\n') : res.body;
  return { status: res.statusCode, code: res.statusCode === 200 ? 200 : -1, text, json: null };
}

let listening: Promise<number> | null = null;

/** The SSE stream cannot end under inject: a real request that reads the first chunk and hangs up. */
async function stream(url: string, token: string | null): Promise<Answer> {
  listening ??= w.k.kelvin.app.listen({ port: 0, host: '127.0.0.1' }).then(() => (w.k.kelvin.app.server.address() as { port: number }).port);
  const port = await listening;
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, headers: token ? { authorization: token } : {} }, (res) => {
      res.once('data', (chunk: Buffer) => {
        const text = chunk.toString();
        req.destroy();
        const json = res.headers['content-type']?.includes('json') ? JSON.parse(text) : null;
        resolve({ status: res.statusCode ?? 0, code: json?.code ?? (res.statusCode === 200 ? 200 : -1), text, json });
      });
    });
    req.on('error', reject);
  });
}

/** Rewrites the allBut user's role: every tenant code but these. */
async function grantAllBut(codes: string[]) {
  const { db } = w.k;
  await db.deleteFrom('role_grant').where('role_id', '=', w.allBut.roleId).execute();
  const keep = TENANT_ADMIN_CODES.filter((c) => !codes.includes(c));
  await db.insertInto('role_grant').values(keep.map((code) => ({ role_id: w.allBut.roleId, code }))).execute();
}

export interface SuiteOptions {
  /** seeds A's marked data the rows look for */
  prepare?: () => Promise<void>;
  /** the rows' objects live in A's project: a user of A not granted it is refused like B */
  projectScoped?: boolean;
}

/** Registers the suite: one server, tenants A and B, and one test per row. */
export function ruleSuite(title: string, rows: Row[], opts: SuiteOptions = {}) {
  beforeAll(async () => {
    const k = await startTestKelvin();
    w.k = k;
    w.platform = await k.loginAdmin();
    w.ok = apiOf(k).data;
    w.A = await tenantWithAdmin(k, 'rulea');
    w.B = await tenantWithAdmin(k, 'ruleb');
    const allBut = await userWith(k, w.A.tenantId, 'rulea_allbut', TENANT_ADMIN_CODES);
    w.allBut = { token: allBut.token, roleId: allBut.roleId };
    w.forged = (await userWith(k, w.B.tenantId, 'ruleb_forged', PLATFORM_CODES)).token;
    w.outsider = (await userWith(k, w.A.tenantId, 'rulea_outsider', TENANT_ADMIN_CODES, { allProjects: false })).token;
    w.self = await userWith(k, w.A.tenantId, 'rulea_pw', ['changepassword', 'changepassword:btn_edit']);
    tables = await tableNames(k.db);
    await opts.prepare?.();
  });
  afterAll(async () => {
    await w.k?.close();
    listening = null;
  });

  describe(title, () => {
    for (const row of rows) {
      it(`${row.method} ${row.path} (${codesOf(row).join(' | ')}, ${row.kind})`, async () => {
        const { k, A, B } = w;
        const id = row.setup ? await row.setup() : 0;

        // 1. without the code (a 'login' row: without a token): refused, nothing changed
        const login = row.code === 'login';
        if (!login) await grantAllBut(codesOf(row));
        const before = await snapshotAll(k.db);
        const denied = await callAs(row, login ? null : w.allBut.token, id);
        expect(denied.status, denied.text).toBe(login ? 401 : 403);
        expect(denied.code).toBe(login ? ResultCode.UNAUTHENTICATED : ResultCode.NO_PERMISSION);
        expect(await snapshotAll(k.db)).toBe(before);

        // 2. another tenant's administrator (holding every code), and in a project-scoped suite A's user not granted the project
        const strangers = opts.projectScoped && !row.tenantWide ? [B.token, w.outsider] : [B.token];
        if (row.kind === 'object') {
          for (const token of strangers) {
            const other = await callAs(row, token, id);
            const expected = row.other ?? ResultCode.NOT_FOUND;
            expect(other.status, other.text).toBe(Math.floor(expected / 100));
            expect(other.code).toBe(expected);
            expect(await snapshotAll(k.db)).toBe(before);
          }
        } else if (row.kind === 'create') {
          const other = await callAs(row, B.token, id, { tenantId: A.tenantId });
          expect(other.status, other.text).toBe(403);
          expect(other.code).toBe(ResultCode.NO_PERMISSION);
          expect(await snapshotAll(k.db)).toBe(before);
        } else if (row.kind === 'list') {
          for (const token of strangers) {
            const other = await callAs(row, token, id);
            expect(other.status, other.text).toBe(200);
            if (row.marker) expect(other.text).not.toContain(row.marker);
            if (row.absent) expect(other.text).not.toContain(row.absent);
            expect(await snapshotAll(k.db)).toBe(before);
          }
        } else if (row.kind === 'own') {
          const viewBefore = (await k.call('GET', row.aView!, { token: A.token })).body;
          const other = await callAs(row, B.token, id);
          expect(other.code, other.text).toBe(200);
          expect((await k.call('GET', row.aView!, { token: A.token })).body).toEqual(viewBefore);
        } else if (row.kind === 'platform') {
          for (const token of [B.token, w.forged, A.token]) {
            const other = await callAs(row, token, id);
            expect(other.status, other.text).toBe(403);
            expect(other.code).toBe(ResultCode.NO_PERMISSION);
          }
          expect(await snapshotAll(k.db)).toBe(before);
        }

        // 3. the owner (or the platform) succeeds, so the refusals above came from the rules
        const owner = row.kind === 'platform' ? w.platform : row.kind === 'self' ? w.self.token : A.token;
        const res = await callAs(row, owner, id);
        expect(res.code, res.text).toBe(200);
        if (row.kind === 'list' && row.marker) expect(res.text).toContain(row.marker);
        await row.after?.(res, id);
      });
    }
  });
}
