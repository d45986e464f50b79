import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '@kelvin/contracts';
import { snapshot, xlsxText } from '../admin/fixtures.ts';
import { createArea, createUser, startTestKelvin, twoTenants, type TestClient, type TenantWithProject } from '../../test/harness.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';

const CODES = ['repairRecord', 'repairRecord:btn_add', 'repairRecord:btn_edit', 'repairRecord:btn_del', 'repairRecord:export'];
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 2)]);

let k: TestClient;
let a: TenantWithProject;
let b: TenantWithProject;
let tokenA: string;
let tokenB: string;
let deviceA: number;
let repairer: number;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token = tokenA) => k.call(method, url, { token, body });
async function data(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token = tokenA) {
  const res = await call(method, url, body, token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
/** a refused call: the code, and not a row changed */
async function refused(method: 'POST' | 'PUT' | 'DELETE', url: string, body: unknown, code: number, msg?: RegExp, token = tokenA) {
  const before = await snapshot(k.db);
  const res = await call(method, url, body, token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(code);
  if (msg) expect(res.body.msg).toMatch(msg);
  expect(await snapshot(k.db)).toBe(before);
}
const report = (extra: Record<string, unknown> = {}) => data('POST', '/api/v1/repair', { projectId: a.projectId, location: '1号楼 101', fault: '温控器不亮', reporter: '王芳', phone: '13900000000', ...extra });
function upload(id: number, body: Buffer, name: string, type: string, token = tokenA) {
  const form = new FormData();
  form.append('file', new Blob([body], { type }), name);
  return k.kelvin.app.inject({ method: 'POST', url: `/api/v1/repair/${id}/photo`, headers: { authorization: token }, payload: form }).then((r) => r.json());
}

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'rep', CODES));
  deviceA = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: a.buildingId, name: '101 温控器' })).id;
  repairer = (await createUser(k.db, { tenantId: a.tenantId, username: 'rep_worker', password: 'Worker#2026x', codes: ['repairRecord'] })).id;
});
afterAll(() => k?.close());

