import type { Db } from '../../db/index.ts';
import { demoActor } from '../../db/seed/demo.ts';
import { dateOf, type DepartmentService } from './service.ts';

const DAY = 86_400_000;
const CST = 8 * 3_600_000;

/** the demo's institutional campus: an integrated-energy park whose electric meters and distributors are simulated */
export const DEMO_DEPARTMENT_PROJECT = '张江综合能源园区';

/**
 * The demo tenant's departments on its integrated-energy park, through the service: a two-level tree with headcount,
 * floor area and monthly budgets (one set low, so the budget warning shows once the simulated meters have run a
 * while), the park's meters shared out among the departments, one room assigned whole, and one meter moved from
 * 研发一部 to 研发二部 today (so the history shows a move); the last meter is left for the operator to assign. Runs once: a project that has departments is left alone.
 */
export async function seedDemoDepartments(db: Db, departments: DepartmentService, now = Date.now()): Promise<number> {
  const actor = await demoActor(db);
  if (!actor) return 0;
  const project = await db.selectFrom('area').select('id').where('tenant_id', '=', actor.scope.tenantId).where('level', '=', 'project')
    .where('name', '=', DEMO_DEPARTMENT_PROJECT).executeTakeFirst();
  if (!project) return 0;
  if (await db.selectFrom('department').select('id').where('project_id', '=', project.id).limit(1).executeTakeFirst()) return 0;
  const add = async (name: string, parentId: number | null, headcount: number, area: number, budgetKwh: number, sortNo: number) =>
    (await departments.create(actor, { projectId: project.id, parentId, name, headcount, area, budgetKwh, sortNo })).id;
  const admin = await add('园区管理中心', null, 12, 860, 4000, 1);
  const office = await add('综合办公室', admin, 6, 320, 1500, 1);
  const property = await add('物业服务部', admin, 6, 540, 2000, 2);
  const rd = await add('研发中心', null, 80, 2400, 12000, 2);
  const rd1 = await add('研发一部', rd, 45, 1300, 6000, 1);
  const rd2 = await add('研发二部', rd, 35, 1100, 5000, 2);
  const logistics = await add('后勤保障部', null, 10, 600, 30, 3);

  // assignments hold from the first day of last month; today's date moves one meter
  const today = dateOf(Math.floor((now + CST) / DAY) * DAY - CST);
  const d = new Date(now + CST);
  const from = `${new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 10)}`;
  const candidates = await departments.candidates(actor, project.id, now);
  // the last meter stays unassigned: a spare the operator can hand out
  const meters = candidates.filter((c) => c.kind === 'device').slice(0, -1);
  const leaves = [office, rd1, rd2, logistics, rd1, property];
  let made = 0;
  const roomTaken = new Set<string>();
  for (const [i, m] of meters.entries()) {
    const dept = leaves[i % leaves.length]!;
    // the property office takes its meter's whole room (its meters count through the room)
    if (dept === property && m.place && !roomTaken.has(m.place)) {
      const room = candidates.find((c) => c.kind === 'room' && c.place === m.place);
      if (room) {
        roomTaken.add(m.place);
        await departments.assign(actor, { departmentId: property, kind: 'room', areaId: room.id, from });
        made++;
        continue;
      }
    }
    const a = await departments.assign(actor, { departmentId: dept, kind: 'device', deviceId: m.id, from });
    made++;
    if (i === 1 && from < today) await departments.move(actor, a.id, { departmentId: rd2, date: today });
  }
  return made;
}
