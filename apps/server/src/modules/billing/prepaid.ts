import { DEVICE_TYPE_BY_CODE, fenToYuan, type SmsKind, type SupplyAction } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { systemScope } from '../../lib/scope.ts';
import type { AccountService, BalanceEvent } from '../accounts/index.ts';
import type { CommandOutcome, DeviceCore } from '../devices/index.ts';

/** Sends one SMS through the system module's provider (recorded whatever the provider). */
export type SmsSender = (tenantId: number, msg: { kind: SmsKind; phone: string; projectId: number; params: Record<string, string> }) => Promise<unknown>;

/** how long a cut-off or reconnect command waits for a sleeping device */
const COMMAND_TTL_S = 24 * 3600;
/** a failed action is tried again after this, doubling, and given up after MAX_ATTEMPTS */
const RETRY_BASE_MS = 60_000;
const MAX_ATTEMPTS = 5;
/** unhandled balance events this recent are picked up by the sweep (a process died between the charge and the loop) */
const EVENT_WINDOW_MS = 7 * 86_400_000;
/** a device turned on locally while cut off is switched off again at most this often */
const ENFORCE_EVERY_MS = 5 * 60_000;

/**
 * The prepaid loop (design §8): after each posting the accounts module reports threshold crossings; here warning 1
 * and 2 send an SMS, cut-off sends one and switches the account's devices off through the device core (power off, valve
 * forced closed, relay open — per type, `supply` in the registry), and a top-up back above the line switches them on.
 * Each balance event is handled once across processes (billing_event_done); each device action is a row whose command
 * outcome settles it; failed ones are retried with back-off and listed.
 */