describe('维修记录：状态机', () => {
  it('待派单 → 处理中 → 已完成, each move on the timeline with who did it', async () => {
    const r = await report({ deviceId: deviceA, location: undefined, priority: 'high' });
    expect(r).toMatchObject({ status: 'pending', deviceName: '101 温控器', priority: 'high', assigneeId: null });
    expect(r.repairNo).toMatch(/^WX\d{8}\d{5}$/);
    const assigned = await data('POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: repairer, note: '下午上门' });
    expect(assigned).toMatchObject({ status: 'processing', assigneeId: repairer, assigneeName: 'rep_worker 用户' });
    const done = await data('POST', `/api/v1/repair/${r.id}/finish`, { result: '更换面板' });
    expect(done).toMatchObject({ status: 'done', result: '更换面板' });
    expect(done.finishedAt).toBeGreaterThan(0);
    expect(done.events.map((e: { action: string; fromStatus: string | null; toStatus: string | null; actorName: string }) => [e.action, e.fromStatus, e.toStatus, e.actorName])).toEqual([
      ['create', null, 'pending', 'repa_user 用户'],
      ['assign', 'pending', 'processing', 'repa_user 用户'],
      ['finish', 'processing', 'done', 'repa_user 用户'],
    ]);
    expect(done.events[1].note).toBe('派给 rep_worker 用户：下午上门');
  });

  it('refuses moves the state does not allow, and changes nothing', async () => {
    const r = await report();
    await refused('POST', `/api/v1/repair/${r.id}/finish`, {}, ResultCode.CONFLICT, /待派单，不能完成/);
    await data('POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: repairer });
    await refused('POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: repairer }, ResultCode.CONFLICT, /已派给/);
    await data('POST', `/api/v1/repair/${r.id}/finish`, {});
    // final: no more moves, no edits
    await refused('POST', `/api/v1/repair/${r.id}/close`, { result: '重复' }, ResultCode.CONFLICT, /已完成，不能关闭（已是最终状态）/);
    await refused('POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: repairer }, ResultCode.CONFLICT, /已完成/);
    await refused('PUT', `/api/v1/repair/${r.id}`, { location: 'x', fault: 'x', reporter: 'x', priority: 'low' }, ResultCode.CONFLICT, /不能再修改/);
  });

  it('closing needs a reason; a pending record may be closed; a closed one stays closed', async () => {
    const r = await report();
    await refused('POST', `/api/v1/repair/${r.id}/close`, {}, ResultCode.VALIDATION);
    await refused('POST', `/api/v1/repair/${r.id}/close`, { result: '   ' }, ResultCode.VALIDATION);
    const closed = await data('POST', `/api/v1/repair/${r.id}/close`, { result: '重复报修' });
    expect(closed).toMatchObject({ status: 'closed', result: '重复报修' });
    await refused('POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: repairer }, ResultCode.CONFLICT, /已关闭/);
  });

  it('refuses an assignee of another tenant or one who cannot see the project, and a device of another project', async () => {
    const r = await report();
    await refused('POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: b.userId }, ResultCode.VALIDATION, /维修人员不存在/);
    const blind = (await createUser(k.db, { tenantId: a.tenantId, username: 'rep_blind', password: 'Blind#2026x', codes: ['repairRecord'], allProjects: false })).id;
    await refused('POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: blind }, ResultCode.VALIDATION, /看不到该项目/);
    const people = await data('GET', `/api/v1/repair/assignees?projectId=${a.projectId}`);
    expect(people.map((p: { id: number }) => p.id)).toContain(repairer);
    expect(people.map((p: { id: number }) => p.id)).not.toContain(blind);
    const other = await createArea(k.db, { tenantId: a.tenantId, parentId: a.regionId, level: 'project', name: '另一个项目' });
    const foreign = await createTestDevice(k, { tenantId: a.tenantId, projectId: other });
    await refused('POST', '/api/v1/repair', { projectId: a.projectId, deviceId: foreign.id, fault: 'x', reporter: 'x' }, ResultCode.VALIDATION, /不属于该项目/);
    await refused('POST', '/api/v1/repair', { projectId: a.projectId, fault: 'x', reporter: 'x' }, ResultCode.VALIDATION, /请选择设备或填写位置/);
  });
});

describe('维修记录：租户隔离与权限', () => {
  it("another tenant's record is 404 for every call, and never in its list", async () => {
    const r = await report({ fault: '租户A的故障标记' });
    const photo = await upload(r.id, JPG, 'a.jpg', 'image/jpeg');
    expect(photo.code).toBe(200);
    for (const [method, url, body] of [
      ['GET', `/api/v1/repair/${r.id}`, undefined],
      ['PUT', `/api/v1/repair/${r.id}`, { location: 'x', fault: 'x', reporter: 'x', priority: 'low' }],
      ['POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: b.userId }],
      ['POST', `/api/v1/repair/${r.id}/close`, { result: '关' }],
      ['POST', '/api/v1/repair/delete', { ids: [r.id] }],
      ['GET', `/api/v1/repair/photo/${photo.data.id}`, undefined],
      ['DELETE', `/api/v1/repair/photo/${photo.data.id}`, undefined],
      ['POST', '/api/v1/repair', { projectId: a.projectId, location: 'x', fault: 'x', reporter: 'x' }],
      ['GET', `/api/v1/repair/assignees?projectId=${a.projectId}`, undefined],
    ] as const) {
      const before = await snapshot(k.db);
      const res = await call(method, url, body, tokenB);
      expect(res.body.code, `${method} ${url}`).toBe(ResultCode.NOT_FOUND);
      expect(await snapshot(k.db)).toBe(before);
    }
    expect((await upload(r.id, JPG, 'b.jpg', 'image/jpeg', tokenB)).code).toBe(ResultCode.NOT_FOUND);
    const list = await data('GET', '/api/v1/repair?pageSize=200', undefined, tokenB);
    expect(JSON.stringify(list)).not.toContain('租户A的故障标记');
  });

  it('needs its codes: viewing alone cannot log, move or delete', async () => {
    const viewer = await createUser(k.db, { tenantId: a.tenantId, username: 'rep_view', password: 'Viewer#2026x', codes: ['repairRecord'] });
    const t = await k.login('rep_view', 'Viewer#2026x');
    const r = await report();
    expect(viewer.id).toBeGreaterThan(0);
    await refused('POST', '/api/v1/repair', { projectId: a.projectId, location: 'x', fault: 'x', reporter: 'x' }, ResultCode.NO_PERMISSION, undefined, t);
    await refused('POST', `/api/v1/repair/${r.id}/assign`, { assigneeId: repairer }, ResultCode.NO_PERMISSION, undefined, t);
    await refused('POST', '/api/v1/repair/delete', { ids: [r.id] }, ResultCode.NO_PERMISSION, undefined, t);
    expect((await k.call('GET', '/api/v1/repair/export', { token: t })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await data('GET', `/api/v1/repair/${r.id}`, undefined, t)).id).toBe(r.id);
  });
});

describe('维修记录：照片', () => {
  it('takes jpg and png by their bytes, at most 9, streams them back, and deletes them with the record', async () => {
    const r = await report();
    const bad = await upload(r.id, Buffer.from('<svg onload=alert(1)>'), 'x.png', 'image/png');
    expect(bad.code).toBe(ResultCode.VALIDATION);
    expect(bad.msg).toMatch(/不是 JPG 或 PNG/);
    expect((await upload(r.id, Buffer.from('GIF89a....'), 'x.gif', 'image/gif')).msg).toMatch(/只能是 JPG 或 PNG/);
    const ids: number[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await upload(r.id, i % 2 ? PNG : JPG, `p${i}.${i % 2 ? 'png' : 'jpg'}`, i % 2 ? 'image/png' : 'image/jpeg');
      expect(res.code, JSON.stringify(res)).toBe(200);
      ids.push(res.data.id);
    }
    const tenth = await upload(r.id, JPG, 'p9.jpg', 'image/jpeg');
    expect(tenth.msg).toMatch(/最多 9 张/);
    const detail = await data('GET', `/api/v1/repair/${r.id}`);
    expect(detail.photos.map((p: { id: number }) => p.id)).toEqual(ids);
    expect(detail.photoCount).toBe(9);
    expect(detail.events.filter((e: { action: string }) => e.action === 'photo')).toHaveLength(9);
    const img = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/repair/photo/${ids[1]}`, headers: { authorization: tokenA } });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(PNG)).toBe(true);
    // stored under the data dir, and gone with the record
    const dir = path.join(k.kelvin.app.config.dataDir, 'uploads', 'repair-photos', String(a.tenantId));
    const before = fs.readdirSync(dir).length;
    await data('DELETE', `/api/v1/repair/photo/${ids[0]}`);
    expect(fs.readdirSync(dir).length).toBe(before - 1);
    await data('POST', '/api/v1/repair/delete', { ids: [r.id] });
    expect(fs.readdirSync(dir).length).toBe(before - 9);
    expect((await call('GET', `/api/v1/repair/${r.id}`)).body.code).toBe(ResultCode.NOT_FOUND);
  });

  it('refuses a photo over 5 MB and keeps nothing of it', async () => {
    const r = await report();
    const big = Buffer.concat([JPG, Buffer.alloc(5 * 1024 * 1024, 3)]);
    const res = await upload(r.id, big, 'big.jpg', 'image/jpeg');
    expect(res.code).toBe(ResultCode.VALIDATION);
    expect(res.msg).toMatch(/超过 5 MB/);
    expect((await data('GET', `/api/v1/repair/${r.id}`)).photos).toEqual([]);
  });
});

describe('维修记录：查询与导出', () => {
  it('filters by project, status, keyword and time; the export holds exactly the filtered records', async () => {
    const t0 = Date.now();
    const x = await report({ fault: '筛选用：阀门漏水', reporter: '赵六' });
    const y = await report({ fault: '筛选用：风机异响', reporter: '钱七' });
    await data('POST', `/api/v1/repair/${y.id}/assign`, { assigneeId: repairer });
    const q = `projectId=${a.projectId}&keyword=${encodeURIComponent('筛选用')}&startTime=${t0}`;
    const all = await data('GET', `/api/v1/repair?${q}`);
    expect(all.total).toBe(2);
    expect(all.rows.map((r: { id: number }) => r.id)).toEqual([y.id, x.id]);
    const processing = await data('GET', `/api/v1/repair?${q}&status=processing`);
    expect(processing.rows.map((r: { id: number }) => r.id)).toEqual([y.id]);
    expect((await data('GET', `/api/v1/repair?projectId=${a.projectId}&startTime=${t0}&keyword=${encodeURIComponent('赵六')}`)).rows.map((r: { id: number }) => r.id)).toEqual([x.id]);
    expect((await data('GET', `/api/v1/repair?${q}&endTime=${t0}`)).total).toBe(0);
    const file = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/repair/export?${q}&status=processing`, headers: { authorization: tokenA } });
    expect(file.statusCode).toBe(200);
    const cells = (await xlsxText(file.rawPayload)).join('\n');
    expect(cells).toContain('筛选用：风机异响');
    expect(cells).toContain('处理中');
    expect(cells).not.toContain('筛选用：阀门漏水');
  });
});
