import type { Db } from '../../db/index.ts';
import { demoActor } from '../../db/seed/demo.ts';
import type { RepairService } from './service.ts';

/**
 * The demo tenant's repair records, logged and moved through the service (so the timeline is real): one waiting for
 * a repairer, one in hand, one done and one closed, on the first project's devices (or rooms when it has none).
 * Runs once: a tenant that already has repair records is left alone.
 */
export async function seedDemoRepairs(db: Db, repairs: RepairService): Promise<number> {
  const actor = await demoActor(db);
  if (!actor) return 0;
  const tenantId = actor.scope.tenantId;
  if (await db.selectFrom('repair_record').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst()) return 0;
  const project = await db.selectFrom('area').select('id').where('tenant_id', '=', tenantId).where('level', '=', 'project').orderBy('id').executeTakeFirst();
  if (!project) return 0;
  const devices = await repairs.devices(actor, project.id);
  const device = (i: number) => devices[i]?.id ?? null;
  const reports = [
    { fault: '温控器屏幕不亮，按键无反应', reporter: '王芳', phone: '13912345678', priority: 'high' as const, location: '1 号楼 2 层走廊' },
    { fault: '风机盘管噪音大，夜间影响休息', reporter: '李明', phone: '13812345678', priority: 'normal' as const, location: '1 号楼 3 层 301' },
    { fault: '阀门无法关闭，房间持续供热', reporter: '张伟', phone: '13712345678', priority: 'urgent' as const, location: '2 号楼 1 层 102' },
    { fault: '设备离线超过一天', reporter: '物业值班', phone: '', priority: 'low' as const, location: '地下室设备间' },
  ];
  const made = [];
  for (const [i, r] of reports.entries()) {
    const id = device(i);
    made.push(await repairs.create(actor, { projectId: project.id, deviceId: id, location: id ? undefined : r.location, fault: r.fault, reporter: r.reporter, phone: r.phone, priority: r.priority }));
  }
  await repairs.assign(actor, made[1].id, { assigneeId: actor.user.id, note: '今天下午上门' });
  await repairs.assign(actor, made[2].id, { assigneeId: actor.user.id });
  await repairs.finish(actor, made[2].id, '更换阀门执行器，复测关闭正常');
  await repairs.close(actor, made[3].id, '网关断电导致，已恢复供电，无需维修');
  return made.length;
}