export function createPrepaidLoop(deps: { db: Db; core: DeviceCore; accounts: AccountService; sms: SmsSender; projectName(id: number): Promise<string>; onError(err: unknown): void }) {
  const { db, core, accounts } = deps;
  let timer: NodeJS.Timeout | null = null;
  /** devices held off for arrears (their latest supply action is an acknowledged cut-off) → that action */
  let heldOff = new Map<number, number>();
  const lastEnforced = new Map<number, number>();

  async function loadHeldOff() {
    const latest = db.selectFrom('billing_supply').select((eb) => eb.fn.max('id').as('id')).groupBy('device_id');
    const rows = await db.selectFrom('billing_supply').select(['id', 'device_id']).where('id', 'in', latest).where('action', '=', 'cutoff').where('status', '=', 'acked').execute();
    heldOff = new Map(rows.map((r) => [r.device_id, r.id]));
  }

  async function handle(event: Pick<BalanceEvent, 'id' | 'tenantId' | 'projectId' | 'accountId' | 'kind' | 'balanceFen'>): Promise<void> {
    const claimed = await db.insertInto('billing_event_done').values({ balance_event_id: event.id, handled_at: Date.now() })
      .onConflict((oc) => oc.column('balance_event_id').doNothing()).returning('balance_event_id').executeTakeFirst();
    if (!claimed) return;
    const acc = await accounts.brief(event.accountId);
    if (!acc) return;
    const params = { name: acc.name, project: await deps.projectName(event.projectId), room: acc.rooms.map((r) => r.name).join('、'), balance: fenToYuan(event.balanceFen) };
    if (event.kind === 'warning1' || event.kind === 'warning2') {
      await deps.sms(event.tenantId, { kind: 'low_balance', phone: acc.phone, projectId: event.projectId, params });
      return;
    }
    const action: SupplyAction = event.kind === 'cutoff' ? 'cutoff' : 'reconnect';
    if (action === 'cutoff') await deps.sms(event.tenantId, { kind: 'cut_off', phone: acc.phone, projectId: event.projectId, params });
    const scope = systemScope(event.tenantId);
    const roomIds = acc.rooms.map((r) => r.id);
    const devices = await core.devices.scopedDevices(scope).selectAll().where('project_id', '=', event.projectId)
      .where((eb) => eb.or([eb('area_id', 'in', roomIds.length ? roomIds : [-1]), eb('id', 'in', acc.deviceIds.length ? acc.deviceIds : [-1])])).orderBy('id').execute();
    const now = Date.now();
    for (const d of devices) {
      // a newer action on the device replaces what is still pending from an older one
      await db.updateTable('billing_supply').set({ status: 'superseded', updated_at: now }).where('device_id', '=', d.id).where('status', 'in', ['pending', 'failed']).execute();
      const supply = DEVICE_TYPE_BY_CODE.get(d.device_type)?.supply ?? null;
      const row = await db.insertInto('billing_supply').values({
        tenant_id: event.tenantId, project_id: event.projectId, account_id: acc.id, device_id: d.id, balance_event_id: event.id, action, status: supply ? 'pending' : 'unsupported',
        attempts: 0, command_id: null, last_error: supply ? null : '该设备类型不能断开或恢复供能', next_try_at: null, created_at: now, updated_at: now,
      }).onConflict((oc) => oc.columns(['balance_event_id', 'device_id']).doNothing()).returning('id').executeTakeFirst();
      if (row && supply) await issue(row.id);
    }
  }

  /** Sends (again) the command of one supply action. */
  async function issue(supplyId: number): Promise<void> {
    const s = await db.selectFrom('billing_supply').selectAll().where('id', '=', supplyId).executeTakeFirst();
    if (!s || s.status === 'superseded' || s.status === 'acked' || s.status === 'unsupported') return;
    const device = await core.devices.byId(s.device_id);
    const supply = device && DEVICE_TYPE_BY_CODE.get(device.device_type)?.supply;
    if (!device || !supply) {
      await db.updateTable('billing_supply').set({ status: 'gaveUp', last_error: '设备已删除', updated_at: Date.now() }).where('id', '=', s.id).execute();
      return;
    }
    const value = s.action === 'cutoff' ? supply.off : supply.on;
    const cmd = await core.issueCommand(await core.devices.target(device), { fieldCode: supply.field, value }, { userId: null, username: s.action === 'cutoff' ? '计费引擎（欠费断开）' : '计费引擎（充值恢复）' }, { ttl: COMMAND_TTL_S });
    await db.updateTable('billing_supply').set({ status: 'pending', command_id: cmd.id, attempts: s.attempts + 1, next_try_at: null, updated_at: Date.now() }).where('id', '=', s.id).execute();
    // a device that answers before the action names its command had its outcome passed by: settle it now
    const done = await core.awaitOutcome(cmd.id, { timeoutMs: 0 });
    if (done) await onCommandFinished(done);
  }

  /** A command finished (in this process): settle its supply action. */
  async function onCommandFinished(outcome: CommandOutcome): Promise<void> {
    const s = await db.selectFrom('billing_supply').selectAll().where('command_id', '=', outcome.commandId).executeTakeFirst();
    if (!s || s.status !== 'pending') return;
    const now = Date.now();
    if (outcome.status === 'acked') {
      await db.updateTable('billing_supply').set({ status: 'acked', last_error: null, updated_at: now }).where('id', '=', s.id).where('status', '=', 'pending').execute();
      if (s.action === 'cutoff') heldOff.set(s.device_id, s.id);
      else heldOff.delete(s.device_id);
      return;
    }
    const error = outcome.error ?? (outcome.status === 'expired' ? '设备未在有效期内响应' : '设备拒绝执行');
    const gaveUp = s.attempts >= MAX_ATTEMPTS;
    await db.updateTable('billing_supply').set({
      status: gaveUp ? 'gaveUp' : 'failed', last_error: error.slice(0, 200), next_try_at: gaveUp ? null : now + RETRY_BASE_MS * 2 ** (s.attempts - 1), updated_at: now,
    }).where('id', '=', s.id).where('status', '=', 'pending').execute();
  }

  /** Crash recovery and retries: balance events nobody handled, failed actions whose time has come. */
  async function sweep(now = Date.now()): Promise<void> {
    const unhandled = await db.selectFrom('balance_event').leftJoin('billing_event_done', 'billing_event_done.balance_event_id', 'balance_event.id')
      .select(['balance_event.id', 'balance_event.tenant_id', 'balance_event.project_id', 'balance_event.account_id', 'balance_event.kind', 'balance_event.balance_fen'])
      .where('billing_event_done.balance_event_id', 'is', null).where('balance_event.created_at', '>', now - EVENT_WINDOW_MS).where('balance_event.created_at', '<', now - 5_000)
      .orderBy('balance_event.id').limit(500).execute();
    for (const e of unhandled) {
      await handle({ id: e.id, tenantId: e.tenant_id, projectId: e.project_id, accountId: e.account_id, kind: e.kind as BalanceEvent['kind'], balanceFen: Number(e.balance_fen) }).catch(deps.onError);
    }
    // pending actions whose command finished unseen here (before it was linked, or in another process)
    const finished = await db.selectFrom('billing_supply').innerJoin('device_command', 'device_command.id', 'billing_supply.command_id')
      .select(['device_command.id', 'device_command.status', 'device_command.error'])
      .where('billing_supply.status', '=', 'pending').where('device_command.status', 'in', ['acked', 'rejected', 'expired']).orderBy('billing_supply.id').limit(200).execute();
    for (const c of finished) await onCommandFinished({ commandId: c.id, status: c.status as CommandOutcome['status'], error: c.error }).catch(deps.onError);
    const due = await db.selectFrom('billing_supply').select('id').where('status', '=', 'failed').where('next_try_at', '<=', now).orderBy('id').limit(200).execute();
    for (const s of due) await issue(s.id).catch(deps.onError);
    await loadHeldOff();
  }

  /**
   * A device switched back on at the wall while its account is cut off (arrears): it is switched off again, at most
   * every few minutes, and the action shows why.
   */
  function onReport(report: { deviceId: number; deviceType: string; points: readonly { code: string; num: number | null }[] }) {
    const supplyId = heldOff.get(report.deviceId);
    if (supplyId === undefined) return;
    const supply = DEVICE_TYPE_BY_CODE.get(report.deviceType)?.supply;
    if (!supply || !report.points.some((p) => p.code === supply.field && p.num === supply.on)) return;
    const now = Date.now();
    if (now - (lastEnforced.get(report.deviceId) ?? 0) < ENFORCE_EVERY_MS) return;
    lastEnforced.set(report.deviceId, now);
    heldOff.delete(report.deviceId);
    void (async () => {
      await db.updateTable('billing_supply').set({ status: 'failed', last_error: '欠费期间设备被本地开启，已再次断开', updated_at: now }).where('id', '=', supplyId).where('status', '=', 'acked').execute();
      await issue(supplyId);
    })().catch(deps.onError);
  }

  return {
    onBalanceEvent: (e: BalanceEvent) => handle(e).catch(deps.onError),
    onCommandFinished: (o: CommandOutcome) => onCommandFinished(o).catch(deps.onError),
    onReport,
    sweep,
    /** 重试: a failed or given-up action is sent again now */
    async retry(supplyId: number) {
      await db.updateTable('billing_supply').set({ status: 'failed', next_try_at: Date.now(), updated_at: Date.now() }).where('id', '=', supplyId).where('status', 'in', ['failed', 'gaveUp']).execute();
      await issue(supplyId);
    },
    start(intervalMs = 30_000) {
      void loadHeldOff().catch(deps.onError);
      timer = setInterval(() => void sweep().catch(deps.onError), intervalMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
export type PrepaidLoop = ReturnType<typeof createPrepaidLoop>;
