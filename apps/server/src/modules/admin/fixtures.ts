import ExcelJS from 'exceljs';
import { MENUS, PLATFORM_ONLY_MENUS, elementCodes } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { expect } from 'vitest';
import { createTenantWithProject, createUser, type TestClient } from '../../test/harness.ts';

/** Test fixtures of the admin and system suites (imported by *.test.ts only). */

/** Every code a tenant administrator holds: all screens and buttons but the platform's own. */
export const TENANT_ADMIN_CODES = MENUS.filter((m) => !PLATFORM_ONLY_MENUS.has(m.code)).flatMap((m) => [m.code, ...elementCodes(m)]);

export interface TenantFixture {
  tenantId: number;
  regionId: number;
  projectId: number;
  buildingId: number;
  adminId: number;
  adminRoleId: number;
  username: string;
  password: string;
  token: string;
}

/** A tenant with a project and an administrator holding TENANT_ADMIN_CODES, logged in. */
export async function tenantWithAdmin(k: TestClient, code: string): Promise<TenantFixture> {
  const t = await createTenantWithProject(k.db, code, TENANT_ADMIN_CODES);
  return {
    tenantId: t.tenantId, regionId: t.regionId, projectId: t.projectId, buildingId: t.buildingId, adminId: t.userId, adminRoleId: t.roleId,
    username: t.username, password: t.password, token: await k.login(t.username, t.password),
  };
}

/** A user of the tenant with exactly these codes, logged in. */
export async function userWith(k: TestClient, tenantId: number, username: string, codes: string[], extra: { allProjects?: boolean; projectIds?: number[] } = {}) {
  const password = `${username}-Pass#2026`;
  const u = await createUser(k.db, { tenantId, username, password, codes, ...extra });
  return { id: u.id, roleId: u.roleId, username, password, token: await k.login(username, password) };
}

const TABLES = ['tenant', 'app_user', 'role', 'role_grant', 'user_role', 'user_project', 'group_type', 'menu', 'menu_element', 'holiday', 'sms_template', 'sms_setting', 'sms_record', 'system_param'] as const;

/** Everything an admin call may change, to prove that a refused call changed nothing. */
export async function snapshot(db: Db): Promise<string> {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) {
    const rows = (await db.selectFrom(t).selectAll().execute()) as Record<string, unknown>[];
    out[t] = rows.map((r) => JSON.stringify(Object.keys(r).sort().map((key) => [key, r[key]]))).sort();
  }
  return JSON.stringify(out);
}

/** All cell text of an .xlsx download, one line per row. */
export async function xlsxText(body: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const lines: string[] = [];
  wb.worksheets[0].eachRow((row) => {
    lines.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))).join('|'));
  });
  return lines;
}

/** A raw call that keeps the body as bytes (downloads). */
export async function download(k: TestClient, url: string, token: string) {
  const res = await k.kelvin.app.inject({ method: 'GET', url, headers: { authorization: token } });
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, json: res.headers['content-type']?.toString().includes('json') ? res.json() : null };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `data`: a call that must succeed, answering its data; `refused`: a call that must fail with this code and change nothing. */
export function apiOf(k: TestClient) {
  return {
    async data(method: Method, url: string, token: string, body?: unknown) {
      const res = await k.call(method, url, { token, body });
      if (res.body?.code !== 200) throw new Error(`${method} ${url}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async refused(method: Exclude<Method, 'GET'>, url: string, token: string, body: unknown, code: number, msg?: RegExp) {
      const before = await snapshot(k.db);
      const res = await k.call(method, url, { token, body });
      expect(res.body.code, JSON.stringify(res.body)).toBe(code);
      if (msg) expect(res.body.msg).toMatch(msg);
      expect(await snapshot(k.db)).toBe(before);
      return res.body;
    },
  };
}
export type Api = ReturnType<typeof apiOf>;

/** The admin suites' setup: tenants `${prefix}a` and `${prefix}b`, each with its administrator signed in, and the call helpers. */
export async function twoAdminTenants(k: TestClient, prefix: string) {
  return { A: await tenantWithAdmin(k, `${prefix}a`), B: await tenantWithAdmin(k, `${prefix}b`), ...apiOf(k) };
}
