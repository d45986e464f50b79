import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';

let k: TestClient;
let a: TenantWithProject, b: TenantWithProject, tokenA: string, tokenB: string;
const CODES = [
  'area', 'area:btn_add', 'projectlist', 'projectlist:btn_add', 'projectlist:btn_del', 'projectedit', 'projectedit:btn_edit',
  'projectview', 'projectview:btn_edit', 'projectindex',
];

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'page', CODES, ['PT2010', 'PT1011']));
});
afterAll(() => k?.close());

function upload(token: string, projectId: number, name: string, content: Buffer | string, type = 'application/pdf') {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), name);
  return k.call('POST', `/api/v1/static/uploadProjectFile?projectId=${projectId}`, { token, body: form });
}
async function download(token: string, fileId: number) {
  const res = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/static/downloadProjectFile/${fileId}`, headers: { authorization: token } });
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, json: () => res.json() };
}

describe('项目列表与编辑', () => {
  it('creates a project under a region, edits it (also moving it to another region) and deletes it', async () => {
    const created = await k.call('POST', '/api/v1/area/project', { token: tokenA, body: {
      regionId: a.regionId, name: '新建测试项目', projectType: 'PT1011', projectType2: 101, billingScheme: 3,
      address: '北京市海淀区 1 号', lng: 116.3, lat: 39.98, contact: '王工', phone: '010-88886666', remark: '二期',
    } });
    expect(created.body.code).toBe(200);
    const id = created.body.data.id;
    const region2 = await createArea(k.db, { tenantId: a.tenantId, parentId: null, level: 'region', name: '第二区域' });
    const edited = await k.call('PUT', `/api/v1/area/project/${id}`, { token: tokenA, body: {
      regionId: region2, name: '改名项目', projectType: 'PT2016', projectType2: 102, billingScheme: 9, address: '', contact: null,
    } });
    expect(edited.body.data).toMatchObject({ id, parentId: region2, name: '改名项目', projectType: 'PT2016', projectType2: 102, billingScheme: 9, address: null, contact: null, phone: '010-88886666' });
    const list = await k.call('GET', '/api/v1/area/project/list?name=改名', { token: tokenA });
    expect(list.body.data.rows[0]).toMatchObject({ id, projectTypeName: '中央空调能量当量计费', counts: { buildings: 0, rooms: 0 } });
    const del = await k.call('POST', `/api/v1/area/project/delete/${id}`, { token: tokenA });
    expect(del.body.code).toBe(200);
    expect(await k.db.selectFrom('area').select('id').where('id', '=', id).execute()).toEqual([]);
  });

  it('validates the project form with Chinese messages and changes nothing', async () => {
    const before = await k.db.selectFrom('area').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const cases: [Record<string, unknown>, string][] = [
      [{ regionId: a.regionId, name: '', projectType: 'PT1011' }, '请输入名称'],
      [{ regionId: a.regionId, name: 'x', projectType: 'PT9999' }, '项目类型不存在'],
      [{ regionId: a.regionId, name: 'x', projectType: 'PT1011', projectType2: 106 }, '项目二级类型不存在'],
      [{ regionId: a.regionId, name: 'x', projectType: 'PT1011', billingScheme: 22 }, '计费方案取值 1～21'],
      [{ regionId: a.regionId, name: 'x', projectType: 'PT1011', lng: 200, lat: 10 }, '经度取值 -180～180'],
      [{ regionId: a.regionId, name: 'x', projectType: 'PT1011', phone: 'abc' }, '联系电话格式不正确'],
      [{ regionId: a.projectId, name: 'x', projectType: 'PT1011' }, '项目 下只能新建楼栋'],
    ];
    for (const [body, msg] of cases) {
      const res = await k.call('POST', '/api/v1/area/project', { token: tokenA, body });
      expect(res.body.code, msg).toBe(40000);
      expect(res.body.msg, msg).toContain(msg.replace('项目 下', ''));
    }
    const after = await k.db.selectFrom('area').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a project still holding buildings is not deleted', async () => {
    const res = await k.call('POST', `/api/v1/area/project/delete/${a.projectId}`, { token: tokenA });
    expect(res.body).toMatchObject({ code: 40900, msg: '「pagea项目」下还有 1 个下级区域，不能删除' });
  });
});

describe('项目详情与地图', () => {
  it('counts buildings, floors, rooms and Σ room area; device figures stay empty without a device source', async () => {
    const fixture = await createTenantWithProject(k.db, 'counts', CODES, 'PT2010');
    const token = await k.login(fixture.username, fixture.password);
    for (const name of ['1层', '2层']) {
      const [floor] = (await k.call('POST', '/api/v1/area/create/1', { token, body: { parentId: fixture.buildingId, level: 'floor', name } })).body.data;
      await k.call('POST', '/api/v1/area/create/3', { token, body: { parentId: floor, level: 'room', name: `${name[0]}01`, floorArea: 50.5 } });
    }
    await k.call('PUT', `/api/v1/area/project/${fixture.projectId}`, { token, body: { regionId: fixture.regionId, name: 'counts项目', projectType: 'PT2010', projectType2: 101, address: '上海市 8 号', lng: 121.5, lat: 31.2 } });
    const res = await k.call('GET', `/api/v1/area/index/getProjectIndexMessage?projectId=${fixture.projectId}`, { token });
    expect(res.body.data).toMatchObject({
      id: fixture.projectId, name: 'counts项目', projectType: 'PT2010', projectTypeName: '中央空调时间当量计费', projectType2Name: '时间当量预付费',
      regionName: 'counts区域', address: '上海市 8 号', lng: 121.5, lat: 31.2,
      counts: { buildings: 1, floors: 2, rooms: 6, floorArea: 303 },
    });
    const map = await k.call('GET', '/api/v1/area/projectmap', { token });
    expect(map.body.data.items).toEqual([expect.objectContaining({ id: fixture.projectId, lng: 121.5, lat: 31.2, status: expect.any(String) })]);
    expect(map.body.data.statusLabels.normal).toBe('正常');
  });

  it('project figures of another tenant do not exist for the caller', async () => {
    const res = await k.call('GET', `/api/v1/area/index/getProjectIndexMessage?projectId=${a.projectId}`, { token: tokenB });
    expect(res.body.code).toBe(40400);
    const map = await k.call('GET', '/api/v1/area/projectmap', { token: tokenB });
    expect(map.body.data.items.map((i: { id: number }) => i.id)).toEqual([b.projectId]);
  });
});

describe('项目别名', () => {
  it('sets, reads and clears the alias; another tenant gets 404 and changes nothing', async () => {
    const set = await k.call('POST', `/api/v1/project/setProjectAlias?projectId=${a.projectId}`, { token: tokenA, body: { alias: '金融中心' } });
    expect(set.body.data).toEqual({ projectId: a.projectId, alias: '金融中心' });
    expect((await k.call('GET', `/api/v1/project/getProjectAlias?projectId=${a.projectId}`, { token: tokenA })).body.data.alias).toBe('金融中心');
    const foreign = await k.call('POST', `/api/v1/project/setProjectAlias?projectId=${a.projectId}`, { token: tokenB, body: { alias: '篡改' } });
    expect(foreign.body.code).toBe(40400);
    expect((await k.call('GET', `/api/v1/project/getProjectAlias?projectId=${a.projectId}`, { token: tokenB })).body.code).toBe(40400);
    const clear = await k.call('POST', `/api/v1/project/setProjectAlias?projectId=${a.projectId}`, { token: tokenA, body: { alias: '' } });
    expect(clear.body.data.alias).toBeNull();
  });
});

describe('项目文件', () => {
  it('uploads, lists, downloads with a UTF-8 file name, and removes a file from disk', async () => {
    const content = Buffer.from('%PDF-1.4 图纸内容');
    const up = await upload(tokenA, a.projectId, '../../施工图纸 A.pdf', content);
    expect(up.body.code).toBe(200);
    expect(up.body.data).toMatchObject({ projectId: a.projectId, name: '施工图纸 A.pdf', size: content.length, uploadedBy: a.username });
    const list = await k.call('POST', '/api/v1/static/getProjectFile', { token: tokenA, body: { projectId: a.projectId } });
    expect(list.body.data.map((f: { name: string }) => f.name)).toEqual(['施工图纸 A.pdf']);
    const dl = await download(tokenA, up.body.data.id);
    expect(dl.status).toBe(200);
    expect(Buffer.compare(dl.raw, content)).toBe(0);
    expect(dl.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('施工图纸 A.pdf')}`);
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    const row = await k.db.selectFrom('project_file').select(['stored_name', 'tenant_id']).where('id', '=', up.body.data.id).executeTakeFirstOrThrow();
    const stored = path.join(k.kelvin.app.config.dataDir, 'uploads', 'project-files', String(row.tenant_id), row.stored_name);
    expect(fs.existsSync(stored)).toBe(true);
    const rm = await k.call('POST', '/api/v1/static/removeProjectFile', { token: tokenA, body: { fileId: up.body.data.id } });
    expect(rm.body.code).toBe(200);
    expect(fs.existsSync(stored)).toBe(false);
    expect((await download(tokenA, up.body.data.id)).status).toBe(404);
  });

  it('another tenant cannot upload to, list, download or remove a project\'s files', async () => {
    const up = await upload(tokenA, a.projectId, '合同.docx', 'secret');
    const id = up.body.data.id;
    expect((await upload(tokenB, a.projectId, 'x.txt', 'x')).body.code).toBe(40400);
    expect((await k.call('POST', '/api/v1/static/getProjectFile', { token: tokenB, body: { projectId: a.projectId } })).body.code).toBe(40400);
    const dl = await download(tokenB, id);
    expect(dl.status).toBe(404);
    expect(dl.raw.toString()).not.toContain('secret');
    expect((await k.call('POST', '/api/v1/static/removeProjectFile', { token: tokenB, body: { fileId: id } })).body.code).toBe(40400);
    expect(await k.db.selectFrom('project_file').select('id').where('id', '=', id).execute()).toHaveLength(1);
    expect((await k.call('POST', '/api/v1/static/uploadProjectFile?projectId=' + a.projectId, { token: tokenB, body: { file: 'x' } })).body.code).toBe(40000);
  });

  it('refuses an empty file and a file over 20 MB, leaving nothing behind', async () => {
    const before = await k.db.selectFrom('project_file').select('id').where('project_id', '=', b.projectId).execute();
    expect((await upload(tokenB, b.projectId, 'empty.txt', '')).body).toMatchObject({ code: 40000, msg: '文件是空的' });
    const big = await upload(tokenB, b.projectId, 'big.bin', Buffer.alloc(20 * 1024 * 1024 + 10));
    expect(big.body).toMatchObject({ code: 40000, msg: '文件超过 20 MB，未保存' });
    expect(await k.db.selectFrom('project_file').select('id').where('project_id', '=', b.projectId).execute()).toEqual(before);
    const dir = path.join(k.kelvin.app.config.dataDir, 'uploads', 'project-files', String(b.tenantId));
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });
});
