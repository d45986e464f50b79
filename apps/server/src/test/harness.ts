import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildKelvin, type Kelvin } from '../app.ts';
import { loadConfig, type KelvinConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { hashPassword } from '../modules/auth/index.ts';

export const ADMIN_PASSWORD = 'Platform#Admin2026';

/**
 * A whole server on a fresh SQLite data dir, or — when DATABASE_URL points at PostgreSQL — in a schema of its own
 * that close() drops. Nothing is shared between test files.
 */
export async function startTestKelvin(overrides: Partial<KelvinConfig> = {}, opts: Parameters<typeof buildKelvin>[1] = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-test-'));
  const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
  const config: KelvinConfig = {
    ...loadConfig({}),
    dataDir,
    databaseUrl,
    databaseSchema: databaseUrl ? `kelvin_test_${crypto.randomBytes(6).toString('hex')}` : undefined,
    adminPassword: ADMIN_PASSWORD,
    mqttEnabled: false,
    mqttPort: 0,
    demo: false,
    logLevel: 'silent',
    webDist: path.join(dataDir, 'no-web'),
    ...overrides,
  };
  const kelvin = await buildKelvin(config, opts);
  return new TestClient(kelvin, dataDir);
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export class TestClient {
  constructor(
    readonly kelvin: Kelvin,
    private readonly dataDir: string,
  ) {}

  get db(): Db {
    return this.kelvin.db;
  }

  async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, opts: CallOptions = {}) {
    const res = await this.kelvin.app.inject({
      method,
      url,
      headers: { ...(opts.token ? { authorization: opts.token } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
    const body = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
    return { status: res.statusCode, body, headers: res.headers };
  }

  async login(username: string, password: string, ip?: string): Promise<string> {
    const res = await this.kelvin.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username, password }, ...(ip ? { remoteAddress: ip } : {}) });
    const body = res.json();
    if (body.code !== 200) throw new Error(`login ${username} failed: ${body.code} ${body.msg}`);
    return body.data as string;
  }

  loginAdmin() {
    return this.login('admin', ADMIN_PASSWORD);
  }

  async close() {
    await this.kelvin.close();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Fixtures written straight to the database (the admin screens have their own tests). */
export async function createTenant(db: Db, code: string, name = `${code} 物业`) {
  return (await db.insertInto('tenant').values({
    code, name, contact: null, phone: null, brand: `${name}品牌`, filing_no: null, enabled: 1, created_at: Date.now(),
  }).returning('id').executeTakeFirstOrThrow()).id;
}

export async function createUser(db: Db, u: { tenantId: number; username: string; password: string; codes: string[]; allProjects?: boolean; projectIds?: number[] }) {
  const now = Date.now();
  const user = await db.insertInto('app_user').values({
    tenant_id: u.tenantId, username: u.username, password_hash: await hashPassword(u.password), name: `${u.username} 用户`,
    phone: null, description: null, enabled: 1, all_projects: u.allProjects === false ? 0 : 1, is_platform: 0, created_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  const role = await db.insertInto('role').values({
    tenant_id: u.tenantId, parent_id: null, code: `role_${u.username}`, name: `${u.username} 角色`, group_type: 'role', description: null, created_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  if (u.codes.length) await db.insertInto('role_grant').values(u.codes.map((code) => ({ role_id: role.id, code }))).execute();
  await db.insertInto('user_role').values({ user_id: user.id, role_id: role.id }).execute();
  for (const projectId of u.projectIds ?? []) await db.insertInto('user_project').values({ user_id: user.id, project_id: projectId }).execute();
  return { id: user.id, roleId: role.id };
}

export async function createArea(db: Db, a: { tenantId: number; parentId: number | null; level: string; name: string; projectType?: string; projectType2?: number; billingScheme?: number }) {
  return (await db.insertInto('area').values({
    tenant_id: a.tenantId, parent_id: a.parentId, level: a.level, name: a.name, code: null, sort_no: 0, floor_area: null,
    project_type: a.projectType ?? null, project_type2: a.projectType2 ?? null, billing_scheme: a.billingScheme ?? null,
    address: null, lng: null, lat: null, alias: null, created_at: Date.now(),
  }).returning('id').executeTakeFirstOrThrow()).id;
}

/** A tenant with a region, a project (building and room below it) and a user holding the given codes. */
export async function createTenantWithProject(db: Db, code: string, codes: string[], projectType = 'PT1011') {
  const tenantId = await createTenant(db, code);
  const regionId = await createArea(db, { tenantId, parentId: null, level: 'region', name: `${code}区域` });
  const projectId = await createArea(db, { tenantId, parentId: regionId, level: 'project', name: `${code}项目`, projectType, projectType2: 101, billingScheme: 1 });
  const buildingId = await createArea(db, { tenantId, parentId: projectId, level: 'building', name: '1号楼' });
  const password = `${code}-Pass#2026`;
  const user = await createUser(db, { tenantId, username: `${code}_user`, password, codes });
  return { tenantId, regionId, projectId, buildingId, username: `${code}_user`, password, userId: user.id, roleId: user.roleId };
}
