import {
  ALARM_SEVERITIES, ALARM_STATUS_LABELS, DEVICE_TYPE_BY_CODE, MONITOR_OPERATORS, fieldOf, type AlarmSeverity, type AlarmStatus, type MonitorMessageRow,
  type MonitorOperator, type MonitorRuleBody, type MonitorRuleRow,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import type { ProjectService } from '../projects/index.ts';
import { describeRule, type AlarmEngine } from './engine.ts';
import * as repo from './repository.ts';
import type { MessageRow, RuleRow } from './repository.ts';

function toRuleRow(r: RuleRow, activeAlarms: number): MonitorRuleRow {
  const field = fieldOf(r.device_type, r.field_code);
  return {
    id: r.id, projectId: r.project_id, name: r.name, deviceType: r.device_type, typeName: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type,
    fieldCode: r.field_code, fieldLabel: r.operator === 'offline' ? '上报' : field?.label ?? r.field_code, unit: r.operator === 'offline' ? '分钟' : field?.unit ?? null,
    operator: r.operator as MonitorOperator, operatorLabel: MONITOR_OPERATORS[r.operator as MonitorOperator] ?? r.operator, threshold: r.threshold,
    thresholdHigh: r.threshold_high, forSeconds: r.for_seconds, forReports: r.for_reports, severity: r.severity as AlarmSeverity, severityLabel: ALARM_SEVERITIES[r.severity as AlarmSeverity] ?? r.severity,
    notifySms: r.notify_sms === 1, enabled: r.enabled === 1, activeFrom: r.active_from, activeTo: r.active_to, description: describeRule(r),
    activeAlarms, updatedAt: r.updated_at, updatedBy: r.updated_by,
  };
}

export function toMessageRow(m: MessageRow): MonitorMessageRow {
  return {
    id: m.id, ruleId: m.rule_id, ruleName: m.rule_name, projectId: m.project_id, deviceId: m.device_id, deviceCode: m.device_code,
    deviceName: m.device_name, deviceType: m.device_type, fieldCode: m.field_code,
    fieldLabel: fieldOf(m.device_type, m.field_code)?.label ?? (m.field_code || '上报'), value: m.value,
    severity: m.severity as AlarmSeverity, severityLabel: ALARM_SEVERITIES[m.severity as AlarmSeverity] ?? m.severity,
    status: m.status as AlarmStatus, statusLabel: ALARM_STATUS_LABELS[m.status as AlarmStatus] ?? m.status, read: m.read === 1,
    description: m.description, createdAt: m.created_at, clearedAt: m.cleared_at, readBy: m.read_by, readAt: m.read_at, comment: m.comment,
  };
}

/** monitorrules: rules per project, and the alarm list with read/acknowledge and close. */
export function createMonitoringService(deps: { db: Db; projects: ProjectService; engine: AlarmEngine }) {
  const { db, projects, engine } = deps;

  async function rule(scope: Scope, id: number) {
    const row = await repo.rulesOf(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('监控规则');
    return row;
  }

  const values = (b: MonitorRuleBody, who: string) => ({
    name: b.name, device_type: b.deviceType, field_code: b.operator === 'offline' ? '' : b.fieldCode, operator: b.operator, threshold: b.threshold,
    threshold_high: b.operator === 'outside' ? b.thresholdHigh ?? null : null,
    for_seconds: b.operator === 'offline' ? 0 : b.forSeconds, for_reports: b.operator === 'offline' ? 0 : b.forReports, severity: b.severity, notify_sms: b.notifySms ? 1 : 0, enabled: b.enabled ? 1 : 0,
    active_from: b.activeFrom ?? null, active_to: b.activeTo ?? null, updated_by: who, updated_at: Date.now(),
  });

  return {
    async rules(scope: Scope, q: { projectId: number; keyword?: string; pageNo: number; pageSize: number }) {
      const p = await projects.project(scope, q.projectId);
      let query = repo.rulesOf(db, scope).selectAll().where('project_id', '=', p.id);
      if (q.keyword) query = query.where('name', 'like', `%${q.keyword}%`);
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      const active = await repo.activeCounts(db, page.rows.map((r) => r.id));
      return { total: page.total, rows: page.rows.map((r) => toRuleRow(r, active.get(r.id) ?? 0)) };
    },

    async create(a: Actor, b: MonitorRuleBody) {
      const p = await projects.project(a.scope, b.projectId);
      const now = Date.now();
      const row = await db.insertInto('monitor_rule').values({ tenant_id: p.tenant_id, project_id: p.id, created_at: now, ...values(b, a.user.username) })
        .returning('id').executeTakeFirstOrThrow();
      engine.invalidate(p.id);
      return { id: row.id };
    },

    async update(a: Actor, id: number, b: MonitorRuleBody) {
      const old = await rule(a.scope, id);
      if (b.projectId !== old.project_id) await projects.project(a.scope, b.projectId);
      await db.updateTable('monitor_rule').set({ project_id: b.projectId, ...values(b, a.user.username) }).where('id', '=', id).execute();
      // a changed rule starts over: its open alarms are cleared and re-raised if the condition still holds
      engine.publish(await db.updateTable('monitor_message').set({ status: 'cleared', cleared_at: Date.now() })
        .where('rule_id', '=', id).where('status', '=', 'active').returningAll().execute());
      engine.invalidate(old.project_id);
      engine.invalidate(b.projectId);
      return { id };
    },

    async remove(a: Actor, ids: number[]) {
      const rows = await Promise.all([...new Set(ids)].map((id) => rule(a.scope, id)));
      await db.transaction().execute(async (trx) => {
        const idList = rows.map((r) => r.id);
        await trx.updateTable('monitor_message').set({ status: 'cleared', cleared_at: Date.now() }).where('rule_id', 'in', idList).where('status', '=', 'active').execute();
        await trx.deleteFrom('monitor_rule').where('id', 'in', idList).execute();
      });
      for (const r of rows) engine.invalidate(r.project_id);
      return { deleted: rows.length };
    },

    async messages(scope: Scope, q: { projectId: number; status?: 'active' | 'cleared'; read?: boolean; severity?: AlarmSeverity; deviceId?: number; pageNo: number; pageSize: number }) {
      const p = await projects.project(scope, q.projectId);
      let query = repo.messagesOf(db, scope).selectAll().where('project_id', '=', p.id);
      if (q.status) query = query.where('status', '=', q.status);
      if (q.read !== undefined) query = query.where('read', '=', q.read ? 1 : 0);
      if (q.severity) query = query.where('severity', '=', q.severity);
      if (q.deviceId) query = query.where('device_id', '=', q.deviceId);
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: page.rows.map(toMessageRow) };
    },

    async message(scope: Scope, id: number) {
      const row = await repo.messagesOf(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('监控消息');
      return toMessageRow(row);
    },

    async unread(scope: Scope, projectId: number) {
      const p = await projects.project(scope, projectId);
      return repo.unreadCount(db, p.id);
    },

    /** Acknowledge: read, by whom, when, with a comment. `close` also ends an alarm that is still active. */
    async acknowledge(a: Actor, ids: number[], comment: string | undefined, close: boolean) {
      const found = await repo.messagesOf(db, a.scope).select(['id', 'project_id']).where('id', 'in', [...new Set(ids)]).execute();
      if (found.length !== new Set(ids).size) throw notFound('监控消息');
      const now = Date.now();
      const rows = await db.updateTable('monitor_message')
        .set((eb) => ({
          read: 1,
          read_by: eb.fn.coalesce('read_by', eb.val(a.user.username)),
          read_at: eb.fn.coalesce('read_at', eb.val(now)),
          ...(comment ? { comment } : {}),
          ...(close ? { status: 'cleared', cleared_at: eb.fn.coalesce('cleared_at', eb.val(now)) } : {}),
        }))
        .where('id', 'in', found.map((f) => f.id)).returningAll().execute();
      if (close) for (const p of new Set(rows.map((r) => r.project_id))) engine.invalidate(p);
      engine.publish(rows);
      return { updated: rows.length };
    },
  };
}

export type MonitoringService = ReturnType<typeof createMonitoringService>;
