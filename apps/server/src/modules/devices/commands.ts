import {
  COMMAND_STATUS_LABELS, DEVICE_ACTION_LABELS, DEVICE_TYPE_BY_CODE, deviceTopic, fieldDisplay, fieldOf,
  type CommandStatus, type CommandView, type DeviceAction, type FieldValue,
} from '@kelvin/contracts';
import { DEVICE_PROTOCOL } from '@kelvin/contracts/device-protocol';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DeviceCommandTable } from '../../db/schema.ts';
import { DeviceGoneError, type MqttHub } from '../../plugins/mqtt.ts';
import type { LiveHub } from '../../plugins/live.ts';
import type { AckMessage } from './telemetry/parse.ts';

type CommandRow = Selectable<DeviceCommandTable>;

/** The device facts a command needs (the devices service has checked tenancy and permission). */
export interface CommandTarget {
  id: number;
  tenantId: number;
  tenantCode: string;
  projectId: number;
  deviceType: string;
  deviceCode: string;
  deviceName: string;
  onlineUntil: number | null;
}

/** Who a command is recorded under: a user, or the system (a schedule, the prepaid loop) with a name of its own. */
export interface CommandIssuer {
  userId: number | null;
  username: string | null;
}

/** How a command ended. */
export interface CommandOutcome {
  commandId: number;
  status: Extract<CommandStatus, 'acked' | 'rejected' | 'expired'>;
  error: string | null;
}

const FINISHED = new Set<string>(['acked', 'rejected', 'expired']);
/** A waiter also reads the row this often: the acknowledgement may arrive through another server process. */
const OUTCOME_POLL_MS = 1000;

export type CommandInput = { fieldCode: string; value: FieldValue } | { action: DeviceAction };

/** A command waits this long for a device that is offline (or asleep) unless the caller gives a TTL (the published protocol's figures). */
const DEFAULT_TTL_MS = DEVICE_PROTOCOL.commandTtlSeconds * 1000;
const SLEEPER_TTL_MS = DEVICE_PROTOCOL.sleeperTtlSeconds * 1000;
/** A sent command without an acknowledgement is sent again on the device's next report after this long. */
const RESEND_AFTER_MS = DEVICE_PROTOCOL.resendAfterSeconds * 1000;
const OPEN: CommandStatus[] = ['pending', 'sent'];

export function describeCommand(deviceType: string, row: Pick<CommandRow, 'field_code' | 'value' | 'action'>): string {
  if (row.action) return DEVICE_ACTION_LABELS[row.action as DeviceAction] ?? row.action;
  const field = fieldOf(deviceType, row.field_code ?? '');
  return `${field?.label ?? row.field_code} → ${fieldDisplay(deviceType, row.field_code ?? '', typedValue(deviceType, row.field_code, row.value))}`;
}

/** Stored as text; numbers go back to the device as numbers. */
function typedValue(deviceType: string, fieldCode: string | null, value: string | null): FieldValue | null {
  if (value === null || fieldCode === null) return null;
  const kind = fieldOf(deviceType, fieldCode)?.kind;
  return kind === 'number' || kind === 'enum' || kind === 'bool' ? Number(value) : value;
}

export function toCommandView(row: CommandRow, device: { deviceType: string; deviceCode: string }): CommandView {
  const status = row.status as CommandStatus;
  return {
    id: row.id,
    deviceId: row.device_id,
    deviceCode: device.deviceCode,
    fieldCode: row.field_code,
    value: typedValue(device.deviceType, row.field_code, row.value),
    action: row.action as DeviceAction | null,
    description: describeCommand(device.deviceType, row),
    status,
    statusLabel: COMMAND_STATUS_LABELS[status],
    error: row.error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
    username: row.username,
  };
}

/**
 * Commands (design §7): a row per write, pending → sent → acked | rejected | expired. Sent at once to a device that
 * is connected; otherwise kept until the device connects or reports again, or until its TTL. The operation log row
 * of the command follows its status.
 */
