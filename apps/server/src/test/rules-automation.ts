import { createArea } from './harness.ts';
import { uniq, w, type Row } from './endpoint-rules.ts';
import { newDevice } from './rules-devices.ts';

/** Week programs, program schemes, tasks and their runs, the overtime pool of a project. */

const A = () => w.A;
const HOUR = 3_600_000;

const taskBody = async () => ({
  projectId: A().projectId, name: uniq('A标记任务'), kind: 'once', runAt: Date.now() + HOUR, deviceIds: [await newDevice()], writes: [{ fieldCode: 'f00', value: 1 }],
});
const newTask = async () => (await w.ok('POST', '/api/v1/task', A().token, await taskBody())).id as number;

const programBody = async () => ({
  projectId: A().projectId, name: uniq('A标记程序'), deviceType: 'device20020', deviceIds: [await newDevice()], holidayRule: 'weekend',
  slots: [{ weekday: 1, at: '07:00', writes: [{ fieldCode: 'f00', value: 1 }] }],
});
const newProgram = async () => (await w.ok('POST', '/api/v1/weekprogram/', A().token, await programBody())).id as number;

const schemeBody = () => ({ projectId: A().projectId, name: uniq('A标记方案'), deviceType: 'device20020', slots: [{ weekday: 2, at: '08:00', writes: [{ fieldCode: 'f04', value: 21 }] }] });
const newScheme = async () => (await w.ok('POST', '/api/v1/programscheme', A().token, schemeBody())).id as number;

/** A run of a task or program with one device that refused its command (what a retry resends). */
async function failedRun(of: 'task' | 'program') {
  const deviceId = await newDevice();
  const sourceId = of === 'task' ? await newTask() : await newProgram();
  const now = Date.now();
  const run = await w.k.db.insertInto('automation_run').values({
    tenant_id: A().tenantId, project_id: A().projectId, task_id: of === 'task' ? sourceId : null, program_id: of === 'program' ? sourceId : null,
    source: `${of === 'task' ? 't' : 'p'}:${sourceId}`, scheduled_at: now - HOUR, trigger: 'schedule', status: 'failed', retry_of: null, issuing_since: null,
    started_at: now - HOUR, finished_at: now - HOUR, created_at: now - HOUR,
  }).returning('id').executeTakeFirstOrThrow();
  await w.k.db.insertInto('automation_run_result').values({
    run_id: run.id, device_id: deviceId, device_code: `A-${deviceId}`, device_name: 'A标记设备', field_code: 'f00', value: '1', command_id: null,
    status: 'rejected', error: '设备忙', updated_at: now,
  }).execute();
  return run.id;
}

let months = 0;
const overtimeBody = async () => {
  const room = await createArea(w.k.db, { tenantId: A().tenantId, parentId: A().buildingId, level: 'room', name: uniq('A标记房间') });
  return { projectId: A().projectId, programId: await newProgram(), areaId: room, accountName: '甲公司', month: `2026-${String((months++ % 12) + 1).padStart(2, '0')}`, approvedHours: 10 };
};
const newOvertime = async () => (await w.ok('POST', '/api/v1/overtimepool', A().token, await overtimeBody())).id as number;

let taskForPut: Record<string, unknown> = {};

