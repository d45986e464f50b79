import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '@kelvin/contracts';
import { snapshot } from '../admin/fixtures.ts';
import { createArea, startTestKelvin, twoTenants, type TestClient, type TenantWithProject } from '../../test/harness.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';

/** 设备绑定管理: bind a device to a room, move it, unbind it to storage — each a bind record (who, when, from, to). */

const CODES = ['deviceBindManager', 'deviceBindManager:btn_edit'];
let k: TestClient;
let a: TenantWithProject;
let tokenA: string;
let tokenB: string;
let room1: number;
let room2: number;

const call = (method: 'GET' | 'POST', url: string, body?: unknown, token = tokenA) => k.call(method, url, { token, body });
async function data(method: 'GET' | 'POST', url: string, body?: unknown, token = tokenA) {
  const res = await call(method, url, body, token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, tokenA, tokenB } = await twoTenants(k, 'bind', CODES));
  const floor = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '2层' });
  room1 = await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name: '201' });
  room2 = await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name: '202' });
});
afterAll(() => k?.close());

describe('设备绑定管理', () => {
  it('binds from storage, moves, unbinds — the list and the history follow, with who and from/to', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: null, name: '绑定测试温控器' });
    const list = async (bound?: string) => (await data('GET', `/api/v1/device/bind/list?projectId=${a.projectId}${bound ? `&bound=${bound}` : ''}`)).rows.map((r: { id: number }) => r.id);
    expect(await list('unbound')).toContain(dev.id);
    expect(await list('bound')).not.toContain(dev.id);
    await data('POST', `/api/v1/device/bind/${dev.id}`, { areaId: room1 });
    const [row] = (await data('GET', `/api/v1/device/bind/list?projectId=${a.projectId}&keyword=${encodeURIComponent('绑定测试')}`)).rows;
    expect(row).toMatchObject({ id: dev.id, areaId: room1, areaPath: '1号楼 / 2层 / 201', lastBy: 'binda_user', lastAction: '安装' });
    await data('POST', `/api/v1/device/bind/${dev.id}`, { areaId: room2 });
    await data('POST', `/api/v1/device/unbind/${dev.id}`);
    expect(await list('unbound')).toContain(dev.id);
    const history = await data('GET', `/api/v1/device/bindrecord?projectId=${a.projectId}&deviceId=${dev.id}`);
    expect(history.rows.map((r: { action: string; detail: string; areaPath: string; username: string }) => [r.action, r.detail, r.areaPath, r.username])).toEqual([
      ['spare', '解绑（转入库存）', '1号楼 / 2层 / 202', 'binda_user'],
      ['move', '改绑到其他房间', '1号楼 / 2层 / 201 → 1号楼 / 2层 / 202', 'binda_user'],
      ['install', '绑定到房间', '库存 → 1号楼 / 2层 / 201', 'binda_user'],
    ]);
    const stored = await k.db.selectFrom('device_bind_record').select(['from_area_id', 'to_area_id']).where('device_id', '=', dev.id).orderBy('id').execute();
    expect(stored.map((r) => [r.from_area_id, r.to_area_id])).toEqual([[null, room1], [room1, room2], [room2, null]]);
  });

  it('refuses what makes no sense and changes nothing; another tenant gets 404', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: room1 });
    const refused = async (url: string, body: unknown, code: number, token = tokenA) => {
      const before = await snapshot(k.db);
      const res = await call('POST', url, body, token);
      expect(res.body.code, JSON.stringify(res.body)).toBe(code);
      expect(await snapshot(k.db)).toBe(before);
    };
    await refused(`/api/v1/device/bind/${dev.id}`, { areaId: room1 }, ResultCode.CONFLICT);
    await refused(`/api/v1/device/bind/${dev.id}`, { areaId: a.projectId }, ResultCode.VALIDATION);
    const other = await createArea(k.db, { tenantId: a.tenantId, parentId: a.regionId, level: 'project', name: '别的项目' });
    const otherBuilding = await createArea(k.db, { tenantId: a.tenantId, parentId: other, level: 'building', name: 'X' });
    await refused(`/api/v1/device/bind/${dev.id}`, { areaId: otherBuilding }, ResultCode.VALIDATION);
    await refused(`/api/v1/device/bind/${dev.id}`, { areaId: room2 }, ResultCode.NOT_FOUND, tokenB);
    await refused(`/api/v1/device/unbind/${dev.id}`, {}, ResultCode.NOT_FOUND, tokenB);
    await data('POST', `/api/v1/device/unbind/${dev.id}`);
    await refused(`/api/v1/device/unbind/${dev.id}`, {}, ResultCode.VALIDATION);
    expect((await call('GET', `/api/v1/device/bind/list?projectId=${a.projectId}`, undefined, tokenB)).body.code).toBe(ResultCode.NOT_FOUND);
  });
});
