import { uniq, w, type Row } from './endpoint-rules.ts';
import { newDevice } from './rules-devices.ts';

/** 维修记录 (repairRecord): work orders, their moves, photos, timeline and export. */

const A = () => w.A;
const pid = () => A().projectId;
const MARK = 'A标记维修';
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);

const newRepair = async () => (await w.ok('POST', '/api/v1/repair', A().token, { projectId: pid(), location: '1号楼', fault: uniq(MARK), reporter: '王芳' })).id as number;
const assigned = async () => {
  const id = await newRepair();
  await w.ok('POST', `/api/v1/repair/${id}/assign`, A().token, { assigneeId: A().adminId });
  return id;
};
const photoForm = () => {
  const f = new FormData();
  f.append('file', new Blob([JPG], { type: 'image/jpeg' }), 'a.jpg');
  return f;
};
async function newPhoto() {
  const id = await newRepair();
  const res = await w.k.kelvin.app.inject({ method: 'POST', url: `/api/v1/repair/${id}/photo`, headers: { authorization: A().token }, payload: photoForm() });
  const body = res.json();
  if (body.code !== 200) throw new Error(JSON.stringify(body));
  return body.data.id as number;
}

export async function prepareRepairs() {
  await newRepair();
}

export const REPAIR_ROWS: Row[] = [
  { method: 'GET', path: '/api/v1/repair', code: 'repairRecord', kind: 'list', marker: MARK, url: () => '/api/v1/repair?pageSize=200' },
  { method: 'GET', path: '/api/v1/repair/export', code: 'repairRecord:export', kind: 'list', marker: MARK, url: () => '/api/v1/repair/export' },
  { method: 'GET', path: '/api/v1/repair/assignees', code: 'repairRecord', kind: 'object', url: () => `/api/v1/repair/assignees?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/repair/devices', code: 'repairRecord', kind: 'object', url: () => `/api/v1/repair/devices?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/repair', code: 'repairRecord:btn_add', kind: 'object', url: () => '/api/v1/repair', body: () => ({ projectId: pid(), location: '1号楼', fault: uniq(MARK), reporter: '王芳' }) },
  {
    method: 'POST', path: '/api/v1/repair', code: 'repairRecord:btn_add', kind: 'object', url: () => '/api/v1/repair', setup: () => newDevice(),
    body: (id) => ({ projectId: pid(), deviceId: id, fault: uniq(MARK), reporter: '王芳' }),
  },
  { method: 'POST', path: '/api/v1/repair/delete', code: 'repairRecord:btn_del', kind: 'object', setup: newRepair, url: () => '/api/v1/repair/delete', body: (id) => ({ ids: [id] }) },
  { method: 'GET', path: '/api/v1/repair/{id}', code: 'repairRecord', kind: 'object', setup: newRepair },
  { method: 'PUT', path: '/api/v1/repair/{id}', code: 'repairRecord:btn_edit', kind: 'object', setup: newRepair, body: () => ({ location: '2号楼', fault: uniq(MARK), reporter: '李明', priority: 'high' }) },
  { method: 'POST', path: '/api/v1/repair/{id}/assign', code: 'repairRecord:btn_edit', kind: 'object', setup: newRepair, body: () => ({ assigneeId: A().adminId }) },
  { method: 'POST', path: '/api/v1/repair/{id}/finish', code: 'repairRecord:btn_edit', kind: 'object', setup: assigned, body: () => ({ result: '已修好' }) },
  { method: 'POST', path: '/api/v1/repair/{id}/close', code: 'repairRecord:btn_edit', kind: 'object', setup: newRepair, body: () => ({ result: '重复报修' }) },
  { method: 'POST', path: '/api/v1/repair/{id}/photo', code: 'repairRecord:btn_edit', kind: 'object', setup: newRepair, body: photoForm },
  { method: 'GET', path: '/api/v1/repair/photo/{photoId}', code: 'repairRecord', kind: 'object', setup: newPhoto },
  { method: 'DELETE', path: '/api/v1/repair/photo/{photoId}', code: 'repairRecord:btn_edit', kind: 'object', setup: newPhoto },
];
