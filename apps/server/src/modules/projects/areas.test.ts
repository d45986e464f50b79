import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, createUser, startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';
import { sequenceNames } from './service.ts';

let k: TestClient;
let a: TenantWithProject, b: TenantWithProject, tokenA: string, tokenB: string;
const CODES = ['area', 'area:view', 'area:btn_add', 'area:btn_edit', 'area:btn_del'];

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'tree', CODES));
});
afterAll(() => k?.close());

const create = (token: string, qty: number, body: Record<string, unknown>) => k.call('POST', `/api/v1/area/create/${qty}`, { token, body });
const nameOf = async (id: number) => (await k.db.selectFrom('area').select(['name', 'parent_id', 'floor_area']).where('id', '=', id).executeTakeFirstOrThrow());

describe('区域的顺序', () => {
  it('the tree lists buildings, floors and rooms in natural order whatever order they were created in', async () => {
    const t = await createTenantWithProject(k.db, 'treeorder', CODES);
    const token = await k.login(t.username, t.password);
    const [b10] = (await create(token, 1, { parentId: t.projectId, level: 'building', name: '10号楼' })).body.data;
    await create(token, 1, { parentId: t.projectId, level: 'building', name: '2号楼' });
    const [f10] = (await create(token, 1, { parentId: b10, level: 'floor', name: '10层' })).body.data;
    await create(token, 1, { parentId: b10, level: 'floor', name: '2层' });
    await create(token, 1, { parentId: f10, level: 'room', name: '1001室' });
    await create(token, 1, { parentId: f10, level: 'room', name: '101室' });
    const tree = (await k.call('GET', `/api/v1/area/tree/${t.projectId}`, { token })).body.data;
    type N = { label: string; children: N[] };
    const project: N = tree[0];
    expect(project.children.map((n) => n.label)).toEqual(['1号楼', '2号楼', '10号楼']);
    const building10 = project.children[2];
    expect(building10.children.map((n) => n.label)).toEqual(['2层', '10层']);
    expect(building10.children[1].children.map((n) => n.label)).toEqual(['101室', '1001室']);
  });
});

