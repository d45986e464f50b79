import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, startTestKelvin, type TestClient } from '../test/harness.ts';
import { changesOf } from './index.ts';

let k: TestClient;
beforeAll(async () => {
  k = await startTestKelvin();
});
afterAll(() => k?.close());

describe('表写入计数（内存缓存的失效依据）', () => {
  it('every INSERT, UPDATE and DELETE moves its table’s counter, in a transaction and under an alias too; reads do not', async () => {
    const changes = changesOf(k.db);
    const before = { area: changes.epoch(['area']), session: changes.epoch(['session']), tenant: changes.epoch(['tenant']) };
    await k.db.selectFrom('area').selectAll().execute();
    expect(changes.epoch(['area'])).toBe(before.area);
    const t = await createTenantWithProject(k.db, 'epochs', ['projectlist']);
    const afterInsert = changes.epoch(['area']);
    expect(afterInsert).toBeGreaterThan(before.area);
    expect(changes.epoch(['tenant'])).toBeGreaterThan(before.tenant);
    await k.db.transaction().execute((trx) => trx.updateTable('area as a').set({ name: '改名' }).where('a.id', '=', t.projectId).execute());
    const afterUpdate = changes.epoch(['area']);
    expect(afterUpdate).toBeGreaterThan(afterInsert);
    await k.db.deleteFrom('session').where('user_id', '=', -1).execute();
    expect(changes.epoch(['session'])).toBeGreaterThan(before.session);
    expect(changes.epoch(['area'])).toBe(afterUpdate);
    // the sum over several tables moves when any one does
    const both = changes.epoch(['area', 'session']);
    await k.db.updateTable('session').set({ revoked_at: 1 }).where('user_id', '=', -1).execute();
    expect(changes.epoch(['area', 'session'])).toBeGreaterThan(both);
  });

  it('a grant of a project, a new area and a renamed one are seen by the next request of a signed-in user', async () => {
    const t = await createTenantWithProject(k.db, 'grants', ['projectlist'], 'PT1011');
    const other = await createArea(k.db, { tenantId: t.tenantId, parentId: t.regionId, level: 'project', name: '第二项目', projectType: 'PT1011' });
    await k.db.updateTable('app_user').set({ all_projects: 0 }).where('id', '=', t.userId).execute();
    await k.db.insertInto('user_project').values({ user_id: t.userId, project_id: t.projectId }).execute();
    const token = await k.login(t.username, t.password);
    const names = async () => (await k.call('GET', '/api/v1/area/project/list?pageNo=1&pageSize=20', { token })).body.data.rows.map((r: any) => r.name);
    const tree = async () => JSON.stringify((await k.call('GET', `/api/v1/area/tree/${t.projectId}`, { token })).body.data);
    expect(await names()).toEqual([expect.any(String)]);
    expect(await tree()).not.toContain('一号楼');
    await k.db.insertInto('user_project').values({ user_id: t.userId, project_id: other }).execute();
    expect(await names()).toHaveLength(2);
    await createArea(k.db, { tenantId: t.tenantId, parentId: t.projectId, level: 'building', name: '一号楼' });
    expect(await tree()).toContain('一号楼');
    await k.db.updateTable('area').set({ name: '二号楼' }).where('name', '=', '一号楼').where('tenant_id', '=', t.tenantId).execute();
    expect(await tree()).toContain('二号楼');
    await k.db.deleteFrom('user_project').where('user_id', '=', t.userId).where('project_id', '=', other).execute();
    expect(await names()).toHaveLength(1);
    expect((await k.call('GET', `/api/v1/area/tree/${other}`, { token })).body.code).toBe(40400);
  });

  it('the area tree answers gzip to who accepts it, the same JSON, and 304 for the version the browser holds', async () => {
    const t = await createTenantWithProject(k.db, 'gzip', ['projectlist']);
    const token = await k.login(t.username, t.password);
    const plain = await k.kelvin.app.inject({ method: 'GET', url: '/api/v1/area/tree/-1', headers: { authorization: token } });
    const zipped = await k.kelvin.app.inject({ method: 'GET', url: '/api/v1/area/tree/-1', headers: { authorization: token, 'accept-encoding': 'gzip, br' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(zipped.rawPayload).toString())).toEqual(plain.json());
    expect(plain.json()).toMatchObject({ code: 200, data: [expect.objectContaining({ id: t.regionId })] });
    const etag = String(plain.headers.etag);
    const again = await k.kelvin.app.inject({ method: 'GET', url: '/api/v1/area/tree/-1', headers: { authorization: token, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    await createArea(k.db, { tenantId: t.tenantId, parentId: t.projectId, level: 'building', name: 'A 座' });
    const changed = await k.kelvin.app.inject({ method: 'GET', url: '/api/v1/area/tree/-1', headers: { authorization: token, 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('A 座');
  });
});

describe.runIf(process.env.DATABASE_URL?.startsWith('postgres'))('两个进程共用一个 PostgreSQL', () => {
  it('a revoked session, a removed role grant and a new area reach the other process through NOTIFY', async () => {
    const second = await startTestKelvin({ dataDir: (k as any).dataDir, databaseSchema: k.kelvin.app.config.databaseSchema }, { scheduler: false });
    const eventually = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
      return check();
    };
    try {
      const t = await createTenantWithProject(k.db, 'twoproc', ['projectlist']);
      const token = await k.login(t.username, t.password);
      const projectList = (c: TestClient) => c.call('GET', '/api/v1/area/project/list?pageNo=1&pageSize=20', { token });
      // B builds its cached caller and areas first
      expect((await projectList(second)).body.code).toBe(200);
      const tree = async () => JSON.stringify((await second.call('GET', `/api/v1/area/tree/${t.projectId}`, { token })).body.data);
      expect(await tree()).not.toContain('东楼');
      await createArea(k.db, { tenantId: t.tenantId, parentId: t.projectId, level: 'building', name: '东楼' });
      expect(await eventually(async () => (await tree()).includes('东楼'))).toBe(true);

      await k.db.deleteFrom('role_grant').where('role_id', '=', t.roleId).execute();
      expect(await eventually(async () => (await projectList(second)).body.code === 40301)).toBe(true);

      const token2 = await k.login(t.username, t.password);
      expect((await second.call('GET', '/api/admin/user/front/info', { token: token2 })).body.code).toBe(200);
      await k.call('GET', `/api/auth/jwt/invalid?token=${encodeURIComponent(token2)}`);
      expect(await eventually(async () => (await second.call('GET', '/api/admin/user/front/info', { token: token2 })).body.code === 40101)).toBe(true);
    } finally {
      second.kelvin.app.config.databaseSchema = undefined;
      await second.kelvin.close();
    }
  });
});
