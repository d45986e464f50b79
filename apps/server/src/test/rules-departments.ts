import { DEPARTMENT_SCREENS } from '@kelvin/contracts';
import { uniq, w, type Row } from './endpoint-rules.ts';
import { createArea } from './harness.ts';
import { newDevice } from './rules-devices.ts';

/** 部门能耗 (departmentEnergy): the department tree, assignments of meters and rooms, energy, comparison, budgets. */

const A = () => w.A;
const pid = () => A().projectId;

const newDepartment = async () => (await w.ok('POST', '/api/v1/department', A().token, { projectId: pid(), name: uniq('A标记部门'), headcount: 3 })).id as number;
let pair = '';
const twoDepartments = async () => {
  pair ||= `${await newDepartment()},${await newDepartment()}`;
  return pid();
};
const newAssignment = async () => {
  const meter = await newDevice({ type: 'device20090' });
  return (await w.ok('POST', '/api/v1/department/assignment', A().token, { departmentId: await newDepartment(), kind: 'device', deviceId: meter, from: '2025-01-01' })).id as number;
};

let room = 0;
export async function prepareDepartments() {
  const floor = await createArea(w.k.db, { tenantId: A().tenantId, parentId: A().buildingId, level: 'floor', name: '部门楼层' });
  room = await createArea(w.k.db, { tenantId: A().tenantId, parentId: floor, level: 'room', name: '部门房间' });
  await newAssignment();
}

const byProject = (path: string, code: string | readonly string[], extra = ''): Row => ({
  method: 'GET', path, code, kind: 'object', url: () => `${path}?projectId=${pid()}${extra}`,
});

export const DEPARTMENT_ROWS: Row[] = [
  byProject('/api/v1/department/tree', [...DEPARTMENT_SCREENS]),
  { method: 'POST', path: '/api/v1/department', code: 'departmentMain:btn_add', kind: 'object', url: () => '/api/v1/department', body: () => ({ projectId: pid(), name: uniq('A标记部门') }) },
  { method: 'PUT', path: '/api/v1/department/{id}', code: 'departmentMain:btn_edit', kind: 'object', setup: newDepartment, body: () => ({ name: uniq('A改名部门'), headcount: 8, area: 120.5, budgetKwh: 900 }) },
  { method: 'DELETE', path: '/api/v1/department/{id}', code: 'departmentMain:btn_del', kind: 'object', setup: newDepartment },
  byProject('/api/v1/department/assignment', 'departmentMain'),
  byProject('/api/v1/department/candidates', 'departmentMain'),
  {
    method: 'POST', path: '/api/v1/department/assignment', code: 'departmentMain:btn_edit', kind: 'object', setup: newDepartment, url: () => '/api/v1/department/assignment',
    body: (id) => ({ departmentId: id, kind: 'room', areaId: room, from: '2025-01-01' }),
  },
  { method: 'PUT', path: '/api/v1/department/assignment/{id}', code: 'departmentMain:btn_edit', kind: 'object', setup: newAssignment, body: () => ({ from: '2025-02-01', to: '2025-03-01' }) },
  { method: 'POST', path: '/api/v1/department/assignment/{id}/move', code: 'departmentMain:btn_edit', kind: 'object',
    setup: async () => (await twoDepartments()) && newAssignment(), body: () => ({ departmentId: Number(pair.split(',')[0]), date: '2025-06-01' }),
  },
  { method: 'DELETE', path: '/api/v1/department/assignment/{id}', code: 'departmentMain:btn_edit', kind: 'object', setup: newAssignment },
  byProject('/api/v1/department/overview', 'departmentMain'),
  byProject('/api/v1/department/energy', 'departmentStaticEnergy', '&grain=month&year=2025'),
  byProject('/api/v1/department/energy/export', 'departmentStaticEnergy:export'),
  { method: 'GET', path: '/api/v1/department/compare', code: 'departmentEnergyCompare', kind: 'object', setup: twoDepartments, url: () => `/api/v1/department/compare?projectId=${pid()}&departmentIds=${pair}` },
  { method: 'GET', path: '/api/v1/department/compare/export', code: 'departmentEnergyCompare:export', kind: 'object', setup: twoDepartments, url: () => `/api/v1/department/compare/export?projectId=${pid()}&departmentIds=${pair}` },
];