export const AUTOMATION_ROWS: Row[] = [
  // tasks: 'login' routes that check the codes of the task's kind (a once task: the task menu)
  { method: 'GET', path: '/api/v1/task', code: 'task', kind: 'object', url: () => `/api/v1/task?projectId=${A().projectId}&kind=once` },
  { method: 'GET', path: '/api/v1/task/export', code: 'task:export', kind: 'object', url: () => `/api/v1/task/export?projectId=${A().projectId}&kind=once` },
  { method: 'GET', path: '/api/v1/weekprogram/export', code: ['thermostatprogram:export', 'deviceprogram:export'], kind: 'object', url: () => `/api/v1/weekprogram/export?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/overtimepool/export', code: 'overtimePool_n:export', kind: 'object', url: () => `/api/v1/overtimepool/export?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/task/{id}', code: 'task', kind: 'object', setup: newTask },
  { method: 'POST', path: '/api/v1/task', code: 'task:btn_add', kind: 'object', url: () => '/api/v1/task', setup: async () => { taskForPut = await taskBody(); return 0; }, body: () => taskForPut },
  { method: 'PUT', path: '/api/v1/task/{id}', code: 'task:btn_edit', kind: 'object', setup: async () => { taskForPut = await taskBody(); return newTask(); }, body: () => ({ ...taskForPut, name: uniq('A改名任务') }) },
  { method: 'POST', path: '/api/v1/task/delete', code: 'task:btn_del', kind: 'object', setup: newTask, url: () => '/api/v1/task/delete', body: (id) => ({ ids: [id] }) },
  { method: 'POST', path: '/api/v1/task/{id}/enable', code: 'task:btn_edit', kind: 'object', setup: newTask, body: () => ({ enabled: false }) },
  { method: 'POST', path: '/api/v1/task/{id}/execute', code: 'task:btn_edit', kind: 'object', setup: newTask },
  { method: 'GET', path: '/api/v1/task/{id}/runs', code: 'task', kind: 'object', setup: newTask },
  { method: 'POST', path: '/api/v1/task/run/{runId}/retry', code: 'task:btn_edit', kind: 'object', setup: () => failedRun('task'), body: () => ({}) },
  // week programs
  { method: 'GET', path: '/api/v1/weekprogram', code: ['thermostatprogram', 'deviceprogram'], kind: 'object', url: () => `/api/v1/weekprogram?projectId=${A().projectId}` },
  { method: 'POST', path: '/api/v1/weekprogram/', code: ['thermostatprogram:btn_add', 'deviceprogram:btn_add'], kind: 'object', url: () => '/api/v1/weekprogram/', setup: async () => { taskForPut = await programBody(); return 0; }, body: () => taskForPut },
  { method: 'POST', path: '/api/v1/weekprogram', code: ['thermostatprogram:btn_add', 'deviceprogram:btn_add'], kind: 'object', url: () => '/api/v1/weekprogram', setup: async () => { taskForPut = await programBody(); return 0; }, body: () => taskForPut },
  { method: 'GET', path: '/api/v1/weekprogram/{id}', code: ['thermostatprogram', 'deviceprogram'], kind: 'object', setup: newProgram },
  { method: 'PUT', path: '/api/v1/weekprogram/{id}', code: ['thermostatprogram:btn_edit', 'deviceprogram:btn_edit'], kind: 'object', setup: async () => { taskForPut = await programBody(); return newProgram(); }, body: () => taskForPut },
  { method: 'POST', path: '/api/v1/weekprogram/delete', code: ['thermostatprogram:btn_del', 'deviceprogram:btn_del'], kind: 'object', setup: newProgram, url: () => '/api/v1/weekprogram/delete', body: (id) => ({ ids: [id] }) },
  { method: 'POST', path: '/api/v1/weekprogram/executetask/{id}', code: ['thermostatprogram:btn_edit', 'deviceprogram:btn_edit'], kind: 'object', setup: newProgram },
  { method: 'GET', path: '/api/v1/weekprogram/listbyarea/{id}', code: ['thermostatprogram', 'deviceprogram'], kind: 'object', url: () => `/api/v1/weekprogram/listbyarea/${A().buildingId}` },
  { method: 'GET', path: '/api/v1/weekprogram/listbydevice/{id}', code: ['thermostatprogram', 'deviceprogram'], kind: 'object', setup: () => newDevice() },
  { method: 'GET', path: '/api/v1/weekprogram/{id}/runs', code: ['thermostatprogram', 'deviceprogram'], kind: 'object', setup: newProgram },
  { method: 'POST', path: '/api/v1/weekprogram/run/{runId}/retry', code: ['thermostatprogram:btn_edit', 'deviceprogram:btn_edit'], kind: 'object', setup: () => failedRun('program'), body: () => ({}) },
  // program schemes
  { method: 'GET', path: '/api/v1/programscheme', code: 'programscheme', kind: 'object', url: () => `/api/v1/programscheme?projectId=${A().projectId}` },
  { method: 'POST', path: '/api/v1/programscheme', code: 'programscheme:btn_add', kind: 'object', url: () => '/api/v1/programscheme', body: schemeBody },
  { method: 'PUT', path: '/api/v1/programscheme/{id}', code: 'programscheme:btn_edit', kind: 'object', setup: newScheme, body: schemeBody },
  { method: 'POST', path: '/api/v1/programscheme/delete', code: 'programscheme:btn_del', kind: 'object', setup: newScheme, url: () => '/api/v1/programscheme/delete', body: (id) => ({ ids: [id] }) },
  // overtime pool
  { method: 'GET', path: '/api/v1/overtimepool', code: 'overtimePool_n', kind: 'object', url: () => `/api/v1/overtimepool?projectId=${A().projectId}` },
  { method: 'POST', path: '/api/v1/overtimepool', code: 'overtimePool_n:btn_edit', kind: 'object', url: () => '/api/v1/overtimepool', setup: async () => { taskForPut = await overtimeBody(); return 0; }, body: () => taskForPut },
  { method: 'PUT', path: '/api/v1/overtimepool/{id}', code: 'overtimePool_n:btn_edit', kind: 'object', setup: async () => { const id = await newOvertime(); taskForPut = await overtimeBody(); return id; }, body: () => taskForPut },
  { method: 'POST', path: '/api/v1/overtimepool/delete', code: 'overtimePool_n:btn_edit', kind: 'object', setup: newOvertime, url: () => '/api/v1/overtimepool/delete', body: (id) => ({ ids: [id] }) },
];
