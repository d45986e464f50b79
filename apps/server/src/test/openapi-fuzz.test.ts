import crypto from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_OPERATIONS, UNSNAPSHOTTED } from './endpoint-rules.ts';
import { startTestKelvin, type TestClient } from './harness.ts';

/**
 * Generated from the OpenAPI document, so a new endpoint is covered without anyone remembering: every operation
 * refuses a caller without a token (401/40101), and fuzzed path parameters, query strings and bodies — built from
 * the operation's schema, valid-looking and hostile — never get a 5xx or a dropped connection, and a refused
 * request changes nothing. A fixed seed and a few runs per operation here; `./kelvin test fuzz` runs many more.
 */

const SEED = Number(process.env.KELVIN_FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.KELVIN_FUZZ_RUNS ?? 3);

/** An event stream never ends: its refusal without a token is checked, not fuzzed with one. */
const STREAMS = new Set(['GET /api/v1/live']);

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}
interface Operation {
  method: string;
  path: string;
  params: { name: string; in: 'path' | 'query'; schema: JsonSchema }[];
  body: JsonSchema | null;
}

const HOSTILE_TEXT = [
  '', ' ', '-1', '0', '1e309', '-1e309', 'NaN', 'Infinity', '0x19', '2.5e1', '%2025', '9007199254740993', '1.5', 'null', 'true',
  "' OR 1=1 --", "1; DROP TABLE app_user; --", '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '../../etc/passwd',
  '%00', '\u0000', '𠮷野家🔥', '\u202e\u0301\ufeff', '{"a":1}', '[1,2]', 'x'.repeat(5000),
];
const hostileText = fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string({ unit: 'binary', maxLength: 40 }));
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 1, -2147483649, 2147483648, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e300, -1e300, 0.5, 123456789),
  fc.integer({ min: 100_000, max: 99_999_999 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const nested = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), hostileNumber, hostileText, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 3 })),
})).value;
/** anything at all, for a field: wrong types, nested structures, huge strings */
const anything = fc.oneof(nested, fc.constant('x'.repeat(1_050_000)), fc.constant({ a: { b: { c: { d: { e: [[[[1]]]] } } } } }));

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type) ?? (s.anyOf ?? s.oneOf)?.map(typeOf).find(Boolean);

/** A value of the schema's type (ids far from any real row), or about one time in three something hostile. */
function valueOf(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const typed = (): fc.Arbitrary<unknown> => {
    if (s.enum?.length) return fc.constantFrom(...s.enum);
    const alt = s.anyOf ?? s.oneOf;
    if (alt?.length && !s.type) return fc.oneof(...alt.map((x) => valueOf(x, depth + 1)));
    switch (typeOf(s)) {
      case 'integer':
      case 'number': return hostileNumber;
      case 'boolean': return fc.boolean();
      case 'string': return fc.oneof(fc.string({ maxLength: Math.min(s.maxLength ?? 30, 60) }), hostileText);
      case 'array': return depth > 3 ? fc.constant([]) : fc.array(valueOf(s.items ?? {}, depth + 1), { maxLength: 4 });
      case 'object': return depth > 3 ? fc.constant({}) : objectOf(s, depth + 1);
      default: return nested;
    }
  };
  return fc.oneof({ arbitrary: typed(), weight: 2 }, { arbitrary: depth ? nested : anything, weight: 1 });
}

function objectOf(s: JsonSchema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, valueOf(v, depth)]));
  return fc.record({ ...props, unknownField: nested }, { requiredKeys: [] });
}

/** Bodies that are not what the schema says at all, sent as raw text. */
const RAW_BODIES = ['not json', '[]', '"text"', '123', 'null', '{"a":1e309}', '{"id":NaN}', '{', `${'['.repeat(5000)}${']'.repeat(5000)}`, '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}'];

function requestOf(op: Operation) {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const query = op.params.filter((p) => p.in === 'query');
  return fc.record({
    path: fc.tuple(...pathParams.map(() => fc.oneof(fc.integer({ min: 100_000, max: 99_999_999 }).map(String), hostileText.map((t) => t.slice(0, 2000))))),
    query: fc.record(Object.fromEntries(query.map((p) => [p.name, fc.oneof(valueOf(p.schema).map((v) => (typeof v === 'string' ? v.slice(0, 2000) : JSON.stringify(v)?.slice(0, 2000) ?? '')), hostileText.map((t) => t.slice(0, 2000)))])), { requiredKeys: [] }),
    body: op.method === 'GET' || op.method === 'DELETE'
      ? fc.constant(undefined)
      : fc.oneof({ arbitrary: op.body ? objectOf(op.body).map((b) => JSON.stringify(b)) : nested.map((b) => JSON.stringify(b)), weight: 4 }, { arbitrary: fc.constantFrom(...RAW_BODIES), weight: 1 }),
  });
}

