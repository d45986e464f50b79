import crypto from 'node:crypto';
import {
  ResultCode, amountInWords, fenToYuan,
  type AccountCreate, type AccountDto, type AccountGroupBody, type AccountGroupDto, type AccountKind, type AccountQuery, type AccountStatus,
  DEPOSIT_DIRECT_CAUSE, type DepositBatchDto, type DepositCollectPage, type DepositCollectQuery, type DepositDirectBody, type DepositDirectResult, type DepositDirectRow,
  type AccountUpdate, type BalanceEventDto, type BalanceEventKind, type ChargeBody, type ChargeLogQuery, type DepositAction, type DepositBody,
  type LedgerBook, type LedgerEntryDto, type LedgerKind, type LedgerQuery, type MoneyMoveResult, type MoneySettingsBody, type MoneySettingsDto,
  type OrderDto, type OrderQuery, type OrderStatus, type PaymentAccountBody, type PaymentAccountDto, type PaymentProviderKind, type ReceiptDto,
  type ReconcileResult, type ReconcileRow, type RefundBody, type RefundDto, type RefundQuery, type RefundResult, type RefundStatus,
  type SettlementBody, type SettlementPreview, type SettlementResult, type TopupBody, type TopupMethod, type TopupResult,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { storedSecret } from '../../db/secrets.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { byIdDescending } from '../../lib/excel.ts';
import { paginate } from '../../lib/pagination.ts';
import { systemScope, type Actor, type Scope } from '../../lib/scope.ts';
import type { ProjectService } from '../projects/index.ts';
import { once, post, requestHash, settingsOf, type BalanceEvent, type Mover, type Posting, type Trx } from './ledger.ts';
import {
  PROVIDERS, SignatureError, sandboxNotification, secretCipher, type PaidNotice, type ProviderConfig,
} from './payments.ts';
import * as repo from './repository.ts';
import type { AccountRow, OrderRow } from './repository.ts';

/** What the accounts module needs of a device (through the device core, scoped to the caller). */
export type DeviceLookup = (actor: Actor, id: number) => Promise<{ id: number; project_id: number | null; name: string; code: string }>;

/** The latest readings of devices (the device core's latestState). */
export type ReadingsLookup = (deviceIds: number[]) => Promise<{ device_id: number; field_code: string; num: number | null; txt: string | null; ts: number }[]>;

export type BalanceListener = (event: BalanceEvent) => void | Promise<void>;

/** Billing's side of a move-out settlement: the use still owed (billed up to now first), and marking it settled. */
export interface UnbilledSource {
  unbilled(projectId: number, accountId: number): Promise<{ unbilledFen: number; note: string }>;
  settled(accountId: number, entryId: number): Promise<void>;
}

/** An account with its active rooms and their floor area (m²), as billing's share teams read it. */
export interface AccountWithRooms { id: number; projectId: number; name: string; status: AccountStatus; rooms: { id: number; path: string; floorArea: number }[]; area: number }

const CST = 8 * 3_600_000;
const ymd = (ms: number) => new Date(ms + CST).toISOString().slice(0, 10).replace(/-/g, '');
/** Start of a YYYY-MM-DD day in Asia/Shanghai, as ms epoch. */
const dayStart = (d: string) => Date.parse(`${d}T00:00:00+08:00`);

export const maskPhone = (p: string) => (p.length >= 7 ? `${p.slice(0, 3)}****${p.slice(-4)}` : '****');
export const maskIdNumber = (s: string | null) => (s ? `${s.slice(0, 4)}${'*'.repeat(Math.max(0, s.length - 8))}${s.slice(-4)}` : null);
const moverOf = (actor: Actor): Mover => ({ id: actor.user.id, name: actor.user.name || actor.user.username });
/** The billing engine as the mover of its charges. */
const ENGINE: Mover = { id: null, name: '计费引擎' };

/** An account as the billing engine bills it. */
export interface BillingAccount {
  id: number;
  tenantId: number;
  name: string;
  phone: string;
  createdAt: number;
  balanceFen: number;
  rooms: { id: number; name: string; area: number }[];
  deviceIds: number[];
}

export function createAccountService(deps: { db: Db; projects: ProjectService; device: DeviceLookup; readings?: ReadingsLookup; onError(err: unknown): void }) {
  const { db, projects } = deps;
  const listeners: BalanceListener[] = [];
  /** the billing engine's answer to "what does this account still owe for its use" (registered in app.ts) */
  let unbilledSource: UnbilledSource | null = null;
  const unbilledOf = async (acc: { project_id: number; id: number }) =>
    (unbilledSource ? await unbilledSource.unbilled(acc.project_id, acc.id) : { unbilledFen: 0, note: '未启用计费' });
  const cipherP = secretCipher(db);

  function emit(events: BalanceEvent[]) {
    for (const e of events) {
      for (const l of listeners) {
        Promise.resolve().then(() => l(e)).catch(deps.onError);
      }
    }
  }

  // ------------------------------------------------------------ reads

  async function accountRow(db_: Db | Trx, scope: Scope, id: number): Promise<AccountRow> {
    const row = await repo.accountsOf(db_, scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('账户');
    return row;
  }

  async function toDtos(actor: Actor, rows: AccountRow[], whole: boolean): Promise<AccountDto[]> {
    const ids = rows.map((r) => r.id);
    const [rooms, devs, groups, names] = await Promise.all([
      repo.roomsOf(db, ids),
      repo.devicesOf(db, ids),
      rows.some((r) => r.group_id) ? db.selectFrom('account_group').select(['id', 'name']).where('id', 'in', rows.map((r) => r.group_id ?? -1)).execute() : [],
      Promise.all([...new Set(rows.map((r) => r.project_id))].map(async (p) => [p, await projects.projectName(p)] as const)),
    ]);
    const groupName = new Map(groups.map((g) => [g.id, g.name]));
    const projectName = new Map(names);
    const seeId = actor.user.codes.has('userRegister_n:idnumber');
    const out: AccountDto[] = [];
    for (const r of rows) {
      const devices = [];
      for (const d of devs.get(r.id) ?? []) {
        const dev = await deps.device(actor, d).catch(() => null);
        devices.push({ id: d, name: dev?.name ?? '', code: dev?.code ?? '' });
      }
      out.push({
        id: r.id, projectId: r.project_id, projectName: projectName.get(r.project_id) ?? '', kind: r.kind as AccountKind, name: r.name,
        phone: whole ? r.phone : maskPhone(r.phone), idNumber: seeId ? r.id_number : maskIdNumber(r.id_number), moveInDate: r.move_in_date,
        status: r.status as AccountStatus, balanceFen: Number(r.balance_fen), depositFen: Number(r.deposit_fen), groupId: r.group_id,
        groupName: r.group_id ? groupName.get(r.group_id) ?? null : null, rooms: rooms.get(r.id) ?? [], devices, remark: r.remark,
        createdAt: r.created_at, closedAt: r.closed_at,
      });
    }
    return out;
  }

  function entryDto(r: repo.EntryRow & { account_name: string }): LedgerEntryDto {
    return {
      id: r.id, accountId: r.account_id, accountName: r.account_name, projectId: r.project_id, book: r.book as LedgerBook, kind: r.kind as LedgerKind,
      amountFen: Number(r.amount_fen), balanceAfterFen: Number(r.balance_after_fen), reason: r.reason, method: r.method as TopupMethod | null,
      causeType: r.cause_type, causeId: r.cause_id, actorName: r.actor_name, createdAt: r.created_at,
    };
  }

  function orderDto(o: OrderRow, accountName: string): OrderDto {
    return {
      id: o.id, orderNo: o.order_no, projectId: o.project_id, accountId: o.account_id, accountName, provider: o.provider as PaymentProviderKind,
      amountFen: Number(o.amount_fen), status: o.status as OrderStatus, qrPayload: o.status === 'created' ? o.qr_payload : null, providerTxnId: o.provider_txn_id,
      entryId: o.entry_id, createdAt: o.created_at, paidAt: o.paid_at, closedAt: o.closed_at,
    };
  }

  // ------------------------------------------------------------ rooms and devices

  async function checkRooms(scope: Scope, projectId: number, roomIds: number[]) {
    for (const id of new Set(roomIds)) {
      const room = await projects.area(scope, id).catch(() => null);
      if (!room || room.level !== 'room') throw invalid(`房间 ${id} 不存在`, ['roomIds']);
      const p = await projects.projectOf(scope, id);
      if (p.id !== projectId) throw invalid(`房间「${room.name}」不属于该项目`, ['roomIds']);
    }
  }

  async function checkDevices(actor: Actor, projectId: number, deviceIds: number[]) {
    for (const id of new Set(deviceIds)) {
      const d = await deps.device(actor, id).catch(() => null);
      if (!d) throw invalid(`设备 ${id} 不存在`, ['deviceIds']);
      if (d.project_id !== projectId) throw invalid(`设备「${d.name}」不属于该项目`, ['deviceIds']);
    }
  }

  async function setRooms(trx: Trx, acc: { id: number; tenant_id: number }, roomIds: number[], now: number) {
    const wanted = [...new Set(roomIds)];
    const taken = await repo.takenRooms(trx, wanted, acc.id);
    if (taken.length) throw conflict(`房间已被其他在用账户登记（账户编号 ${taken.map((t) => t.account_id).join('、')}），请先为其办理退户`);
    const current = await trx.selectFrom('account_room').select(['id', 'room_id']).where('account_id', '=', acc.id).where('active', '=', 1).execute();
    const drop = current.filter((c) => !wanted.includes(c.room_id)).map((c) => c.id);
    if (drop.length) await trx.updateTable('account_room').set({ active: 0, released_at: now }).where('id', 'in', drop).execute();
    const add = wanted.filter((r) => !current.some((c) => c.room_id === r));
    if (add.length) await trx.insertInto('account_room').values(add.map((room_id) => ({ tenant_id: acc.tenant_id, account_id: acc.id, room_id, active: 1, created_at: now, released_at: null }))).execute();
  }

  async function setDevices(trx: Trx, acc: { id: number; tenant_id: number }, deviceIds: number[]) {
    await trx.deleteFrom('account_device').where('account_id', '=', acc.id).execute();
    const ids = [...new Set(deviceIds)];
    if (ids.length) await trx.insertInto('account_device').values(ids.map((device_id) => ({ tenant_id: acc.tenant_id, account_id: acc.id, device_id }))).execute();
  }

  async function checkGroup(scope: Scope, projectId: number, groupId: number | null | undefined) {
    if (!groupId) return;
    const g = await repo.groupsOf(db, scope).select(['id', 'project_id']).where('id', '=', groupId).executeTakeFirst();
    if (!g || g.project_id !== projectId) throw invalid('用户组不存在或不属于该项目', ['groupId']);
  }

  // ------------------------------------------------------------ money: the one way in

  /** A money move under an idempotency key: validated, run once, its threshold events emitted after commit. */
  async function money<T>(actor: Actor, key: string, op: string, target: unknown, body: unknown, run: (trx: Trx, events: BalanceEvent[]) => Promise<T>): Promise<T> {
    const events: BalanceEvent[] = [];
    const { result, replayed } = await once(db, actor.scope.tenantId, key, requestHash(op, target, body), (trx) => run(trx, events));
    if (!replayed) emit(events);
    return result;
  }

  async function lockedAccount(trx: Trx, scope: Scope, id: number) {
    const row = await accountRow(trx, scope, id);
    if (row.status !== 'active') throw conflict('账户已退户，不能再收付款');
    return row;
  }

  async function receipt(scope: Scope, entryId: number): Promise<ReceiptDto> {
    const e = await repo.entriesOf(db, scope).where('ledger_entry.id', '=', entryId).executeTakeFirst();
    if (!e) throw notFound('流水');
    const rooms = (await repo.roomsOf(db, [e.account_id], false)).get(e.account_id) ?? [];
    const amount = Math.abs(Number(e.amount_fen));
    return {
      receiptNo: `R${ymd(e.created_at)}${String(e.id).padStart(8, '0')}`, entryId: e.id, accountId: e.account_id, accountName: e.account_name,
      projectName: await projects.projectName(e.project_id), rooms: [...new Set(rooms.map((r) => r.path))], kind: e.kind as LedgerKind,
      method: e.method as TopupMethod | null, amountFen: amount, amountYuan: fenToYuan(amount), amountInWords: amountInWords(amount),
      balanceAfterFen: Number(e.balance_after_fen), operator: e.actor_name, createdAt: e.created_at,
    };
  }

  async function topupIn(trx: Trx, acc: AccountRow, amountFen: number, p: Partial<Posting>, mover: Mover, events: BalanceEvent[]) {
    const s = await settingsOf(trx, acc.project_id);
    if (s.topupMaxFen !== null && amountFen > s.topupMaxFen) throw invalid(`单次充值不能超过 ${fenToYuan(s.topupMaxFen)} 元`, ['amountFen']);
    const r = await post(trx, acc, { kind: 'topup', amountFen, ceilingFen: s.balanceMaxFen, settings: s, ...p }, mover);
    events.push(...r.events);
    return r;
  }

  async function applyRefund(trx: Trx, acc: AccountRow, refundId: number, amountFen: number, reason: string, mover: Mover, events: BalanceEvent[], key: string | null) {
    const r = await post(trx, acc, { kind: 'refund', amountFen: -amountFen, reason, noOverdraw: true, causeType: 'refund', causeId: String(refundId), idemKey: key }, mover);
    events.push(...r.events);
    return r;
  }

  // ------------------------------------------------------------ payments

  async function providerConfig(projectId: number): Promise<ProviderConfig> {
    const row = await db.selectFrom('payment_account').selectAll().where('project_id', '=', projectId).executeTakeFirst();
    const cipher = await cipherP;
    if (!row) {
      // no merchant configured: the built-in sandbox with a per-install key
      return { provider: 'sandbox', mchId: 'sandbox', appId: 'sandbox', apiKey: await sandboxKey(), privateKey: null, certSerialNo: null, platformPublicKey: null, notifyUrl: null };
    }
    return {
      provider: row.provider as 'sandbox' | 'wechat', mchId: row.mch_id, appId: row.app_id, apiKey: cipher.open(row.api_key_enc),
      privateKey: row.private_key_enc ? cipher.open(row.private_key_enc) : null, certSerialNo: row.cert_serial_no, platformPublicKey: row.platform_public_key, notifyUrl: row.notify_url,
    };
  }

  async function sandboxKey() {
    return storedSecret(db, 'payment_sandbox_key', () => crypto.randomBytes(24).toString('hex'));
  }

  /** Credits a paid order once: the status compare-and-set decides, the top-up's key is the order number. */
  async function creditOrder(tenantId: number, projectId: number, notice: PaidNotice) {
    const events: BalanceEvent[] = [];
    const out = await db.transaction().execute(async (trx) => {
      const order = await trx.selectFrom('payment_order').selectAll().where('order_no', '=', notice.orderNo).where('project_id', '=', projectId).where('tenant_id', '=', tenantId).executeTakeFirst();
      if (!order) throw notFound('订单');
      if (Number(order.amount_fen) !== notice.amountFen) throw conflict('通知金额与订单金额不符');
      if (order.status === 'paid') return { orderNo: order.order_no, status: 'paid', entryId: order.entry_id, duplicate: true };
      if (order.status !== 'created') throw conflict(`订单${order.status === 'closed' ? '已关闭' : '状态不允许入账'}`);
      const won = await trx.updateTable('payment_order').set({ status: 'paid', paid_at: notice.paidAt, provider_txn_id: notice.txnId })
        .where('id', '=', order.id).where('status', '=', 'created').returning('id').executeTakeFirst();
      if (!won) return { orderNo: order.order_no, status: 'paid', entryId: null, duplicate: true };
      const acc = await trx.selectFrom('account').selectAll().where('id', '=', order.account_id).executeTakeFirstOrThrow();
      const r = await post(trx, acc, { kind: 'topup', amountFen: notice.amountFen, method: 'online', reason: '在线支付充值', causeType: 'order', causeId: order.order_no, idemKey: `order:${order.order_no}` }, { id: null, name: '在线支付' }, notice.paidAt);
      events.push(...r.events);
      await trx.updateTable('payment_order').set({ entry_id: r.entryId }).where('id', '=', order.id).execute();
      return { orderNo: order.order_no, status: 'paid', entryId: r.entryId, duplicate: false };
    });
    emit(events);
    return out;
  }

  function depositCollectQuery(scope: Scope, q: DepositCollectQuery) {
    let query = repo.entriesOf(db, scope).where('ledger_entry.kind', '=', 'deposit_collect');
    if (q.projectId) query = query.where('ledger_entry.project_id', '=', q.projectId);
    if (q.accountId) query = query.where('ledger_entry.account_id', '=', q.accountId);
    if (q.operator) query = query.where('ledger_entry.actor_name', 'like', `%${q.operator}%`);
    if (q.startTime !== undefined) query = query.where('ledger_entry.created_at', '>=', q.startTime);
    if (q.endTime !== undefined) query = query.where('ledger_entry.created_at', '<', q.endTime);
    return query;
  }

  // ------------------------------------------------------------ the service

  const service = {
    onBalanceEvent(l: BalanceListener) {
      listeners.push(l);
    },

    registerUnbilled(source: UnbilledSource) {
      unbilledSource = source;
    },

    async list(actor: Actor, q: AccountQuery) {
      let query = repo.accountsOf(db, actor.scope).selectAll();
      if (q.projectId) query = query.where('project_id', '=', q.projectId);
      if (q.status) query = query.where('status', '=', q.status);
      if (q.groupId) query = query.where('group_id', '=', q.groupId);
      if (q.keyword) {
        const like = `%${q.keyword}%`;
        query = query.where((eb) => eb.or([
          eb('name', 'like', like), eb('phone', 'like', like),
          eb('id', 'in', eb.selectFrom('account_room').innerJoin('area', 'area.id', 'account_room.room_id').select('account_room.account_id').where('area.name', 'like', like).where('account_room.active', '=', 1)),
        ]));
      }
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: await toDtos(actor, page.rows, false) };
    },

    async *exportRows(actor: Actor, q: AccountQuery) {
      for (let pageNo = 1; ; pageNo++) {
        const page = await service.list(actor, { ...q, pageNo, pageSize: 200 });
        yield* page.rows;
        if (page.rows.length < 200) return;
      }
    },

    async get(actor: Actor, id: number): Promise<AccountDto> {
      return (await toDtos(actor, [await accountRow(db, actor.scope, id)], true))[0];
    },

    /**
     * Accounts inside the scope (absent when not visible) with their active rooms and the rooms' floor area in m²:
     * billing's share teams check membership and weigh shares by area through this read.
     */
    async withRooms(scope: Scope, accountIds: number[]): Promise<Map<number, AccountWithRooms>> {
      const ids = [...new Set(accountIds)];
      const out = new Map<number, AccountWithRooms>();
      if (!ids.length) return out;
      const [rows, rooms, areas] = await Promise.all([
        repo.accountsOf(db, scope).select(['id', 'project_id', 'name', 'status']).where('id', 'in', ids).execute(),
        repo.roomsOf(db, ids),
        db.selectFrom('account_room').innerJoin('area', 'area.id', 'account_room.room_id').select(['area.id', 'area.floor_area'])
          .where('account_room.account_id', 'in', ids).where('account_room.active', '=', 1).execute(),
      ]);
      const floorArea = new Map(areas.map((r) => [r.id, Number(r.floor_area ?? 0)]));
      for (const r of rows) {
        const mine = (rooms.get(r.id) ?? []).map((x) => ({ id: x.id, path: x.path, floorArea: floorArea.get(x.id) ?? 0 }));
        out.set(r.id, { id: r.id, projectId: r.project_id, name: r.name, status: r.status as AccountStatus, rooms: mine, area: Math.round(mine.reduce((s, x) => s + x.floorArea, 0) * 1e4) / 1e4 });
      }
      return out;
    },

    async create(actor: Actor, b: AccountCreate): Promise<{ id: number }> {
      const p = await projects.project(actor.scope, b.projectId);
      await checkRooms(actor.scope, p.id, b.roomIds);
      await checkDevices(actor, p.id, b.deviceIds ?? []);
      await checkGroup(actor.scope, p.id, b.groupId);
      const now = Date.now();
      return db.transaction().execute(async (trx) => {
        const acc = await trx.insertInto('account').values({
          tenant_id: p.tenant_id, project_id: p.id, kind: b.kind, name: b.name, phone: b.phone, id_number: b.idNumber || null, move_in_date: b.moveInDate ?? null,
          status: 'active', balance_fen: 0, deposit_fen: 0, group_id: b.groupId ?? null, remark: b.remark || null, created_at: now, closed_at: null,
        }).returning(['id', 'tenant_id']).executeTakeFirstOrThrow();
        await setRooms(trx, acc, b.roomIds, now);
        await setDevices(trx, acc, b.deviceIds ?? []);
        return { id: acc.id };
      });
    },

    async update(actor: Actor, id: number, b: AccountUpdate) {
      const acc = await accountRow(db, actor.scope, id);
      if (acc.status !== 'active') throw conflict('账户已退户，不能修改');
      if (b.roomIds) await checkRooms(actor.scope, acc.project_id, b.roomIds);
      if (b.deviceIds) await checkDevices(actor, acc.project_id, b.deviceIds);
      await checkGroup(actor.scope, acc.project_id, b.groupId);
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        const patch = {
          ...(b.kind ? { kind: b.kind } : {}), ...(b.name ? { name: b.name } : {}), ...(b.phone ? { phone: b.phone } : {}),
          ...(b.idNumber !== undefined ? { id_number: b.idNumber || null } : {}), ...(b.moveInDate !== undefined ? { move_in_date: b.moveInDate } : {}),
          ...(b.groupId !== undefined ? { group_id: b.groupId } : {}), ...(b.remark !== undefined ? { remark: b.remark || null } : {}),
        };
        if (Object.keys(patch).length) await trx.updateTable('account').set(patch).where('id', '=', id).execute();
        if (b.roomIds) await setRooms(trx, acc, b.roomIds, now);
        if (b.deviceIds) await setDevices(trx, acc, b.deviceIds);
      });
      return service.get(actor, id);
    },

    async updatePhone(actor: Actor, id: number, phone: string) {
      const acc = await accountRow(db, actor.scope, id);
      await db.updateTable('account').set({ phone }).where('id', '=', acc.id).execute();
      return { id, phone };
    },

    async topup(actor: Actor, id: number, b: TopupBody, key: string): Promise<TopupResult> {
      if (b.method === 'online') throw invalid('在线支付请通过下单扫码完成，入账由支付通知完成', ['method']);
      const r = await money(actor, key, 'topup', id, b, async (trx, events) => {
        const acc = await lockedAccount(trx, actor.scope, id);
        const p = await topupIn(trx, acc, b.amountFen, { method: b.method, reason: b.remark || '充值', idemKey: key }, moverOf(actor), events);
        return { entryId: p.entryId, balanceFen: p.balanceFen };
      });
      return { ...r, receipt: await receipt(actor.scope, r.entryId) };
    },

    async charge(actor: Actor, id: number, b: ChargeBody, key: string): Promise<MoneyMoveResult> {
      return money(actor, key, 'charge', id, b, async (trx, events) => {
        const acc = await lockedAccount(trx, actor.scope, id);
        const p = await post(trx, acc, { kind: 'charge', amountFen: -b.amountFen, reason: b.reason, causeType: b.causeType ?? null, causeId: b.causeId ?? null, idemKey: key }, moverOf(actor));
        events.push(...p.events);
        return { entryId: p.entryId, balanceFen: p.balanceFen, depositFen: p.depositFen };
      });
    },

    /**
     * A charge by the billing engine: system work for a run a user with the right asked for (or the schedule), so no
     * caller scope; the ledger names 计费引擎 as the mover. Idempotent on the key like every money move.
     */
    async systemCharge(tenantId: number, id: number, b: ChargeBody, key: string): Promise<MoneyMoveResult> {
      const scope = systemScope(tenantId);
      const events: BalanceEvent[] = [];
      const { result, replayed } = await once(db, tenantId, key, requestHash('charge', id, b), async (trx) => {
        const acc = await lockedAccount(trx, scope, id);
        const p = await post(trx, acc, { kind: 'charge', amountFen: -b.amountFen, reason: b.reason, causeType: b.causeType ?? null, causeId: b.causeId ?? null, idemKey: key }, ENGINE);
        events.push(...p.events);
        return { entryId: p.entryId, balanceFen: p.balanceFen, depositFen: p.depositFen };
      });
      if (!replayed) emit(events);
      return result;
    },

    /** The active accounts of a project as the billing engine sees them: rooms with their floor area, devices named on the account. */
    async billingAccounts(projectId: number): Promise<BillingAccount[]> {
      const accounts = await db.selectFrom('account').select(['id', 'tenant_id', 'name', 'phone', 'created_at', 'balance_fen'])
        .where('project_id', '=', projectId).where('status', '=', 'active').orderBy('id').execute();
      if (!accounts.length) return [];
      const ids = accounts.map((a) => a.id);
      const rooms: { account_id: number; id: number; name: string; floor_area: number | null }[] = [];
      const devices: { account_id: number; device_id: number }[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        rooms.push(...await db.selectFrom('account_room').innerJoin('area', 'area.id', 'account_room.room_id')
          .select(['account_room.account_id', 'area.id', 'area.name', 'area.floor_area']).where('account_room.account_id', 'in', chunk).where('account_room.active', '=', 1).execute());
        devices.push(...await db.selectFrom('account_device').select(['account_id', 'device_id']).where('account_id', 'in', chunk).execute());
      }
      const byAccount = <T extends { account_id: number }>(rows: T[]) => rows.reduce((m, r) => m.set(r.account_id, [...(m.get(r.account_id) ?? []), r]), new Map<number, T[]>());
      const roomsOf = byAccount(rooms);
      const devicesOf = byAccount(devices);
      return accounts.map((a) => ({
        id: a.id, tenantId: a.tenant_id, name: a.name, phone: a.phone, createdAt: Number(a.created_at), balanceFen: Number(a.balance_fen),
        rooms: (roomsOf.get(a.id) ?? []).map((r) => ({ id: r.id, name: r.name, area: r.floor_area ?? 0 })),
        deviceIds: (devicesOf.get(a.id) ?? []).map((d) => d.device_id),
      }));
    },

    /** One account for the prepaid loop's notices (any tenant: the event named it). */
    async brief(id: number) {
      const a = await db.selectFrom('account').select(['id', 'tenant_id', 'project_id', 'name', 'phone', 'status', 'balance_fen']).where('id', '=', id).executeTakeFirst();
      if (!a) return null;
      const rooms = await db.selectFrom('account_room').innerJoin('area', 'area.id', 'account_room.room_id').select(['area.id', 'area.name'])
        .where('account_room.account_id', '=', id).where('account_room.active', '=', 1).execute();
      const devices = await db.selectFrom('account_device').select('device_id').where('account_id', '=', id).execute();
      return { ...a, balance_fen: Number(a.balance_fen), rooms, deviceIds: devices.map((d) => d.device_id) };
    },

    async refund(actor: Actor, id: number, b: RefundBody, key: string): Promise<RefundResult> {
      return money(actor, key, 'refund', id, b, async (trx, events) => {
        const acc = await lockedAccount(trx, actor.scope, id);
        if (b.amountFen > Number(acc.balance_fen)) throw conflict(`退费金额超过余额（余额 ${fenToYuan(Number(acc.balance_fen))} 元）`);
        const s = await settingsOf(trx, acc.project_id);
        const needsApproval = b.amountFen > s.refundApprovalFen;
        const now = Date.now();
        const mover = moverOf(actor);
        const ref = await trx.insertInto('account_refund').values({
          tenant_id: acc.tenant_id, project_id: acc.project_id, account_id: acc.id, amount_fen: b.amountFen, reason: b.reason, status: needsApproval ? 'pending' : 'done',
          entry_id: null, requested_by: mover.id, requested_name: mover.name, decided_by: null, decided_name: null, decision_comment: null, created_at: now, decided_at: needsApproval ? null : now,
        }).returning('id').executeTakeFirstOrThrow();
        if (needsApproval) return { refundId: ref.id, status: 'pending' as RefundStatus, entryId: null, balanceFen: Number(acc.balance_fen) };
        const p = await applyRefund(trx, acc, ref.id, b.amountFen, b.reason, mover, events, key);
        await trx.updateTable('account_refund').set({ entry_id: p.entryId }).where('id', '=', ref.id).execute();
        return { refundId: ref.id, status: 'done' as RefundStatus, entryId: p.entryId, balanceFen: p.balanceFen };
      });
    },

    async decideRefund(actor: Actor, refundId: number, approve: boolean, comment?: string): Promise<RefundResult> {
      const events: BalanceEvent[] = [];
      const out = await db.transaction().execute(async (trx) => {
        const ref = await repo.refundsOf(trx, actor.scope).selectAll().where('id', '=', refundId).executeTakeFirst();
        if (!ref) throw notFound('退费申请');
        if (ref.status !== 'pending') throw conflict(`该退费已${ref.status === 'done' ? '退费' : '驳回'}，不能重复审批`);
        if (ref.requested_by === actor.user.id) throw forbidden('退费审批须由申请人以外的另一位用户进行');
        const mover = moverOf(actor);
        const now = Date.now();
        const won = await trx.updateTable('account_refund').set({ status: approve ? 'done' : 'rejected', decided_by: mover.id, decided_name: mover.name, decision_comment: comment || null, decided_at: now })
          .where('id', '=', ref.id).where('status', '=', 'pending').returning('id').executeTakeFirst();
        if (!won) throw conflict('该退费已被处理');
        const acc = await trx.selectFrom('account').selectAll().where('id', '=', ref.account_id).executeTakeFirstOrThrow();
        if (!approve) return { refundId: ref.id, status: 'rejected' as RefundStatus, entryId: null, balanceFen: Number(acc.balance_fen) };
        const p = await applyRefund(trx, acc, ref.id, Number(ref.amount_fen), ref.reason, mover, events, null);
        await trx.updateTable('account_refund').set({ entry_id: p.entryId }).where('id', '=', ref.id).execute();
        return { refundId: ref.id, status: 'done' as RefundStatus, entryId: p.entryId, balanceFen: p.balanceFen };
      });
      emit(events);
      return out;
    },

    async deposit(actor: Actor, action: DepositAction, b: DepositBody, key: string): Promise<MoneyMoveResult> {
      return money(actor, key, `deposit_${action}`, b.accountId, b, async (trx) => {
        const acc = await lockedAccount(trx, actor.scope, b.accountId);
        if (b.roomId && !(await trx.selectFrom('account_room').select('id').where('account_id', '=', acc.id).where('room_id', '=', b.roomId).where('active', '=', 1).executeTakeFirst())) {
          throw invalid('该房间不属于此账户', ['roomId']);
        }
        if (b.deviceId && !(await trx.selectFrom('account_device').select('id').where('account_id', '=', acc.id).where('device_id', '=', b.deviceId).executeTakeFirst())) {
          throw invalid('该设备不属于此账户', ['deviceId']);
        }
        const kind = action === 'collect' ? 'deposit_collect' : action === 'deduct' ? 'deposit_deduct' : 'deposit_refund';
        const p = await post(trx, acc, {
          kind, amountFen: action === 'collect' ? b.amountFen : -b.amountFen, reason: b.reason, noOverdraw: action !== 'collect', idemKey: key,
          causeType: b.roomId ? 'room' : b.deviceId ? 'device' : null, causeId: b.roomId ? String(b.roomId) : b.deviceId ? String(b.deviceId) : null,
        }, moverOf(actor));
        return { entryId: p.entryId, balanceFen: p.balanceFen, depositFen: p.depositFen };
      });
    },

    /** 押金充值: deposit collections (of a project, account, operator, time) and the total of the whole filter. */
    async depositCollects(actor: Actor, q: DepositCollectQuery): Promise<DepositCollectPage> {
      const query = depositCollectQuery(actor.scope, q);
      const [page, sum] = await Promise.all([
        paginate(query, q, (b) => b.orderBy('ledger_entry.id', 'desc')),
        query.clearSelect().select((eb) => eb.fn.sum<number>('ledger_entry.amount_fen').as('s')).executeTakeFirst(),
      ]);
      return { total: page.total, rows: page.rows.map(entryDto), totalFen: Number(sum?.s ?? 0) };
    },

    depositCollectRows: (actor: Actor, q: DepositCollectQuery) => byIdDescending(async (before, limit) => {
      let query = depositCollectQuery(actor.scope, q).orderBy('ledger_entry.id', 'desc').limit(limit);
      if (before !== null) query = query.where('ledger_entry.id', '<', before);
      return (await query.execute()).map(entryDto);
    }),

    /**
     * 押金直充: one deposit amount collected for each of several accounts (picked, or a user group's members). Each
     * account is its own money move under `${batchKey}.${accountId}` (client keys have no '.', so none collides): a
     * retried batch answers the accounts credited before from their stored results and credits only the others.
     */
    async depositDirect(actor: Actor, b: DepositDirectBody, batchKey: string): Promise<DepositDirectResult> {
      const p = await projects.project(actor.scope, b.projectId);
      const ids = new Set(b.accountIds ?? []);
      if (b.groupId !== undefined) {
        const g = await repo.groupsOf(db, actor.scope).select(['id', 'project_id']).where('id', '=', b.groupId).executeTakeFirst();
        if (!g || g.project_id !== p.id) throw invalid('用户组不存在或不属于该项目', ['groupId']);
        const members = await repo.accountsOf(db, actor.scope).select('id').where('group_id', '=', g.id).where('status', '=', 'active').orderBy('id').execute();
        for (const m of members) ids.add(m.id);
      }
      if (!ids.size) throw invalid('所选用户组没有在用的账户', ['groupId']);
      if (ids.size > 500) throw invalid('一次最多 500 个账户', ['accountIds']);
      const names = new Map((await repo.accountsOf(db, actor.scope).select(['id', 'name', 'project_id']).where('id', 'in', [...ids]).execute()).map((r) => [r.id, r]));
      const rows: DepositDirectRow[] = [];
      for (const id of ids) {
        const acc = names.get(id);
        if (!acc || acc.project_id !== p.id) {
          rows.push({ accountId: id, accountName: acc?.name ?? '', ok: false, replayed: false, entryId: null, depositFen: null, error: acc ? '账户不属于该项目' : '账户不存在' });
          continue;
        }
        const key = `${batchKey}.${id}`;
        const body = { amountFen: b.amountFen, reason: b.reason, batch: batchKey };
        try {
          const { result, replayed } = await once(db, actor.scope.tenantId, key, requestHash('deposit_direct', id, body), async (trx) => {
            const locked = await lockedAccount(trx, actor.scope, id);
            const posted = await post(trx, locked, {
              kind: 'deposit_collect', amountFen: b.amountFen, reason: b.reason, idemKey: key, causeType: DEPOSIT_DIRECT_CAUSE, causeId: batchKey,
            }, moverOf(actor));
            return { entryId: posted.entryId, balanceFen: posted.balanceFen, depositFen: posted.depositFen };
          });
          rows.push({ accountId: id, accountName: acc.name, ok: true, replayed, entryId: result.entryId, depositFen: result.depositFen, error: null });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          rows.push({ accountId: id, accountName: acc.name, ok: false, replayed: false, entryId: null, depositFen: null, error: err.message });
        }
      }
      const okRows = rows.filter((r) => r.ok);
      return { batchKey, okCount: okRows.length, failedCount: rows.length - okRows.length, creditedFen: okRows.length * b.amountFen, rows };
    },

    /** The 直充 batches as the ledger holds them (entries grouped by their batch key), newest first. */
    async depositBatches(actor: Actor, q: { pageNo: number; pageSize: number; projectId?: number; startTime?: number; endTime?: number }) {
      let query = repo.entriesOf(db, actor.scope).where('ledger_entry.cause_type', '=', DEPOSIT_DIRECT_CAUSE).where('ledger_entry.kind', '=', 'deposit_collect');
      if (q.projectId) query = query.where('ledger_entry.project_id', '=', q.projectId);
      if (q.startTime !== undefined) query = query.where('ledger_entry.created_at', '>=', q.startTime);
      if (q.endTime !== undefined) query = query.where('ledger_entry.created_at', '<', q.endTime);
      const grouped = query.clearSelect().select((eb) => [
        'ledger_entry.cause_id as batch_key',
        eb.fn.min<number>('ledger_entry.project_id').as('project_id'),
        eb.fn.countAll<number>().as('accounts'),
        eb.fn.sum<number>('ledger_entry.amount_fen').as('total_fen'),
        eb.fn.max<string>('ledger_entry.reason').as('reason'),
        eb.fn.max<string>('ledger_entry.actor_name').as('operator'),
        eb.fn.min<number>('ledger_entry.created_at').as('created_at'),
      ]).groupBy('ledger_entry.cause_id');
      const total = await db.selectFrom(grouped.as('g')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await db.selectFrom(grouped.as('g')).selectAll().orderBy('created_at', 'desc').orderBy('batch_key').limit(q.pageSize).offset((q.pageNo - 1) * q.pageSize).execute();
      return {
        total: Number(total?.n ?? 0),
        rows: rows.map((r): DepositBatchDto => ({
          batchKey: String(r.batch_key), projectId: Number(r.project_id), accounts: Number(r.accounts), totalFen: Number(r.total_fen), reason: r.reason, operator: r.operator,
          createdAt: Number(r.created_at),
        })),
      };
    },

    /** The entries of one 直充 batch (404 when the caller sees none of them). */
    async depositBatch(actor: Actor, batchKey: string): Promise<LedgerEntryDto[]> {
      const rows = await repo.entriesOf(db, actor.scope).where('ledger_entry.cause_type', '=', DEPOSIT_DIRECT_CAUSE).where('ledger_entry.cause_id', '=', batchKey)
        .orderBy('ledger_entry.id').limit(1000).execute();
      if (!rows.length) throw notFound('直充批次');
      return rows.map(entryDto);
    },

    async ledger(actor: Actor, id: number, q: LedgerQuery) {
      await accountRow(db, actor.scope, id);
      return service.chargeLog(actor, { ...q, accountId: id });
    },

    async chargeLog(actor: Actor, q: ChargeLogQuery) {
      let query = repo.entriesOf(db, actor.scope);
      if (q.accountId) query = query.where('ledger_entry.account_id', '=', q.accountId);
      if (q.projectId) query = query.where('ledger_entry.project_id', '=', q.projectId);
      if (q.book) query = query.where('ledger_entry.book', '=', q.book);
      if (q.kind) query = query.where('ledger_entry.kind', '=', q.kind);
      if (q.phone) query = query.where('account.phone', 'like', `%${q.phone}%`);
      if (q.startTime !== undefined) query = query.where('ledger_entry.created_at', '>=', q.startTime);
      if (q.endTime !== undefined) query = query.where('ledger_entry.created_at', '<', q.endTime);
      const page = await paginate(query, q, (b) => b.orderBy('ledger_entry.id', 'desc'));
      return { total: page.total, rows: page.rows.map(entryDto) };
    },

    receipt: (actor: Actor, entryId: number) => receipt(actor.scope, entryId),

    async refunds(actor: Actor, q: RefundQuery) {
      const page = await paginate(refundQuery(actor.scope, q), q, (b) => b.orderBy('account_refund.id', 'desc'));
      return { total: page.total, rows: page.rows.map(refundDto) };
    },

    async *refundRows(actor: Actor, q: RefundQuery) {
      let before: number | null = null;
      for (;;) {
        let query = refundQuery(actor.scope, q).orderBy('account_refund.id', 'desc').limit(500);
        if (before !== null) query = query.where('account_refund.id', '<', before);
        const rows = await query.execute();
        yield* rows.map(refundDto);
        if (rows.length < 500) return;
        before = rows[rows.length - 1].id;
      }
    },

    async settings(actor: Actor, projectId: number): Promise<MoneySettingsDto> {
      const p = await projects.project(actor.scope, projectId);
      return { projectId: p.id, ...(await settingsOf(db, p.id)) };
    },

    async saveSettings(actor: Actor, projectId: number, b: MoneySettingsBody): Promise<MoneySettingsDto> {
      const p = await projects.project(actor.scope, projectId);
      const values = {
        topup_max_fen: b.topupMaxFen, balance_max_fen: b.balanceMaxFen, refund_approval_fen: b.refundApprovalFen, warning1_fen: b.warning1Fen,
        warning2_fen: b.warning2Fen, overdraft_fen: b.overdraftFen, updated_at: Date.now(),
      };
      await db.insertInto('money_setting').values({ tenant_id: p.tenant_id, project_id: p.id, ...values })
        .onConflict((oc) => oc.column('project_id').doUpdateSet(values)).execute();
      return service.settings(actor, projectId);
    },

    async leaveCheck(actor: Actor, id: number): Promise<SettlementPreview> {
      const acc = await accountRow(db, actor.scope, id);
      const pending = await db.selectFrom('payment_order').selectAll().where('account_id', '=', id).where('status', '=', 'created').orderBy('id').execute();
      const refunds = await db.selectFrom('account_refund').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', id).where('status', '=', 'pending').executeTakeFirst();
      const owed = await unbilledOf(acc);
      const now = await accountRow(db, actor.scope, id);
      return {
        accountId: now.id, balanceFen: Number(now.balance_fen), depositFen: Number(now.deposit_fen), unbilledFen: owed.unbilledFen,
        unbilledNote: owed.note,
        pendingOrders: pending.map((o) => orderDto(o, acc.name)), pendingRefunds: Number(refunds?.n ?? 0),
        netFen: Number(now.balance_fen) - owed.unbilledFen + Number(now.deposit_fen),
      };
    },

    async leaveClean(actor: Actor, id: number, b: SettlementBody, key: string): Promise<SettlementResult> {
      // read before the transaction: the device core reads through its own connection (SQLite has one; inside the
      // transaction that read would wait for the transaction — and the transaction for it)
      const owed = await unbilledOf(await accountRow(db, actor.scope, id));
      const deviceIds = (await repo.devicesOf(db, [id])).get(id) ?? [];
      const readings = deviceIds.length && deps.readings
        ? (await deps.readings(deviceIds)).map((r) => ({ deviceId: r.device_id, fieldCode: r.field_code, value: r.num ?? r.txt, ts: r.ts }))
        : [];
      let settledEntry: number | null = null;
      const result = await money(actor, key, 'settle', id, b, async (trx, events) => {
        const acc = await lockedAccount(trx, actor.scope, id);
        const deposit = Number(acc.deposit_fen);
        const unbilled = owed.unbilledFen;
        let balance = Number(acc.balance_fen);
        if (b.expectedNetFen !== undefined && b.expectedNetFen !== balance - unbilled + deposit) {
          throw conflict('账户金额已变化，请刷新结算预览后再确认');
        }
        if (b.depositDeductFen > deposit) throw invalid(`押金扣除不能超过押金 ${fenToYuan(deposit)} 元`, ['depositDeductFen']);
        const pendingRefund = await trx.selectFrom('account_refund').select('id').where('account_id', '=', id).where('status', '=', 'pending').executeTakeFirst();
        if (pendingRefund) throw conflict('该账户有待审批的退费，请先审批或驳回');
        const mover = moverOf(actor);
        const now = Date.now();
        const entryIds: number[] = [];
        let deducted = b.depositDeductFen;
        let depositLeft = deposit - deducted;
        const cause = { causeType: 'settlement', causeId: null as string | null };
        const settlement = await trx.insertInto('account_settlement').values({
          tenant_id: acc.tenant_id, project_id: acc.project_id, account_id: acc.id, balance_fen: balance, deposit_fen: deposit, deducted_fen: 0, unbilled_fen: unbilled,
          net_fen: 0, reason: b.reason, readings: JSON.stringify(readings), actor_name: mover.name, created_at: now,
        }).returning('id').executeTakeFirstOrThrow();
        cause.causeId = String(settlement.id);
        // postpaid use not yet paid is collected first, from the balance (and, when short, from the deposit below)
        if (unbilled > 0) {
          const p = await post(trx, acc, { kind: 'charge', amountFen: -unbilled, reason: `${b.reason}：结清未出账及未缴费用`, ...cause }, mover, now);
          events.push(...p.events);
          entryIds.push(p.entryId);
          settledEntry = p.entryId;
          balance -= unbilled;
        }
        if (b.depositDeductFen > 0) {
          entryIds.push((await post(trx, acc, { kind: 'deposit_deduct', amountFen: -b.depositDeductFen, reason: `${b.reason}：扣除押金`, noOverdraw: true, ...cause }, mover, now)).entryId);
        }
        // arrears are paid from what is left of the deposit
        if (balance < 0) {
          const arrears = -balance;
          if (arrears > depositLeft) throw conflict(`账户欠费 ${fenToYuan(arrears)} 元，押金不足以抵扣，请先充值`);
          entryIds.push((await post(trx, acc, { kind: 'deposit_deduct', amountFen: -arrears, reason: `${b.reason}：押金抵扣欠费`, noOverdraw: true, ...cause }, mover, now)).entryId);
          const p = await post(trx, acc, { kind: 'settlement', amountFen: arrears, reason: `${b.reason}：押金抵扣欠费`, ...cause }, mover, now);
          events.push(...p.events);
          entryIds.push(p.entryId);
          deducted += arrears;
          depositLeft -= arrears;
        }
        const refundedBalance = Math.max(0, balance);
        if (refundedBalance > 0) {
          const p = await post(trx, acc, { kind: 'settlement', amountFen: -refundedBalance, reason: `${b.reason}：退还余额`, noOverdraw: true, ...cause }, mover, now);
          entryIds.push(p.entryId);
        }
        if (depositLeft > 0) {
          entryIds.push((await post(trx, acc, { kind: 'deposit_refund', amountFen: -depositLeft, reason: `${b.reason}：退还押金`, noOverdraw: true, ...cause }, mover, now)).entryId);
        }
        await trx.updateTable('account_settlement').set({ deducted_fen: deducted, net_fen: refundedBalance + depositLeft }).where('id', '=', settlement.id).execute();
        await trx.updateTable('payment_order').set({ status: 'closed', closed_at: now }).where('account_id', '=', id).where('status', '=', 'created').execute();
        await trx.updateTable('account_room').set({ active: 0, released_at: now }).where('account_id', '=', id).where('active', '=', 1).execute();
        await trx.updateTable('account').set({ status: 'closed', closed_at: now }).where('id', '=', id).execute();
        return {
          accountId: id, settlementId: settlement.id, entryIds, refundedBalanceFen: refundedBalance, refundedDepositFen: depositLeft, deductedDepositFen: deducted,
          status: 'closed' as AccountStatus, readings,
        };
      });
      if (settledEntry !== null) await unbilledSource?.settled(id, settledEntry);
      return result;
    },

    async reconcile(actor: Actor, projectId?: number): Promise<ReconcileResult> {
      if (projectId) await projects.project(actor.scope, projectId);
      let accQ = repo.accountsOf(db, actor.scope).select(['id', 'name', 'balance_fen', 'deposit_fen']);
      if (projectId) accQ = accQ.where('project_id', '=', projectId);
      const accounts = await accQ.execute();
      const sums = await repo.entrySums(db, projectId ? accounts.map((a) => a.id) : null, actor.scope);
      const rows: ReconcileRow[] = [];
      for (const a of accounts) {
        for (const book of ['balance', 'deposit'] as const) {
          const cached = Number(book === 'balance' ? a.balance_fen : a.deposit_fen);
          const sum = sums.get(`${a.id}:${book}`) ?? 0;
          if (cached !== sum) rows.push({ issue: book === 'balance' ? 'balance_mismatch' : 'deposit_mismatch', accountId: a.id, accountName: a.name, orderId: null, orderNo: null, entryId: null, expectedFen: sum, actualFen: cached });
        }
      }
      let ordQ = repo.ordersOf(db, actor.scope).selectAll();
      if (projectId) ordQ = ordQ.where('project_id', '=', projectId);
      const orders = await ordQ.execute();
      const names = new Map(accounts.map((a) => [a.id, a.name]));
      const onlineEntries = await repo.entriesOf(db, actor.scope).where('ledger_entry.cause_type', '=', 'order').where((eb) => (projectId ? eb('ledger_entry.project_id', '=', projectId) : eb.lit(true))).execute();
      const entryByOrder = new Map(onlineEntries.map((e) => [e.cause_id, e]));
      for (const o of orders) {
        if (o.status !== 'paid') continue;
        const e = entryByOrder.get(o.order_no);
        if (!e || Number(e.amount_fen) !== Number(o.amount_fen)) {
          rows.push({ issue: 'paid_without_entry', accountId: o.account_id, accountName: names.get(o.account_id) ?? null, orderId: o.id, orderNo: o.order_no, entryId: e?.id ?? null, expectedFen: Number(o.amount_fen), actualFen: e ? Number(e.amount_fen) : 0 });
        }
      }
      const paid = new Map(orders.filter((o) => o.status === 'paid').map((o) => [o.order_no, o]));
      for (const e of onlineEntries) {
        if (!paid.has(e.cause_id ?? '')) {
          rows.push({ issue: 'entry_without_paid_order', accountId: e.account_id, accountName: e.account_name, orderId: null, orderNo: e.cause_id, entryId: e.id, expectedFen: 0, actualFen: Number(e.amount_fen) });
        }
      }
      // the day roll-up the money reports read must equal the entries, key by key
      for (const m of await repo.dayRollupMismatches(db, actor.scope, projectId)) {
        rows.push({ issue: 'day_rollup_mismatch', accountId: m.accountId, accountName: names.get(m.accountId) ?? null, orderId: null, orderNo: null, entryId: null, expectedFen: m.expectedFen, actualFen: m.actualFen });
      }
      return { checkedAccounts: accounts.length, checkedOrders: orders.length, rows, at: Date.now() };
    },

    async balanceEvents(actor: Actor, q: { pageNo: number; pageSize: number; projectId?: number; accountId?: number; kind?: BalanceEventKind }) {
      let query = repo.eventsOf(db, actor.scope).innerJoin('account', 'account.id', 'balance_event.account_id').selectAll('balance_event').select('account.name as account_name');
      if (q.projectId) query = query.where('balance_event.project_id', '=', q.projectId);
      if (q.accountId) query = query.where('balance_event.account_id', '=', q.accountId);
      if (q.kind) query = query.where('balance_event.kind', '=', q.kind);
      const page = await paginate(query, q, (b) => b.orderBy('balance_event.id', 'desc'));
      return {
        total: page.total,
        rows: page.rows.map((e): BalanceEventDto => ({ id: e.id, accountId: e.account_id, accountName: e.account_name, projectId: e.project_id, kind: e.kind as BalanceEventKind, balanceFen: Number(e.balance_fen), entryId: e.entry_id, createdAt: e.created_at })),
      };
    },

    // ---------------------------------------------------------- groups

    async groups(actor: Actor, q: { pageNo: number; pageSize: number; projectId?: number; name?: string }) {
      let query = repo.groupsOf(db, actor.scope).selectAll();
      if (q.projectId) query = query.where('project_id', '=', q.projectId);
      if (q.name) query = query.where('name', 'like', `%${q.name}%`);
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      const ids = page.rows.map((g) => g.id);
      const members = ids.length
        ? await db.selectFrom('account').select(['id', 'name', 'group_id', 'balance_fen']).where('group_id', 'in', ids).where('status', '=', 'active').execute()
        : [];
      return {
        total: page.total,
        rows: page.rows.map((g): AccountGroupDto => {
          const mine = members.filter((m) => m.group_id === g.id);
          return {
            id: g.id, projectId: g.project_id, name: g.name, managerAccountId: g.manager_account_id,
            managerName: g.manager_account_id ? mine.find((m) => m.id === g.manager_account_id)?.name ?? null : null, memberCount: mine.length,
            balanceFen: mine.reduce((s, m) => s + Number(m.balance_fen), 0), remark: g.remark, createdAt: g.created_at,
          };
        }),
      };
    },

    async saveGroup(actor: Actor, id: number | null, b: AccountGroupBody) {
      const p = await projects.project(actor.scope, b.projectId);
      if (b.managerAccountId) {
        const m = await repo.accountsOf(db, actor.scope).select(['id', 'project_id', 'group_id']).where('id', '=', b.managerAccountId).executeTakeFirst();
        if (!m || m.project_id !== p.id) throw invalid('组长账户不存在或不属于该项目', ['managerAccountId']);
        if (id !== null && m.group_id !== id) throw invalid('组长须是本组成员', ['managerAccountId']);
      }
      const values = { name: b.name, project_id: p.id, manager_account_id: b.managerAccountId ?? null, remark: b.remark || null };
      if (id === null) {
        return db.transaction().execute(async (trx) => {
          const g = await trx.insertInto('account_group').values({ tenant_id: p.tenant_id, created_at: Date.now(), ...values }).returning('id').executeTakeFirstOrThrow();
          if (b.managerAccountId) await trx.updateTable('account').set({ group_id: g.id }).where('id', '=', b.managerAccountId).execute();
          return { id: g.id };
        });
      }
      const g = await repo.groupsOf(db, actor.scope).select(['id', 'project_id']).where('id', '=', id).executeTakeFirst();
      if (!g) throw notFound('用户组');
      if (g.project_id !== p.id) throw invalid('用户组不能换项目', ['projectId']);
      await db.updateTable('account_group').set(values).where('id', '=', id).execute();
      return { id };
    },

    async setMembers(actor: Actor, id: number, accountIds: number[]) {
      const g = await repo.groupsOf(db, actor.scope).selectAll().where('id', '=', id).executeTakeFirst();
      if (!g) throw notFound('用户组');
      const ids = [...new Set(accountIds)];
      const found = ids.length ? await repo.accountsOf(db, actor.scope).select(['id', 'project_id']).where('id', 'in', ids).execute() : [];
      const bad = ids.find((a) => found.find((f) => f.id === a)?.project_id !== g.project_id);
      if (bad) throw invalid(`账户 ${bad} 不存在或不属于该项目`, ['accountIds']);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('account').set({ group_id: null }).where('group_id', '=', id).execute();
        if (ids.length) await trx.updateTable('account').set({ group_id: id }).where('id', 'in', ids).execute();
        if (g.manager_account_id && !ids.includes(g.manager_account_id)) await trx.updateTable('account_group').set({ manager_account_id: null }).where('id', '=', id).execute();
      });
      return { id, members: ids.length };
    },

    async removeGroups(actor: Actor, ids: number[]) {
      const found = await repo.groupsOf(db, actor.scope).select('id').where('id', 'in', ids).execute();
      if (found.length !== new Set(ids).size) throw notFound('用户组');
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('account').set({ group_id: null }).where('group_id', 'in', ids).execute();
        await trx.deleteFrom('account_group').where('id', 'in', ids).execute();
      });
      return { removed: ids.length };
    },

    // ---------------------------------------------------------- payment accounts and orders

    async paymentAccount(actor: Actor, projectId: number): Promise<PaymentAccountDto | null> {
      const p = await projects.project(actor.scope, projectId);
      const row = await db.selectFrom('payment_account').selectAll().where('project_id', '=', p.id).executeTakeFirst();
      if (!row) return null;
      return {
        projectId: row.project_id, provider: row.provider as PaymentProviderKind, mchId: row.mch_id, appId: row.app_id, apiKeyMasked: `****${row.api_key_tail}`,
        hasPrivateKey: !!row.private_key_enc, certSerialNo: row.cert_serial_no, hasPlatformPublicKey: !!row.platform_public_key, notifyUrl: row.notify_url, updatedAt: row.updated_at,
      };
    },

    async savePaymentAccount(actor: Actor, b: PaymentAccountBody) {
      const p = await projects.project(actor.scope, b.projectId);
      if (b.provider === 'wechat') {
        if (Buffer.byteLength(b.apiKey, 'utf8') !== 32) throw invalid('微信支付 APIv3 密钥须为 32 个字符', ['apiKey']);
        if (!b.platformPublicKey) throw invalid('请填写微信支付平台公钥（用于校验支付通知）', ['platformPublicKey']);
        try {
          crypto.createPublicKey(b.platformPublicKey);
        } catch {
          throw invalid('平台公钥不是有效的 PEM 公钥或证书', ['platformPublicKey']);
        }
        if (b.privateKey) {
          try {
            crypto.createPrivateKey(b.privateKey);
          } catch {
            throw invalid('商户私钥不是有效的 PEM 私钥', ['privateKey']);
          }
        }
      }
      const cipher = await cipherP;
      const values = {
        provider: b.provider, mch_id: b.mchId, app_id: b.appId, api_key_enc: cipher.seal(b.apiKey), api_key_tail: b.apiKey.slice(-4),
        private_key_enc: b.privateKey ? cipher.seal(b.privateKey) : null, cert_serial_no: b.certSerialNo || null, platform_public_key: b.platformPublicKey || null,
        notify_url: b.notifyUrl || null, updated_at: Date.now(),
      };
      await db.insertInto('payment_account').values({ tenant_id: p.tenant_id, project_id: p.id, ...values })
        .onConflict((oc) => oc.column('project_id').doUpdateSet(values)).execute();
      return service.paymentAccount(actor, p.id);
    },

    async removePaymentAccount(actor: Actor, projectId: number) {
      const p = await projects.project(actor.scope, projectId);
      const r = await db.deleteFrom('payment_account').where('project_id', '=', p.id).executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw notFound('商户支付账户');
      return { projectId: p.id };
    },

    async createOrder(actor: Actor, id: number, amountFen: number, key: string): Promise<OrderDto> {
      const acc = await accountRow(db, actor.scope, id);
      const cfg = await providerConfig(acc.project_id);
      const s = await settingsOf(db, acc.project_id);
      if (s.topupMaxFen !== null && amountFen > s.topupMaxFen) throw invalid(`单次充值不能超过 ${fenToYuan(s.topupMaxFen)} 元`, ['amountFen']);
      const orderNo = `K${ymd(Date.now())}${crypto.randomBytes(8).toString('hex').toUpperCase()}`;
      // the provider call happens before the key is taken: a retry with the same key answers the first order
      const qr = await PROVIDERS[cfg.provider].createOrder(cfg, { orderNo, amountFen, description: `${acc.name} 预付充值` });
      const order = await money(actor, key, 'order', id, { amountFen }, async (trx) => {
        const locked = await lockedAccount(trx, actor.scope, id);
        const row = await trx.insertInto('payment_order').values({
          tenant_id: locked.tenant_id, project_id: locked.project_id, account_id: locked.id, order_no: orderNo, provider: cfg.provider, amount_fen: amountFen, status: 'created',
          qr_payload: qr, provider_txn_id: null, entry_id: null, created_by: moverOf(actor).name, created_at: Date.now(), paid_at: null, closed_at: null,
        }).returningAll().executeTakeFirstOrThrow();
        return { id: row.id };
      });
      const row = await db.selectFrom('payment_order').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
      return orderDto(row, acc.name);
    },

    async orders(actor: Actor, q: OrderQuery) {
      let query = repo.ordersOf(db, actor.scope).selectAll();
      if (q.projectId) query = query.where('project_id', '=', q.projectId);
      if (q.accountId) query = query.where('account_id', '=', q.accountId);
      if (q.status) query = query.where('status', '=', q.status);
      if (q.orderNo) query = query.where('order_no', 'like', `%${q.orderNo}%`);
      if (q.startTime !== undefined) query = query.where('created_at', '>=', q.startTime);
      if (q.endTime !== undefined) query = query.where('created_at', '<', q.endTime);
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      const ids = [...new Set(page.rows.map((o) => o.account_id))];
      const names = new Map(ids.length ? (await db.selectFrom('account').select(['id', 'name']).where('id', 'in', ids).execute()).map((a) => [a.id, a.name]) : []);
      return { total: page.total, rows: page.rows.map((o) => orderDto(o, names.get(o.account_id) ?? '')) };
    },

    async closeOrder(actor: Actor, orderId: number) {
      const o = await repo.ordersOf(db, actor.scope).selectAll().where('id', '=', orderId).executeTakeFirst();
      if (!o) throw notFound('订单');
      const won = await db.updateTable('payment_order').set({ status: 'closed', closed_at: Date.now() }).where('id', '=', o.id).where('status', '=', 'created').returning('id').executeTakeFirst();
      if (!won) throw conflict('只有待支付的订单可以关闭');
      return { id: o.id, status: 'closed' };
    },

    /** The sandbox "pays" an order: it signs a notification with the project's key and delivers it to `deliver` (the real callback endpoint). */
    async sandboxPay(actor: Actor, orderNo: string, deliver: (projectId: number, n: { body: string; headers: Record<string, string> }) => Promise<unknown>) {
      const o = await repo.ordersOf(db, actor.scope).selectAll().where('order_no', '=', orderNo).executeTakeFirst();
      if (!o) throw notFound('订单');
      if (o.provider !== 'sandbox') throw invalid('只有沙箱订单可以模拟支付');
      const cfg = await providerConfig(o.project_id);
      const n = sandboxNotification(cfg.apiKey, { orderNo: o.order_no, txnId: `SBX${o.id}${Date.now()}`, amountFen: Number(o.amount_fen), paidAt: Date.now() });
      return deliver(o.project_id, n);
    },

    /** A provider's callback: verified against the project's configuration, then credited once. */
    async notify(projectId: number, provider: string, headers: Record<string, unknown>, body: string) {
      const project = await db.selectFrom('area').select(['id', 'tenant_id']).where('id', '=', projectId).where('level', '=', 'project').executeTakeFirst();
      if (!project) throw notFound('项目');
      const cfg = await providerConfig(projectId);
      if (cfg.provider !== provider) throw new AppError(ResultCode.FORBIDDEN, '支付方式与项目配置不符');
      let notice: PaidNotice;
      try {
        notice = PROVIDERS[cfg.provider].verify(cfg, headers, body);
      } catch (err) {
        if (err instanceof SignatureError) throw new AppError(ResultCode.FORBIDDEN, err.message);
        if (err instanceof SyntaxError) throw invalid('通知内容不是有效的 JSON');
        throw err;
      }
      return creditOrder(project.tenant_id, projectId, notice);
    },
  };

  function refundQuery(scope: Scope, q: RefundQuery) {
    let query = repo.refundsOf(db, scope).innerJoin('account', 'account.id', 'account_refund.account_id').selectAll('account_refund').select(['account.name as account_name', 'account.phone as phone']);
    if (q.projectId) query = query.where('account_refund.project_id', '=', q.projectId);
    if (q.userId) query = query.where('account_refund.account_id', '=', q.userId);
    if (q.phone) query = query.where('account.phone', 'like', `%${q.phone}%`);
    if (q.status) query = query.where('account_refund.status', '=', q.status);
    if (q.startDate) query = query.where('account_refund.created_at', '>=', dayStart(q.startDate));
    if (q.endDate) query = query.where('account_refund.created_at', '<', dayStart(q.endDate) + 86_400_000);
    return query;
  }
  function refundDto(r: repo.RefundJoined): RefundDto {
    return {
      id: r.id, accountId: r.account_id, accountName: r.account_name, phone: maskPhone(r.phone), projectId: r.project_id, amountFen: Number(r.amount_fen), reason: r.reason,
      status: r.status as RefundStatus, entryId: r.entry_id, requestedBy: r.requested_name, decidedBy: r.decided_name, decisionComment: r.decision_comment,
      createdAt: r.created_at, decidedAt: r.decided_at,
    };
  }

  return service;
}

export type AccountService = ReturnType<typeof createAccountService>;