describe('批量新建的命名', () => {
  it('counts on from a trailing number and keeps its width, else appends 1…n', () => {
    expect(sequenceNames('101', 3)).toEqual(['101', '102', '103']);
    expect(sequenceNames('B09', 3)).toEqual(['B09', 'B10', 'B11']);
    expect(sequenceNames('楼层', 2)).toEqual(['楼层1', '楼层2']);
    expect(sequenceNames('大堂', 1)).toEqual(['大堂']);
  });

  it('creates 30 rooms 101…130 with their floor area, and refuses a clashing second batch', async () => {
    const [floorId] = (await create(tokenA, 1, { parentId: a.buildingId, level: 'floor', name: '1层' })).body.data;
    const res = await create(tokenA, 30, { parentId: floorId, level: 'room', name: '101', floorArea: 88.5 });
    expect(res.body.code).toBe(200);
    expect(res.body.data).toHaveLength(30);
    const rooms = await k.db.selectFrom('area').select(['name', 'floor_area']).where('parent_id', '=', floorId).orderBy('id').execute();
    expect(rooms.map((r) => r.name)).toEqual(Array.from({ length: 30 }, (_, i) => String(101 + i)));
    expect(rooms.every((r) => r.floor_area === 88.5)).toBe(true);
    const again = await create(tokenA, 5, { parentId: floorId, level: 'room', name: '128' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('同一上级下已有名为「128」的房间');
    expect(await k.db.selectFrom('area').select('id').where('parent_id', '=', floorId).execute()).toHaveLength(30);
  });

  it('floor area is for rooms only and must be a positive number', async () => {
    const onFloor = await create(tokenA, 1, { parentId: a.buildingId, level: 'floor', name: '带面积的层', floorArea: 10 });
    expect(onFloor.body).toMatchObject({ code: 40000, msg: '只有房间可以填写面积' });
    const [floorId] = (await create(tokenA, 1, { parentId: a.buildingId, level: 'floor', name: '2层' })).body.data;
    const negative = await create(tokenA, 1, { parentId: floorId, level: 'room', name: '201', floorArea: -3 });
    expect(negative.body).toMatchObject({ code: 40000, msg: '面积必须大于 0' });
  });

  it('a project needs a project type', async () => {
    const res = await create(tokenA, 1, { parentId: a.regionId, level: 'project', name: '无类型项目' });
    expect(res.body).toMatchObject({ code: 40000, msg: '请选择项目类型' });
  });
});

describe('修改区域', () => {
  it('edits a room name and area; a sibling name clash is refused', async () => {
    const [floorId] = (await create(tokenA, 1, { parentId: a.buildingId, level: 'floor', name: '3层' })).body.data;
    const [r1, r2] = (await create(tokenA, 2, { parentId: floorId, level: 'room', name: '301' })).body.data;
    const res = await k.call('PUT', `/api/v1/area/${r1}`, { token: tokenA, body: { name: '301室', floorArea: 120.25 } });
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({ id: r1, name: '301室', floorArea: 120.25, level: 'room', parentId: floorId });
    expect(await nameOf(r1)).toMatchObject({ name: '301室', floor_area: 120.25 });
    const clash = await k.call('PUT', `/api/v1/area/${r2}`, { token: tokenA, body: { name: '301室' } });
    expect(clash.body.code).toBe(40900);
    expect((await nameOf(r2)).name).toBe('302');
    const clear = await k.call('PUT', `/api/v1/area/${r1}`, { token: tokenA, body: { floorArea: null } });
    expect(clear.body.data.floorArea).toBeNull();
  });

  it('longitude and latitude go together', async () => {
    const res = await k.call('PUT', `/api/v1/area/${a.projectId}`, { token: tokenA, body: { lng: 116.4 } });
    expect(res.body).toMatchObject({ code: 40000, msg: '经度和纬度需同时填写' });
    const both = await k.call('PUT', `/api/v1/area/${a.projectId}`, { token: tokenA, body: { lng: 116.4, lat: 39.9 } });
    expect(both.body.data).toMatchObject({ lng: 116.4, lat: 39.9 });
  });
});

describe('移动区域', () => {
  it('moves a room to another floor, and a floor to another building of the same project', async () => {
    const [f1, f2] = (await create(tokenA, 2, { parentId: a.buildingId, level: 'floor', name: '移动层' })).body.data;
    const [room] = (await create(tokenA, 1, { parentId: f1, level: 'room', name: '搬家房' })).body.data;
    const res = await k.call('POST', `/api/v1/area/move/${room}`, { token: tokenA, body: { parentId: f2 } });
    expect(res.body).toMatchObject({ code: 200, data: { id: room, parentId: f2 } });
    expect((await nameOf(room)).parent_id).toBe(f2);
    const [b2] = (await create(tokenA, 1, { parentId: a.projectId, level: 'building', name: '2号楼' })).body.data;
    expect((await k.call('POST', `/api/v1/area/move/${f2}`, { token: tokenA, body: { parentId: b2 } })).body.code).toBe(200);
    const tree = await k.call('GET', `/api/v1/area/tree/${b2}`, { token: tokenA });
    expect(tree.body.data[0].children[0]).toMatchObject({ id: f2, children: [{ id: room, label: '搬家房' }] });
  });

  it('refuses a parent of the wrong level, itself, a region move and a name clash', async () => {
    const [floor] = (await create(tokenA, 1, { parentId: a.buildingId, level: 'floor', name: '规则层' })).body.data;
    const [room] = (await create(tokenA, 1, { parentId: floor, level: 'room', name: '规则房' })).body.data;
    const wrong = await k.call('POST', `/api/v1/area/move/${room}`, { token: tokenA, body: { parentId: a.buildingId } });
    expect(wrong.body).toMatchObject({ code: 40000, msg: '房间只能移动到楼层下' });
    const self = await k.call('POST', `/api/v1/area/move/${floor}`, { token: tokenA, body: { parentId: floor } });
    expect(self.body).toMatchObject({ code: 40000, msg: '不能移动到自身下' });
    const region = await k.call('POST', `/api/v1/area/move/${a.regionId}`, { token: tokenA, body: { parentId: a.projectId } });
    expect(region.body).toMatchObject({ code: 40000, msg: '区域是顶层节点，不能移动' });
    const [other] = (await create(tokenA, 1, { parentId: a.buildingId, level: 'floor', name: '另一规则层' })).body.data;
    await create(tokenA, 1, { parentId: other, level: 'room', name: '规则房' });
    const clash = await k.call('POST', `/api/v1/area/move/${room}`, { token: tokenA, body: { parentId: other } });
    expect(clash.body.code).toBe(40900);
    expect((await nameOf(room)).parent_id).toBe(floor);
  });

  it('never across tenants: another tenant\'s parent does not exist for the caller, even for the platform admin', async () => {
    const [floorB] = (await create(tokenB, 1, { parentId: b.buildingId, level: 'floor', name: 'B层' })).body.data;
    const [floorA] = (await create(tokenA, 1, { parentId: a.buildingId, level: 'floor', name: 'A层' })).body.data;
    const [roomA] = (await create(tokenA, 1, { parentId: floorA, level: 'room', name: 'A房' })).body.data;
    const intoB = await k.call('POST', `/api/v1/area/move/${roomA}`, { token: tokenA, body: { parentId: floorB } });
    expect(intoB.body.code).toBe(40400);
    const fromB = await k.call('POST', `/api/v1/area/move/${roomA}`, { token: tokenB, body: { parentId: floorB } });
    expect(fromB.body.code).toBe(40400);
    const admin = await k.loginAdmin();
    const platform = await k.call('POST', `/api/v1/area/move/${roomA}`, { token: admin, body: { parentId: floorB } });
    expect(platform.body).toMatchObject({ code: 40000, msg: '只能在同一租户内移动' });
    expect((await nameOf(roomA)).parent_id).toBe(floorA);
  });
});

describe('删除区域', () => {
  it('says how many children remain, then deletes once empty', async () => {
    const [floor] = (await create(tokenA, 1, { parentId: a.buildingId, level: 'floor', name: '待删层' })).body.data;
    const [r1, r2] = (await create(tokenA, 2, { parentId: floor, level: 'room', name: '待删房' })).body.data;
    const refused = await k.call('POST', `/api/v1/area/deletebyid/${floor}`, { token: tokenA });
    expect(refused.body).toMatchObject({ code: 40900, msg: '「待删层」下还有 2 个下级区域，不能删除' });
    for (const id of [r1, r2]) expect((await k.call('POST', `/api/v1/area/deletebyid/${id}`, { token: tokenA })).body.code).toBe(200);
    expect((await k.call('POST', `/api/v1/area/deletebyid/${floor}`, { token: tokenA })).body.code).toBe(200);
    expect(await k.db.selectFrom('area').select('id').where('id', 'in', [floor, r1, r2]).execute()).toEqual([]);
  });

  it('refuses while something registered on the area (here a project file) is still there', async () => {
    const projectId = await createArea(k.db, { tenantId: a.tenantId, parentId: a.regionId, level: 'project', name: '有文件的项目', projectType: 'PT1011' });
    await k.db.insertInto('project_file').values({
      tenant_id: a.tenantId, project_id: projectId, name: '图纸.pdf', stored_name: 'x', size: 1, mime: 'application/pdf', uploaded_by: null, created_at: Date.now(),
    }).execute();
    const res = await k.call('POST', `/api/v1/area/deletebyid/${projectId}`, { token: tokenA });
    expect(res.body).toMatchObject({ code: 40900, msg: '「有文件的项目」下还有 1 个项目文件，请先移走或删除后再删除' });
  });
});

describe('受限用户', () => {
  it('a user limited to granted projects cannot create a project', async () => {
    await createUser(k.db, { tenantId: a.tenantId, username: 'tree_limited', password: 'Limited#2026', codes: CODES, allProjects: false, projectIds: [a.projectId] });
    const token = await k.login('tree_limited', 'Limited#2026');
    const res = await create(token, 1, { parentId: a.regionId, level: 'project', name: '越权项目', projectType: 'PT1011' });
    expect(res.body).toMatchObject({ code: 40000, msg: '只有可访问全部项目的用户才能新建项目' });
    const building = await create(token, 1, { parentId: a.projectId, level: 'building', name: '受限楼' });
    expect(building.body.code).toBe(200);
  });
});

describe('区域查找（大项目的房间选择）', () => {
  type Match = { id: number; label: string; level: string; parentId: number | null; path: string; childCount: number };
  let t: TenantWithProject, token: string;
  const ids: Record<string, number> = {};
  const search = async (query: string, as = token) => k.call('GET', `/api/v1/area/search?${query}`, { token: as });
  const paths = (rows: Match[]) => rows.map((r) => r.path);

  beforeAll(async () => {
    // 1号楼 and 2号楼, each 1层 and 2层, each floor 101室 and 102室 (the room names repeat on purpose)
    t = await createTenantWithProject(k.db, 'finder', CODES);
    token = await k.login(t.username, t.password);
    ids['1号楼'] = t.buildingId;
    [ids['2号楼']] = (await create(token, 1, { parentId: t.projectId, level: 'building', name: '2号楼' })).body.data;
    for (const b of ['1号楼', '2号楼']) {
      for (const floor of ['1层', '2层']) {
        const [f] = (await create(token, 1, { parentId: ids[b], level: 'floor', name: floor })).body.data;
        ids[`${b}/${floor}`] = f;
        for (const room of ['101室', '102室']) [ids[`${b}/${floor}/${room}`]] = (await create(token, 1, { parentId: f, level: 'room', name: room })).body.data;
      }
    }
  });

  it('finds areas whose path below the project holds every word, in tree order, with how many children each has', async () => {
    const res = await search(`rootId=${t.projectId}&keyword=101&levels=room`);
    expect(res.body.code).toBe(200);
    expect(res.body.data.total).toBe(4);
    expect(paths(res.body.data.rows)).toEqual(['1号楼 / 1层 / 101室', '1号楼 / 2层 / 101室', '2号楼 / 1层 / 101室', '2号楼 / 2层 / 101室']);
    expect(res.body.data.rows[0]).toEqual({ id: ids['1号楼/1层/101室'], label: '101室', level: 'room', parentId: ids['1号楼/1层'], path: '1号楼 / 1层 / 101室', childCount: 0 });
    // two words: both must appear, anywhere in the path
    expect(paths((await search(`rootId=${t.projectId}&keyword=${encodeURIComponent('2号楼 2层')}`)).body.data.rows))
      .toEqual(['2号楼 / 2层', '2号楼 / 2层 / 101室', '2号楼 / 2层 / 102室']);
    // floors only, with their rooms counted
    const floors = (await search(`rootId=${t.projectId}&keyword=${encodeURIComponent('层')}&levels=floor`)).body.data;
    expect(floors.rows.map((r: Match) => [r.path, r.childCount])).toEqual([['1号楼 / 1层', 2], ['1号楼 / 2层', 2], ['2号楼 / 1层', 2], ['2号楼 / 2层', 2]]);
    // limit: the first ones, and how many there are in all
    const one = (await search(`rootId=${t.projectId}&keyword=室&limit=1`)).body.data;
    expect(one).toEqual({ total: 8, rows: [expect.objectContaining({ path: '1号楼 / 1层 / 101室' })] });
    // below a building the path starts under it; -1 searches everything the caller sees, from the region down
    expect(paths((await search(`rootId=${ids['2号楼']}&keyword=102`)).body.data.rows)).toEqual(['1层 / 102室', '2层 / 102室']);
    expect(paths((await search(`rootId=-1&keyword=${encodeURIComponent('1号楼 2层 102')}`)).body.data.rows)).toEqual(['finder区域 / finder项目 / 1号楼 / 2层 / 102室']);
    // the project itself, when its level is asked
    expect((await search(`rootId=${t.projectId}&keyword=finder&levels=project,building`)).body.data.rows).toEqual([
      { id: t.projectId, label: 'finder项目', level: 'project', parentId: t.regionId, path: 'finder项目', childCount: 2 },
    ]);
    expect((await search(`rootId=${t.projectId}&keyword=${encodeURIComponent('没有这个')}`)).body.data).toEqual({ total: 0, rows: [] });
  });

  it('names chosen areas by id, only those below the root and of the asked levels', async () => {
    const asked = [ids['2号楼/2层/102室'], ids['1号楼/1层'], a.buildingId, ids['1号楼/1层/101室']];
    const res = (await search(`rootId=${t.projectId}&ids=${asked.join(',')}&levels=room`)).body.data;
    expect(res.rows.map((r: Match) => [r.id, r.path])).toEqual([[ids['2号楼/2层/102室'], '2号楼 / 2层 / 102室'], [ids['1号楼/1层/101室'], '1号楼 / 1层 / 101室']]);
    expect(res.total).toBe(2);
    // without levels the floor comes too; below 1号楼 only its own
    expect(paths((await search(`rootId=${t.projectId}&ids=${ids['1号楼/1层']}`)).body.data.rows)).toEqual(['1号楼 / 1层']);
    expect(paths((await search(`rootId=${ids['1号楼']}&ids=${asked.join(',')}`)).body.data.rows)).toEqual(['1层', '1层 / 101室']);
  });

  it('another tenant\'s areas are neither searched nor named, and bad input gets a Chinese message', async () => {
    expect((await search(`rootId=${t.projectId}&keyword=101`, tokenA)).body.code).toBe(40400);
    expect((await search(`rootId=-1&keyword=finder`, tokenA)).body.data).toEqual({ total: 0, rows: [] });
    expect((await search(`rootId=-1&ids=${ids['1号楼/1层/101室']}`, tokenA)).body.data).toEqual({ total: 0, rows: [] });
    for (const [query, msg] of [
      [`rootId=${t.projectId}`, '请输入关键字'],
      [`rootId=${t.projectId}&keyword=%20`, '请输入关键字'],
      [`keyword=101`, '请选择项目或区域'],
      [`rootId=${t.projectId}&keyword=101&levels=house`, '层级只能是 region、project、building、floor、room'],
      [`rootId=${t.projectId}&keyword=101&limit=201`, '条数最多 200'],
      [`rootId=${t.projectId}&ids=1,x`, '区域编号必须是数字'],
      [`rootId=${t.projectId}&keyword=${'长'.repeat(51)}`, '关键字最多 50 个字符'],
    ]) {
      const res = await search(query);
      expect(res.body.code, query).toBe(40000);
      expect(res.body.msg, query).toContain(msg);
    }
  });
});