function urlOf(op: Operation, path: string[], query: Record<string, unknown>) {
  let i = 0;
  const p = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(path[i++] ?? '1'));
  const qs = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
  return qs ? `${p}?${qs}` : p;
}

let k: TestClient;
let base: string;
let token: string;
let operations: Operation[];
let tables: string[];

beforeAll(async () => {
  k = await startTestKelvin();
  const address = await k.kelvin.app.listen({ port: 0, host: '127.0.0.1' });
  base = address;
  token = await k.loginAdmin();
  const doc = k.kelvin.app.swagger() as { paths: Record<string, Record<string, { parameters?: Operation['params']; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, o]) => ({
    method: method.toUpperCase(),
    path,
    params: (o.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query'),
    body: o.requestBody?.content['application/json']?.schema ?? null,
  })));
  // this installation's tables only: on PostgreSQL other test runs' schemas share the database
  const schema = k.kelvin.app.config.databaseSchema;
  tables = (await k.db.introspection.getTables()).filter((t) => !schema || t.schema === schema)
    .map((t) => t.name).filter((n) => !UNSNAPSHOTTED.has(n)).sort();
});
afterAll(() => k?.close());

/** A digest of every table a request could change (the logs of refusals aside). */
async function fingerprint() {
  const hash = crypto.createHash('sha256');
  for (const t of tables) {
    const rows = await sql`select * from ${sql.table(t)}`.execute(k.db);
    hash.update(t).update(JSON.stringify(rows.rows.map((r) => JSON.stringify(r)).sort()));
  }
  return hash.digest('hex');
}

async function send(method: string, url: string, body?: string, auth?: string) {
  try {
    const res = await fetch(base + url, {
      method,
      headers: { ...(auth ? { authorization: auth } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body,
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let json: { code?: unknown; msg?: unknown } | null = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, json, type: res.headers.get('content-type') ?? '' };
  } catch (err) {
    throw new Error(`${method} ${url.slice(0, 200)}: 连接被断开或无应答 (${(err as Error).message})`);
  }
}

describe('由 OpenAPI 文档生成的检查', () => {
  it('covers the whole API', () => {
    expect(operations.length).toBeGreaterThan(150);
  });

  it('every non-public operation refuses a caller without a token: 401 + 40101', async () => {
    const open: string[] = [];
    for (const op of operations) {
      const key = `${op.method} ${op.path}`;
      const res = await send(op.method, urlOf(op, [], {}), op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}');
      if (key in PUBLIC_OPERATIONS) continue;
      if (res.status !== 401 || res.json?.code !== 40101) open.push(`${key} → ${res.status} ${String(res.json?.code)}`);
    }
    expect(open).toEqual([]);
  });

  it('fuzzed path parameters, query strings and bodies: never a 5xx or a dropped connection, a refusal changes nothing', async () => {
    const failures: string[] = [];
    for (const op of operations) {
      const key = `${op.method} ${op.path}`;
      if (STREAMS.has(key)) continue;
      const auth = key in PUBLIC_OPERATIONS ? undefined : token;
      const started = Date.now();
      await fc.assert(fc.asyncProperty(requestOf(op), async (r) => {
        const url = urlOf(op, r.path, r.query);
        const changing = op.method !== 'GET';
        const before = changing ? await fingerprint() : '';
        const res = await send(op.method, url, r.body, auth);
        const where = `${key} ${url.slice(0, 120)} ${r.body?.slice(0, 120) ?? ''}`;
        if (res.status >= 500) failures.push(`${where} → HTTP ${res.status} ${JSON.stringify(res.json)?.slice(0, 200)}`);
        const refused = res.status >= 400 || (res.json !== null && res.json.code !== 200);
        if (refused && (res.json === null || typeof res.json.code !== 'number' || typeof res.json.msg !== 'string')) failures.push(`${where} → ${res.status} 不是 { code, msg, data } 信封`);
        if (refused && changing && (await fingerprint()) !== before) failures.push(`${where} → 拒绝了（${String(res.json?.code)}）却改了数据`);
      }), { seed: SEED, numRuns: RUNS, endOnFailure: true });
      // the session must survive whatever the fuzzer sent (a generated logout would end it)
      if ((await send('GET', '/api/admin/user/front/info', undefined, token)).status !== 200) token = await k.loginAdmin();
      if (process.env.KELVIN_FUZZ_VERBOSE) console.log(`${key}: ${Date.now() - started} ms`);
    }
    expect(failures).toEqual([]);
  }, 15 * 60_000);
});