export function createCommandService(deps: { db: Db; mqtt: MqttHub | null; live: LiveHub; onError(err: unknown): void }) {
  const { db, live } = deps;
  const delivering = new Map<number, boolean>(); // device id → another run requested meanwhile
  let sweeper: NodeJS.Timeout | null = null;

  /** `justHeard`: the device connected or reported a moment ago (a 4G device is awake right now). */
  function reachable(t: Pick<CommandTarget, 'deviceCode' | 'deviceType' | 'onlineUntil'>, justHeard: boolean): boolean {
    if (!deps.mqtt) return false;
    const connected = deps.mqtt.isConnected(t.deviceCode);
    if (connected !== null) return connected;
    // external broker: connections are not visible here; trust the heartbeat, and never push to a sleeping 4G device
    return justHeard || ((t.onlineUntil ?? 0) > Date.now() && !DEVICE_TYPE_BY_CODE.get(t.deviceType)?.sleeps);
  }

  const waiters = new Map<number, Set<(o: CommandOutcome) => void>>();
  const finishedListeners: ((o: CommandOutcome & { deviceId: number; projectId: number; tenantId: number }) => void)[] = [];

  function emit(rows: Pick<CommandRow, 'id' | 'device_id' | 'project_id' | 'tenant_id' | 'status' | 'error'>[]) {
    for (const r of rows) {
      if (!FINISHED.has(r.status)) continue;
      const outcome = { commandId: r.id, status: r.status as CommandOutcome['status'], error: r.error };
      for (const resolve of waiters.get(r.id) ?? []) resolve(outcome);
      waiters.delete(r.id);
      for (const l of finishedListeners) {
        try {
          l({ ...outcome, deviceId: r.device_id, projectId: r.project_id, tenantId: r.tenant_id });
        } catch (err) {
          deps.onError(err);
        }
      }
    }
    if (!rows.length || !live.wanted()) return;
    live.publish(rows.map((r) => ({
      kind: 'command' as const,
      tenantId: r.tenant_id,
      projectId: r.project_id,
      data: { commandId: r.id, deviceId: r.device_id, projectId: r.project_id, status: r.status as CommandStatus, error: r.error },
    })));
  }

  /**
   * The operation log shows each command's status as it is now: read from the command row in the same statement, so
   * a late 'sent' cannot overwrite an 'acked' that raced past it.
   */
  async function syncLogResults(commandIds: number[]) {
    if (!commandIds.length) return;
    const labels = Object.entries(COMMAND_STATUS_LABELS).map(([status, label]) => sql`when ${status} then ${label}`);
    await db.updateTable('device_operation_log')
      .set({ result: sql<string>`case (select c.status from device_command c where c.id = device_operation_log.command_id) ${sql.join(labels, sql` `)} else result end` })
      .where('command_id', 'in', commandIds)
      .execute();
  }

  /** Clears the "commands waiting" flag of devices that have none left, unless a command arrived after `startedAt`. */
  async function clearPendingFlags(deviceIds: number[], startedAt: number) {
    if (!deviceIds.length) return;
    await db.updateTable('device').set({ command_pending_at: null })
      .where('id', 'in', deviceIds)
      .where('command_pending_at', '<=', startedAt)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('device_command as c').select('c.id')
        .whereRef('c.device_id', '=', 'device.id').where('c.status', 'in', OPEN))))
      .execute();
  }

  /** Publishes a command to its device; false when the broker refused it (the command stays open). */
  async function publish(target: Pick<CommandTarget, 'tenantCode' | 'deviceCode' | 'deviceType'>, row: CommandRow): Promise<boolean> {
    const value = typedValue(target.deviceType, row.field_code, row.value);
    const payload = row.action
      ? { id: row.id, action: row.action, fields: {} }
      : { id: row.id, fields: { [row.field_code!]: value } };
    try {
      await deps.mqtt!.publish(deviceTopic(target.tenantCode, target.deviceCode, 'down'), JSON.stringify(payload));
      return true;
    } catch (err) {
      if (!(err instanceof DeviceGoneError)) deps.onError(err);
      return false;
    }
  }

  /**
   * Published commands become sent, in one statement; those that were pending get their log result and live event.
   * `at`: when publishing began — the device's acknowledgement can be received (and timed) before the publish call
   * returns here, so a time taken now could come after the command's finished_at.
   */
  async function markSent(rows: CommandRow[], at: number) {
    if (!rows.length) return;
    // an acknowledgement may already have come back: only open commands become (or stay) sent
    const updated = await db.updateTable('device_command').set({ status: 'sent', sent_at: at })
      .where('id', 'in', rows.map((r) => r.id)).where('status', 'in', OPEN)
      .returning(['id', 'device_id', 'project_id', 'tenant_id', 'status', 'error'])
      .execute();
    const wasPending = new Set(rows.filter((r) => r.status === 'pending').map((r) => r.id));
    const fresh = updated.filter((u) => wasPending.has(u.id));
    if (fresh.length) {
      await syncLogResults(fresh.map((u) => u.id));
      emit(fresh);
    }
  }

  async function send(target: Pick<CommandTarget, 'tenantCode' | 'deviceCode' | 'deviceType'>, row: CommandRow): Promise<boolean> {
    const at = Date.now();
    if (!(await publish(target, row))) return false;
    await markSent([row], at);
    return true;
  }

  async function targetOf(deviceId: number): Promise<CommandTarget | undefined> {
    const d = await db.selectFrom('device').innerJoin('tenant', 'tenant.id', 'device.tenant_id')
      .select(['device.id', 'device.tenant_id', 'tenant.code', 'device.project_id', 'device.device_type', 'device.device_code', 'device.device_name', 'device.online_until'])
      .where('device.id', '=', deviceId).executeTakeFirst();
    return d && {
      id: d.id, tenantId: d.tenant_id, tenantCode: d.code, projectId: d.project_id, deviceType: d.device_type,
      deviceCode: d.device_code, deviceName: d.device_name, onlineUntil: d.online_until,
    };
  }

  async function deliverOnce(deviceId: number) {
    const startedAt = Date.now();
    const target = await targetOf(deviceId);
    if (!target || !reachable(target, true)) return;
    const rows = await db.selectFrom('device_command').selectAll()
      .where('device_id', '=', deviceId)
      .where('expires_at', '>', startedAt)
      .where((eb) => eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'sent'), eb('sent_at', '<', startedAt - RESEND_AFTER_MS)]),
      ]))
      .orderBy('id')
      .execute();
    for (const row of rows) if (!(await send(target, row))) return;
    await clearPendingFlags([deviceId], startedAt);
  }

  async function finishedRow(commandId: number): Promise<CommandOutcome | null> {
    const row = await db.selectFrom('device_command').select(['id', 'status', 'error']).where('id', '=', commandId).executeTakeFirst();
    if (!row) return null;
    return FINISHED.has(row.status) ? { commandId: row.id, status: row.status as CommandOutcome['status'], error: row.error } : null;
  }

  return {
    /**
     * How a command ends (acked, rejected or expired): resolves at once when this process sees it finish, and by a
     * read every second otherwise. `timeoutMs` bounds the wait (null: still open then); the command's own TTL ends it
     * as expired in any case.
     */
    async awaitOutcome(commandId: number, opts: { timeoutMs: number; signal?: { aborted: boolean } }): Promise<CommandOutcome | null> {
      const deadline = Date.now() + opts.timeoutMs;
      let resolveEvent!: (o: CommandOutcome) => void;
      const event = new Promise<CommandOutcome>((r) => (resolveEvent = r));
      let set = waiters.get(commandId);
      if (!set) waiters.set(commandId, (set = new Set()));
      set.add(resolveEvent);
      try {
        for (;;) {
          const done = await finishedRow(commandId);
          if (done) return done;
          const left = deadline - Date.now();
          if (left <= 0 || opts.signal?.aborted) return null;
          let timer: NodeJS.Timeout | undefined;
          const tick = new Promise<null>((r) => (timer = setTimeout(() => r(null), Math.min(left, OUTCOME_POLL_MS))));
          const hit = await Promise.race([event, tick]);
          clearTimeout(timer);
          if (hit) return hit;
        }
      } finally {
        set.delete(resolveEvent);
        if (!set.size) waiters.delete(commandId);
      }
    },

    /** Called in this process whenever a command finishes (acked, rejected, expired). */
    onFinished(listener: (o: CommandOutcome & { deviceId: number; projectId: number; tenantId: number }) => void) {
      finishedListeners.push(listener);
    },

    /** A command row by id (null when there is none). */
    async byId(commandId: number) {
      return (await db.selectFrom('device_command').selectAll().where('id', '=', commandId).executeTakeFirst()) ?? null;
    },

    /** The commands still waiting for a device, newest first. */
    openOf(deviceId: number) {
      return db.selectFrom('device_command').selectAll().where('device_id', '=', deviceId).where('status', 'in', OPEN).orderBy('id', 'desc').limit(50).execute();
    },

    /** Creates the command (and its operation log row) and sends it now if the device is reachable. */
    async create(target: CommandTarget, input: CommandInput, issuer: CommandIssuer, ttlSeconds?: number): Promise<CommandView> {
      const now = Date.now();
      const sleeps = DEVICE_TYPE_BY_CODE.get(target.deviceType)?.sleeps;
      const ttl = ttlSeconds !== undefined ? ttlSeconds * 1000 : sleeps ? SLEEPER_TTL_MS : DEFAULT_TTL_MS;
      const values = 'action' in input
        ? { field_code: null, value: null, action: input.action }
        : { field_code: input.fieldCode, value: String(input.value), action: null };
      const row = await db.transaction().execute(async (trx) => {
        const cmd = await trx.insertInto('device_command').values({
          tenant_id: target.tenantId, project_id: target.projectId, device_id: target.id, ...values,
          status: 'pending', error: null, user_id: issuer.userId, username: issuer.username,
          created_at: now, sent_at: null, finished_at: null, expires_at: now + ttl,
        }).returningAll().executeTakeFirstOrThrow();
        await trx.insertInto('device_operation_log').values({
          tenant_id: target.tenantId, project_id: target.projectId, device_id: target.id, device_code: target.deviceCode,
          device_name: target.deviceName, device_type: target.deviceType, command_id: cmd.id, user_id: issuer.userId,
          username: issuer.username, operation: 'action' in input ? '设备操作' : '写入参数',
          detail: describeCommand(target.deviceType, cmd).slice(0, 200), result: COMMAND_STATUS_LABELS.pending, at: now,
        }).execute();
        await trx.updateTable('device').set({ command_pending_at: now }).where('id', '=', target.id).execute();
        return cmd;
      });
      emit([row]);
      if (reachable(target, false)) await send(target, row);
      const fresh = await db.selectFrom('device_command').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      return toCommandView(fresh, target);
    },

    /**
     * Many commands at once (the scheduler's due minute): the rows and their operation log rows in one transaction per
     * chunk, then each sent to its device if reachable. Answers, in order, each command's id and status.
     */
    async createMany(items: { target: CommandTarget; input: CommandInput; issuer: CommandIssuer }[], ttlSeconds?: number): Promise<{ id: number; status: CommandStatus; error: string | null }[]> {
      const created: { row: CommandRow; target: CommandTarget }[] = [];
      // every row first (so each is recorded, and waits for its device, as early as possible), then the sends
      for (let i = 0; i < items.length; i += 200) {
        const chunk = items.slice(i, i + 200);
        const now = Date.now();
        const rows = await db.transaction().execute(async (trx) => {
          const cmds = await trx.insertInto('device_command').values(chunk.map(({ target, input, issuer }) => {
            const sleeps = DEVICE_TYPE_BY_CODE.get(target.deviceType)?.sleeps;
            const ttl = ttlSeconds !== undefined ? ttlSeconds * 1000 : sleeps ? SLEEPER_TTL_MS : DEFAULT_TTL_MS;
            return {
              tenant_id: target.tenantId, project_id: target.projectId, device_id: target.id,
              ...('action' in input ? { field_code: null, value: null, action: input.action } : { field_code: input.fieldCode, value: String(input.value), action: null }),
              status: 'pending', error: null, user_id: issuer.userId, username: issuer.username, created_at: now, sent_at: null, finished_at: null, expires_at: now + ttl,
            };
          })).returningAll().execute();
          await trx.insertInto('device_operation_log').values(cmds.map((cmd, j) => {
            const { target, input, issuer } = chunk[j]!;
            return {
              tenant_id: target.tenantId, project_id: target.projectId, device_id: target.id, device_code: target.deviceCode, device_name: target.deviceName,
              device_type: target.deviceType, command_id: cmd.id, user_id: issuer.userId, username: issuer.username,
              operation: 'action' in input ? '设备操作' : '写入参数', detail: describeCommand(target.deviceType, cmd).slice(0, 200),
              result: COMMAND_STATUS_LABELS.pending, at: now,
            };
          })).execute();
          await trx.updateTable('device').set({ command_pending_at: now }).where('id', 'in', [...new Set(chunk.map((c) => c.target.id))]).execute();
          return cmds;
        });
        emit(rows);
        rows.forEach((row, j) => created.push({ row, target: chunk[j]!.target }));
      }
      // published a chunk at a time (the broker keeps each device's order), each chunk marked sent in one statement
      const out: { id: number; status: CommandStatus; error: string | null }[] = [];
      for (let i = 0; i < created.length; i += 200) {
        const chunk = created.slice(i, i + 200);
        const at = Date.now();
        const published = await Promise.all(chunk.map(({ row, target }) => (reachable(target, false) ? publish(target, row) : false)));
        await markSent(chunk.filter((_, j) => published[j]).map((c) => c.row), at);
        chunk.forEach(({ row }, j) => out.push({ id: row.id, status: published[j] ? 'sent' : 'pending', error: null }));
      }
      return out;
    },

    /** Sends what waits for a device that just connected or reported (one run per device at a time). */
    async deliverPending(deviceId: number): Promise<void> {
      if (delivering.has(deviceId)) {
        delivering.set(deviceId, true);
        return;
      }
      delivering.set(deviceId, false);
      try {
        do {
          delivering.set(deviceId, false);
          await deliverOnce(deviceId);
        } while (delivering.get(deviceId));
      } finally {
        delivering.delete(deviceId);
      }
    },

    /** `{ id, ok, error? }` from the device: acked or rejected; late or foreign acknowledgements change nothing. */
    async acknowledge(deviceId: number, ack: AckMessage): Promise<boolean> {
      const now = Date.now();
      const status: CommandStatus = ack.ok ? 'acked' : 'rejected';
      const row = await db.updateTable('device_command')
        .set((eb) => ({
          status,
          error: ack.ok ? null : ack.error ?? '设备拒绝执行',
          finished_at: now,
          sent_at: eb.fn.coalesce('sent_at', eb.val(now)),
        }))
        .where('id', '=', ack.id).where('device_id', '=', deviceId).where('status', 'in', OPEN)
        .returning(['id', 'device_id', 'project_id', 'tenant_id', 'status', 'error'])
        .executeTakeFirst();
      if (!row) return false;
      await syncLogResults([row.id]);
      await clearPendingFlags([deviceId], now);
      emit([row]);
      return true;
    },

    /** Open commands past their TTL become expired. Safe to run in every process at once. */
    async expireDue(now = Date.now()): Promise<number> {
      const rows = await db.updateTable('device_command')
        .set((eb) => ({
          status: 'expired',
          finished_at: now,
          error: eb.case().when('status', '=', 'pending').then('设备不在线，有效期内未能下发').else('设备在有效期内未确认执行').end(),
        }))
        .where('status', 'in', OPEN).where('expires_at', '<=', now)
        .returning(['id', 'device_id', 'project_id', 'tenant_id', 'status', 'error'])
        .execute();
      if (!rows.length) return 0;
      await syncLogResults(rows.map((r) => r.id));
      await clearPendingFlags([...new Set(rows.map((r) => r.device_id))], now);
      emit(rows);
      return rows.length;
    },

    start() {
      sweeper = setInterval(() => {
        this.expireDue().catch(deps.onError);
      }, 1000);
      sweeper.unref();
    },
    stop() {
      if (sweeper) clearInterval(sweeper);
    },
  };
}

export type CommandService = ReturnType<typeof createCommandService>;
