import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, createUser, startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';

let k: TestClient;
let a: TenantWithProject, b: TenantWithProject, tokenA: string, tokenB: string;
const ALL = ['area', 'area:view', 'area:btn_add', 'area:btn_edit', 'area:btn_del', 'projectlist', 'monitorrules'];

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'tenant', ALL, ['PT2010', 'PT1011']));
});
afterAll(() => k?.close());

describe('区域树与项目', () => {
  it('tree/-1 returns only the caller tenant roots, region → project → building', async () => {
    const res = await k.call('GET', '/api/v1/area/tree/-1', { token: tokenA });
    expect(res.body.code).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const region = res.body.data[0];
    expect(region).toMatchObject({ id: a.regionId, label: 'tenanta区域', value: a.regionId, level: 'region' });
    expect(region.children[0]).toMatchObject({ id: a.projectId, level: 'project', attr4: 'PT2010' });
    expect(region.children[0].children[0]).toMatchObject({ id: a.buildingId, level: 'building' });
  });

  it('tree?depth= cuts the tree that many levels down, the cut nodes saying how many children they have', async () => {
    const whole = (await k.call('GET', '/api/v1/area/tree/-1', { token: tokenA })).body.data;
    const project = whole[0].children[0];
    expect(JSON.stringify(whole)).not.toContain('childCount');
    const top = (await k.call('GET', '/api/v1/area/tree/-1?depth=0', { token: tokenA })).body.data;
    expect(top).toEqual([{ ...whole[0], children: [], childCount: whole[0].children.length }]);
    const two = (await k.call('GET', '/api/v1/area/tree/-1?depth=1', { token: tokenA })).body.data;
    expect(two[0].children[0]).toEqual({ ...project, children: [], childCount: project.children.length });
    expect(project.children.length).toBeGreaterThan(0);
    // opening the project: its own level below, and one more
    const opened = (await k.call('GET', `/api/v1/area/tree/${project.id}?depth=1`, { token: tokenA })).body.data;
    expect(opened[0].children.map((n: { id: number }) => n.id)).toEqual(project.children.map((n: { id: number }) => n.id));
    expect(opened[0].children[0].children).toEqual([]);
    // deep enough: the whole tree again, nothing marked
    expect((await k.call('GET', '/api/v1/area/tree/-1?depth=4', { token: tokenA })).body.data).toEqual(whole);
    // another tenant's node stays unknown, with or without depth
    expect((await k.call('GET', `/api/v1/area/tree/${b.projectId}?depth=1`, { token: tokenA })).body.code).toBe(40400);
    for (const bad of ['5', '-1', 'x', '1.5']) {
      const res = await k.call('GET', `/api/v1/area/tree/-1?depth=${bad}`, { token: tokenA });
      expect(res.body.code).toBe(40000);
      expect(res.body.msg).toMatch(/层数/);
    }
  });

  it('treeonlyproject stops at the project level', async () => {
    const res = await k.call('GET', '/api/v1/area/treeonlyproject/-1', { token: tokenA });
    expect(res.body.data[0].children[0].children).toEqual([]);
  });

  it('getproject, billing scheme and project types of a project', async () => {
    const p = await k.call('GET', `/api/v1/area/getproject/${a.projectId}`, { token: tokenA });
    expect(p.body.data).toMatchObject({ id: a.projectId, projectType: 'PT2010', projectType2: 101, billingScheme: 1 });
    const s = await k.call('GET', `/api/v1/area/projectpara/getpara/${a.projectId}/projectBillingScheme`, { token: tokenA });
    expect(s.body.data).toEqual({ paraValue: 1 });
    const t = await k.call('GET', `/api/v1/area/projecttypelist?projectId=${a.projectId}`, { token: tokenA });
    expect(t.body.data[0]).toMatchObject({ projectType: 'PT2010', projectType2: 101 });
    const d = await k.call('GET', `/api/v1/area/devicetypebyproject/${a.projectId}`, { token: tokenA });
    expect(d.body.data.map((x: { code: string }) => x.code)).toContain('device20030');
    expect(d.body.data.map((x: { code: string }) => x.code)).not.toContain('device20020');
  });

  it('project/list is paginated as { total, rows } and filters by name', async () => {
    const res = await k.call('GET', '/api/v1/area/project/list?pageNo=1&pageSize=10', { token: tokenA });
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.rows[0].name).toBe('tenanta项目');
    const none = await k.call('GET', '/api/v1/area/project/list?name=zzz', { token: tokenA });
    expect(none.body.data).toEqual({ total: 0, rows: [] });
    const bad = await k.call('GET', '/api/v1/area/project/list?pageSize=1000', { token: tokenA });
    expect(bad.body.code).toBe(40000);
    expect(bad.body.msg).toContain('200');
  });

  it('monitormessageqty answers a number for a visible project', async () => {
    const res = await k.call('GET', `/api/v1/device/monitormessageqty/${a.projectId}`, { token: tokenA });
    expect(res.body).toMatchObject({ code: 200, data: 0 });
  });

  it('invalid project ids get a Chinese message', async () => {
    const res = await k.call('GET', '/api/v1/area/getproject/abc', { token: tokenA });
    expect(res.body.code).toBe(40000);
    expect(res.body.msg).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('租户隔离', () => {
  it('tenant B cannot read tenant A areas by id, tree, project info or list', async () => {
    for (const url of [
      `/api/v1/area/${a.projectId}`,
      `/api/v1/area/tree/${a.regionId}`,
      `/api/v1/area/getproject/${a.projectId}`,
      `/api/v1/area/projectpara/getpara/${a.projectId}/projectBillingScheme`,
      `/api/v1/device/monitormessageqty/${a.projectId}`,
      `/api/v1/area/devicetypebyproject/${a.projectId}`,
    ]) {
      const res = await k.call('GET', url, { token: tokenB });
      expect(res.status, url).toBe(404);
      expect(res.body.code, url).toBe(40400);
    }
    const list = await k.call('GET', '/api/v1/area/project/list', { token: tokenB });
    expect(list.body.data.rows.map((r: { id: number }) => r.id)).toEqual([b.projectId]);
    const tree = await k.call('GET', '/api/v1/area/tree/-1', { token: tokenB });
    expect(JSON.stringify(tree.body.data)).not.toContain('tenanta');
  });

  it('tenant B cannot change, delete or create under tenant A areas, and nothing changes', async () => {
    const put = await k.call('PUT', `/api/v1/area/${a.buildingId}`, { token: tokenB, body: { name: '被篡改' } });
    expect(put.body.code).toBe(40400);
    const del = await k.call('POST', `/api/v1/area/deletebyid/${a.buildingId}`, { token: tokenB });
    expect(del.body.code).toBe(40400);
    const create = await k.call('POST', '/api/v1/area/create/2', { token: tokenB, body: { parentId: a.buildingId, level: 'floor', name: '层' } });
    expect(create.body.code).toBe(40400);
    const row = await k.db.selectFrom('area').select(['name', 'tenant_id']).where('id', '=', a.buildingId).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: '1号楼', tenant_id: a.tenantId });
  });

  it('a tenantId in the body is ignored: areas are created in the caller tenant', async () => {
    const res = await k.call('POST', '/api/v1/area/create/1', { token: tokenB, body: { parentId: null, level: 'region', name: '新区域', tenantId: a.tenantId } });
    expect(res.body.code).toBe(200);
    const row = await k.db.selectFrom('area').select('tenant_id').where('id', '=', res.body.data[0]).executeTakeFirstOrThrow();
    expect(row.tenant_id).toBe(b.tenantId);
  });

  it('the platform administrator sees every tenant', async () => {
    const token = await k.loginAdmin();
    const res = await k.call('GET', '/api/v1/area/tree/-1', { token });
    const labels = res.body.data.map((n: { label: string }) => n.label);
    expect(labels).toEqual(expect.arrayContaining(['tenanta区域', 'tenantb区域']));
  });

  it('a user granted one project sees only it (with its region and below)', async () => {
    const other = await createArea(k.db, { tenantId: a.tenantId, parentId: a.regionId, level: 'project', name: '另一个项目', projectType: 'PT1011' });
    await createUser(k.db, { tenantId: a.tenantId, username: 'limited_a', password: 'Limited#2026', codes: ALL, allProjects: false, projectIds: [a.projectId] });
    const token = await k.login('limited_a', 'Limited#2026');
    const tree = await k.call('GET', '/api/v1/area/tree/-1', { token });
    const projects = tree.body.data[0].children.map((c: { id: number }) => c.id);
    expect(projects).toEqual([a.projectId]);
    expect((await k.call('GET', `/api/v1/area/getproject/${other}`, { token })).body.code).toBe(40400);
    expect((await k.call('GET', `/api/v1/area/${a.buildingId}`, { token })).body.code).toBe(200);
  });
});

describe('权限', () => {
  it('a user without the code gets 403 + 40301 and the denial is logged', async () => {
    const t = await createTenantWithProject(k.db, 'nocode', ['area']);
    const token = await k.login(t.username, t.password);
    const list = await k.call('GET', '/api/v1/area/project/list', { token });
    expect(list.status).toBe(403);
    expect(list.body.code).toBe(40301);
    const create = await k.call('POST', '/api/v1/area/create/1', { token, body: { parentId: t.projectId, level: 'building', name: '2号楼' } });
    expect(create.body.code).toBe(40301);
    const denials = await k.db.selectFrom('gate_log').select(['status', 'uri']).where('tenant_id', '=', t.tenantId).where('status', '=', 403).execute();
    expect(denials.map((d) => d.uri)).toEqual(['/api/v1/area/project/list', '/api/v1/area/create/1']);
  });
});

describe('区域维护', () => {
  it('create/{createqty} makes that many siblings at the next level only', async () => {
    const res = await k.call('POST', '/api/v1/area/create/3', { token: tokenA, body: { parentId: a.buildingId, level: 'floor', name: '楼层' } });
    expect(res.body.data).toHaveLength(3);
    const wrongLevel = await k.call('POST', '/api/v1/area/create/1', { token: tokenA, body: { parentId: a.buildingId, level: 'room', name: '房' } });
    expect(wrongLevel.body.code).toBe(40000);
    expect(wrongLevel.body.msg).toContain('楼层');
    const tooMany = await k.call('POST', '/api/v1/area/create/501', { token: tokenA, body: { parentId: a.buildingId, level: 'floor', name: '层' } });
    expect(tooMany.body.code).toBe(40000);
  });

  it('refuses to delete an area that still has children', async () => {
    const res = await k.call('POST', `/api/v1/area/deletebyid/${a.projectId}`, { token: tokenA });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(40900);
  });
});
