import { z } from 'zod';
import { decimal, pageQuery } from './common.ts';
import { positiveIdOf } from './device-admin.ts';

/**
 * Accounts and money (issue 11): the people billed (residents and companies), their prepaid balance and deposit on
 * one append-only ledger in integer fen, top-ups, refunds (with approval above a per-project amount), deposits,
 * move-out settlement, payment accounts per project, online orders and their reconciliation against the ledger.
 *
 * Amounts are integer fen everywhere (`…Fen`); times are ms epoch; dates are `YYYY-MM-DD` (Asia/Shanghai).
 * Money-changing requests carry the header `Idempotency-Key` (IDEMPOTENCY_HEADER): the same key never pays twice.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** A key the web client generates per click (a UUID fits); 8–64 characters of letters, digits, `-` and `_`. */
export const idempotencyKey = z.string({ error: '缺少幂等键（请求头 Idempotency-Key）' })
  .trim().regex(/^[A-Za-z0-9_-]{8,64}$/, '幂等键须为 8–64 位字母、数字、- 或 _');

// ---------------------------------------------------------------- labels

export const ACCOUNT_KINDS = { resident: '住户', company: '企业' } as const;
export type AccountKind = keyof typeof ACCOUNT_KINDS;

export const ACCOUNT_STATUS = { active: '在用', closed: '已退户' } as const;
export type AccountStatus = keyof typeof ACCOUNT_STATUS;

export const TOPUP_METHODS = { cash: '现金', bank: '银行转账', online: '在线支付' } as const;
export type TopupMethod = keyof typeof TOPUP_METHODS;

/** The two books of the one ledger: the prepaid balance and the deposit. */
export const LEDGER_BOOKS = { balance: '预付余额', deposit: '押金' } as const;
export type LedgerBook = keyof typeof LEDGER_BOOKS;

/** Ledger entry kinds (amountFen is signed: + money in, − money out of that book). */
export const LEDGER_KINDS = {
  topup: '充值',
  charge: '扣费',
  refund: '退费',
  deposit_collect: '收取押金',
  deposit_deduct: '扣除押金',
  deposit_refund: '退还押金',
  settlement: '退户结算',
} as const;
export type LedgerKind = keyof typeof LEDGER_KINDS;
/** Which book each kind writes. */
export const LEDGER_KIND_BOOK: Record<LedgerKind, LedgerBook> = {
  topup: 'balance', charge: 'balance', refund: 'balance', settlement: 'balance',
  deposit_collect: 'deposit', deposit_deduct: 'deposit', deposit_refund: 'deposit',
};

export const REFUND_STATUS = { pending: '待审批', done: '已退费', rejected: '已驳回' } as const;
export type RefundStatus = keyof typeof REFUND_STATUS;

export const ORDER_STATUS = { created: '待支付', paid: '已支付', closed: '已关闭', refunded: '已退款' } as const;
export type OrderStatus = keyof typeof ORDER_STATUS;

export const PAYMENT_PROVIDERS = { sandbox: '沙箱支付（演示与测试）', wechat: '微信支付 API v3（Native 扫码）' } as const;
export type PaymentProviderKind = keyof typeof PAYMENT_PROVIDERS;

/** Threshold events the billing engine's prepaid loop acts on (recorded here; no device commands yet). */
export const BALANCE_EVENT_KINDS = { warning1: '余额预警一', warning2: '余额预警二', cutoff: '欠费断开', reconnect: '充值恢复' } as const;
export type BalanceEventKind = keyof typeof BALANCE_EVENT_KINDS;

export const RECONCILE_ISSUES = {
  balance_mismatch: '余额与流水合计不符',
  deposit_mismatch: '押金与流水合计不符',
  paid_without_entry: '已支付订单没有入账流水',
  entry_without_paid_order: '在线充值流水没有已支付订单',
  day_rollup_mismatch: '日汇总与流水不符',
} as const;
export type ReconcileIssue = keyof typeof RECONCILE_ISSUES;

// ---------------------------------------------------------------- money

/** Largest single amount the contracts accept: 1 亿元. */
export const MAX_AMOUNT_FEN = 10_000_000_000;
export const amountFen = (label = '金额') =>
  decimal(z.number({ error: `${label}必须是数字（单位：分）` }).int(`${label}必须是整数分`).positive(`${label}必须大于 0`).max(MAX_AMOUNT_FEN, `${label}最多 1 亿元`));

/** "123.45" from fen (the 元 amount with two decimals; negative keeps its sign). */
export function fenToYuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const a = Math.abs(Math.trunc(fen));
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** fen from "123.45" / "123.4" / "123" (null when it is not a plain 元 amount with at most two decimals). */
export function yuanToFen(yuan: string): number | null {
  const m = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/.exec(yuan.trim());
  if (!m) return null;
  const fen = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -fen : fen;
}

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const SMALL_UNITS = ['', '拾', '佰', '仟'];
const BIG_UNITS = ['', '万', '亿', '万亿'];

function section(n: number): string {
  let out = '';
  let zero = false;
  for (let i = 3; i >= 0; i--) {
    const d = Math.floor(n / 10 ** i) % 10;
    if (d === 0) {
      if (out) zero = true;
    } else {
      if (zero) out += '零';
      zero = false;
      out += DIGITS[d] + SMALL_UNITS[i];
    }
  }
  return out;
}

/**
 * The 大写 amount of a receipt (Chinese financial numerals), from integer fen:
 * 10000 → 壹佰元整 · 2050 → 贰拾元伍角 · 100001 → 壹仟元零壹分 · 0 → 零元整 · 5 → 伍分 · 100010000 → 壹佰万零壹佰元整.
 */
export function amountInWords(fen: number): string {
  if (!Number.isSafeInteger(fen)) throw new RangeError('金额必须是整数分');
  if (fen < 0) return `负${amountInWords(-fen)}`;
  const yuan = Math.floor(fen / 100);
  const jiao = Math.floor(fen / 10) % 10;
  const cents = fen % 10;
  let int = '';
  if (yuan > 0) {
    const groups: number[] = [];
    for (let y = yuan; y > 0; y = Math.floor(y / 10000)) groups.push(y % 10000);
    let gap = false;
    for (let k = groups.length - 1; k >= 0; k--) {
      const g = groups[k];
      if (g === 0) {
        if (int) gap = true;
        continue;
      }
      if (int && (gap || g < 1000)) int += '零';
      gap = false;
      int += section(g) + BIG_UNITS[k];
    }
    int += '元';
  }
  if (jiao === 0 && cents === 0) return `${int || '零元'}整`;
  let dec = '';
  if (jiao > 0) dec += `${DIGITS[jiao]}角`;
  else if (int) dec += '零';
  if (cents > 0) dec += `${DIGITS[cents]}分`;
  return int + dec;
}

// ---------------------------------------------------------------- accounts

export const accountPhone = z.string({ error: '请输入手机号' }).trim().regex(/^1[3-9]\d{9}$/, '手机号格式不正确（11 位手机号）');
/** Mainland resident ID (18 characters, last may be X) or a company's unified social credit code (18 characters). */
export const idNumber = z.string().trim().toUpperCase().regex(/^$|^[0-9A-Z]{18}$/, '证件号码须为 18 位（身份证号或统一社会信用代码）');
const dateText = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD');
const roomIds = z.array(positiveIdOf('房间编号'), { error: '房间必须是列表' }).max(200, '一个账户最多 200 个房间');
const deviceIds = z.array(positiveIdOf('设备编号'), { error: '设备必须是列表' }).max(500, '一个账户最多 500 台设备');
const name = z.string({ error: '请输入户名' }).trim().min(1, '请输入户名').max(60, '户名最多 60 个字符');
const reason = (label = '原因') => z.string({ error: `请填写${label}` }).trim().min(1, `请填写${label}`).max(200, `${label}最多 200 个字符`);

/** POST /api/v1/account (contract: `{ projectId, name, phone, roomIds }` → data.id). */
export const accountCreate = z.object({
  projectId: positiveIdOf('项目编号'),
  name,
  phone: accountPhone,
  roomIds,
  kind: z.enum(['resident', 'company'], { error: '账户类型只能是住户或企业' }).default('resident'),
  idNumber: idNumber.optional(),
  deviceIds: deviceIds.optional(),
  /** move-in date YYYY-MM-DD */
  moveInDate: dateText.optional(),
  groupId: positiveIdOf('用户组编号').nullable().optional(),
  remark: z.string().trim().max(200, '备注最多 200 个字符').optional(),
});
export type AccountCreate = z.infer<typeof accountCreate>;

/** PUT /api/v1/account/{id}: everything but the project (rooms and devices are replaced when given). */
export const accountUpdate = accountCreate.omit({ projectId: true, kind: true }).partial()
  .extend({ kind: z.enum(['resident', 'company'], { error: '账户类型只能是住户或企业' }).optional() });
export type AccountUpdate = z.infer<typeof accountUpdate>;

/** PUT /api/v1/account/{id}/phone (the second service's "user phone update"). */
export const accountPhoneUpdate = z.object({ phone: accountPhone });

export const accountQuery = pageQuery.extend({
  projectId: decimal(z.number().int().positive()).optional(),
  /** name, phone or room name contains */
  keyword: z.string().trim().max(60).optional(),
  status: z.enum(['active', 'closed']).optional(),
  groupId: decimal(z.number().int().positive()).optional(),
});
export type AccountQuery = z.infer<typeof accountQuery>;

export interface AccountRoomDto { id: number; name: string; path: string }
export interface AccountDeviceDto { id: number; name: string; code: string }

/** GET /api/v1/account/{id} → data (contract: balanceFen, depositFen, status). Lists carry the same shape. */
export interface AccountDto {
  id: number;
  projectId: number;
  projectName: string;
  kind: AccountKind;
  name: string;
  /** masked in lists (138****8000); whole in the single-account read */
  phone: string;
  /** masked (1101**********1234) unless the caller holds userRegister_n:idnumber */
  idNumber: string | null;
  moveInDate: string | null;
  status: AccountStatus;
  balanceFen: number;
  depositFen: number;
  groupId: number | null;
  groupName: string | null;
  rooms: AccountRoomDto[];
  devices: AccountDeviceDto[];
  remark: string | null;
  createdAt: number;
  closedAt: number | null;
}

// ---------------------------------------------------------------- groups (userGroup, groupmanagers)

export const accountGroupBody = z.object({
  projectId: positiveIdOf('项目编号'),
  name: z.string({ error: '请输入组名' }).trim().min(1, '请输入组名').max(60, '组名最多 60 个字符'),
  /** the group manager: an account of the group who pays for it (groupmanagers) */
  managerAccountId: positiveIdOf('组长账户编号').nullable().optional(),
  remark: z.string().trim().max(200, '备注最多 200 个字符').optional(),
});
export type AccountGroupBody = z.infer<typeof accountGroupBody>;
export const accountGroupQuery = pageQuery.extend({ projectId: decimal(z.number().int().positive()).optional(), name: z.string().trim().max(60).optional() });
/** POST /api/v1/account/group/{id}/members { accountIds } (replaces the members). */
export const accountGroupMembers = z.object({ accountIds: z.array(positiveIdOf('账户编号')).max(1000, '一个组最多 1000 个账户') });
export interface AccountGroupDto {
  id: number;
  projectId: number;
  name: string;
  managerAccountId: number | null;
  managerName: string | null;
  memberCount: number;
  balanceFen: number;
  remark: string | null;
  createdAt: number;
}

// ---------------------------------------------------------------- money moves

/** POST /api/v1/account/{id}/topup (header Idempotency-Key) → TopupResult. method online is for orders paid through a provider. */
export const topupBody = z.object({
  amountFen: amountFen('充值金额'),
  method: z.enum(['cash', 'bank', 'online'], { error: '充值方式只能是现金、银行转账或在线支付' }),
  remark: z.string().trim().max(200, '备注最多 200 个字符').optional(),
});
export type TopupBody = z.infer<typeof topupBody>;
export interface TopupResult {
  entryId: number;
  balanceFen: number;
  receipt: ReceiptDto;
}

/** POST /api/v1/account/{id}/refund (header Idempotency-Key) → RefundResult (pending when above the approval amount). */
export const refundBody = z.object({ amountFen: amountFen('退费金额'), reason: reason('退费原因') });
export type RefundBody = z.infer<typeof refundBody>;
export interface RefundResult {
  refundId: number;
  status: RefundStatus;
  /** the ledger entry (null while pending or when rejected) */
  entryId: number | null;
  balanceFen: number;
}
/** POST /api/v1/account/refund/{refundId}/approve | reject — by a different user holding userRegister_n:refund_approve. */
export const refundDecision = z.object({ comment: z.string().trim().max(200, '审批意见最多 200 个字符').optional() });

/** POST /api/v1/account/{id}/charge (header Idempotency-Key): a charge posted by billing or an operator. */
export const chargeBody = z.object({
  amountFen: amountFen('扣费金额'),
  reason: reason('扣费说明'),
  /** what caused it, e.g. a bill line: 'bill_line' + id */
  causeType: z.string().trim().max(32).optional(),
  causeId: z.string().trim().max(64).optional(),
});
export type ChargeBody = z.infer<typeof chargeBody>;

/** Deposit moves (header Idempotency-Key): POST /api/v1/user/admindeposit/{collect|deduct|refund}. */
export const depositBody = z.object({
  accountId: positiveIdOf('账户编号'),
  amountFen: amountFen('押金金额'),
  reason: reason('说明'),
  /** the room or device the deposit is for (optional) */
  roomId: positiveIdOf('房间编号').optional(),
  deviceId: positiveIdOf('设备编号').optional(),
});
export type DepositBody = z.infer<typeof depositBody>;
export const DEPOSIT_ACTIONS = { collect: 'deposit_collect', deduct: 'deposit_deduct', refund: 'deposit_refund' } as const;
export type DepositAction = keyof typeof DEPOSIT_ACTIONS;
export interface MoneyMoveResult { entryId: number; balanceFen: number; depositFen: number }

// ---------------------------------------------------------------- ledger

export const ledgerQuery = pageQuery.extend({
  book: z.enum(['balance', 'deposit']).optional(),
  kind: z.enum(Object.keys(LEDGER_KINDS) as [LedgerKind, ...LedgerKind[]]).optional(),
  startTime: decimal(z.number().int().nonnegative()).optional(),
  endTime: decimal(z.number().int().nonnegative()).optional(),
});
export type LedgerQuery = z.infer<typeof ledgerQuery>;
/** charge log across accounts: GET /api/v1/account/chargelog */
export const chargeLogQuery = ledgerQuery.extend({
  projectId: decimal(z.number().int().positive()).optional(),
  accountId: decimal(z.number().int().positive()).optional(),
  phone: z.string().trim().max(20).optional(),
});
export type ChargeLogQuery = z.infer<typeof chargeLogQuery>;

/** A ledger row (contract: id, kind, amountFen, balanceAfterFen, createdAt). balanceAfterFen is the book's balance. */
export interface LedgerEntryDto {
  id: number;
  accountId: number;
  accountName: string;
  projectId: number;
  book: LedgerBook;
  kind: LedgerKind;
  amountFen: number;
  balanceAfterFen: number;
  reason: string | null;
  method: TopupMethod | null;
  causeType: string | null;
  causeId: string | null;
  actorName: string | null;
  createdAt: number;
}

// ---------------------------------------------------------------- receipts

/** GET /api/v1/account/entry/{entryId}/receipt */
export interface ReceiptDto {
  /** R + yyyymmdd + entry id */
  receiptNo: string;
  entryId: number;
  accountId: number;
  accountName: string;
  projectName: string;
  rooms: string[];
  kind: LedgerKind;
  method: TopupMethod | null;
  amountFen: number;
  /** "100.00" */
  amountYuan: string;
  /** 壹佰元整 */
  amountInWords: string;
  balanceAfterFen: number;
  operator: string | null;
  createdAt: number;
}

// ---------------------------------------------------------------- refunds (return records)

/** GET /api/v1/account/refund (return-record list) and …/refund/export (Excel): spec's startDate, endDate, projectId, userId, phone. */
export const refundQuery = pageQuery.extend({
  startDate: dateText.optional(),
  endDate: dateText.optional(),
  projectId: decimal(z.number().int().positive()).optional(),
  /** the account id (the spec's userId) */
  userId: decimal(z.number().int().positive()).optional(),
  phone: z.string().trim().max(20).optional(),
  status: z.enum(['pending', 'done', 'rejected']).optional(),
});
export type RefundQuery = z.infer<typeof refundQuery>;
export interface RefundDto {
  id: number;
  accountId: number;
  accountName: string;
  phone: string;
  projectId: number;
  amountFen: number;
  reason: string;
  status: RefundStatus;
  entryId: number | null;
  requestedBy: string | null;
  decidedBy: string | null;
  decisionComment: string | null;
  createdAt: number;
  decidedAt: number | null;
}

// ---------------------------------------------------------------- per-project money settings (userPayFeeUpper)

/** GET/PUT /api/v1/account/settings/{projectId}. All fen; null = no limit. */
export const moneySettingsBody = z.object({
  /** single top-up maximum */
  topupMaxFen: amountFen('单次充值上限').nullable(),
  /** balance maximum after a top-up */
  balanceMaxFen: amountFen('余额上限').nullable(),
  /** refunds above this need a second user's approval (0 = every refund) */
  refundApprovalFen: decimal(z.number().int().min(0, '审批金额不能为负').max(MAX_AMOUNT_FEN)),
  warning1Fen: decimal(z.number().int().min(0).max(MAX_AMOUNT_FEN)),
  warning2Fen: decimal(z.number().int().min(0).max(MAX_AMOUNT_FEN)),
  /** how far a balance may go below zero before cut-off (0 = cut off at ≤ 0) */
  overdraftFen: decimal(z.number().int().min(0).max(MAX_AMOUNT_FEN)),
}).refine((v) => v.warning2Fen <= v.warning1Fen, { message: '预警二金额不能高于预警一', path: ['warning2Fen'] });
export type MoneySettingsBody = z.infer<typeof moneySettingsBody>;
export interface MoneySettingsDto extends MoneySettingsBody { projectId: number }
export const DEFAULT_MONEY_SETTINGS: MoneySettingsBody = {
  topupMaxFen: 5_000_000, balanceMaxFen: 20_000_000, refundApprovalFen: 10_000, warning1Fen: 5_000, warning2Fen: 2_000, overdraftFen: 0,
};

// ---------------------------------------------------------------- move-out settlement (leave-charge check and clean)

/** GET /api/v1/account/{id}/leave/check → SettlementPreview */
export interface SettlementPreview {
  accountId: number;
  balanceFen: number;
  depositFen: number;
  /** use still owed: the project is billed up to now first; postpaid lines not yet on a paid bill (unbilledNote says which) */
  unbilledFen: number;
  unbilledNote: string;
  pendingOrders: OrderDto[];
  pendingRefunds: number;
  /** what the account gets back (+) or owes (−): balance − unbilled + deposit − deductions */
  netFen: number;
}
/** POST /api/v1/account/{id}/leave/clean (header Idempotency-Key) */
export const settlementBody = z.object({
  /** deducted from the deposit first (damage, arrears) */
  depositDeductFen: decimal(z.number().int().min(0).max(MAX_AMOUNT_FEN)).default(0),
  reason: reason('结算说明').default('退户结算'),
  /** the preview's netFen the operator saw; a changed account refuses with 40900 */
  expectedNetFen: decimal(z.number().int()).optional(),
});
export type SettlementBody = z.infer<typeof settlementBody>;
export interface SettlementReading { deviceId: number; fieldCode: string; value: number | string | null; ts: number }
export interface SettlementResult {
  accountId: number;
  settlementId: number;
  entryIds: number[];
  refundedBalanceFen: number;
  refundedDepositFen: number;
  deductedDepositFen: number;
  status: AccountStatus;
  /** the latest readings of the account's devices, snapshotted at move-out */
  readings: SettlementReading[];
}

// ---------------------------------------------------------------- payment accounts (merchant info) and orders

/** POST /api/v1/payment/account (create or replace a project's merchant info). Keys are write-only. */
export const paymentAccountBody = z.object({
  projectId: positiveIdOf('项目编号'),
  provider: z.enum(['sandbox', 'wechat'], { error: '支付方式只能是沙箱或微信支付' }),
  mchId: z.string({ error: '请输入商户号' }).trim().min(1, '请输入商户号').max(32, '商户号最多 32 个字符'),
  appId: z.string({ error: '请输入 AppID' }).trim().min(1, '请输入 AppID').max(64, 'AppID 最多 64 个字符'),
  /** APIv3 key (32 characters) — sandbox: the HMAC secret of its notifications */
  apiKey: z.string({ error: '请输入 API 密钥' }).min(16, 'API 密钥至少 16 个字符').max(128),
  /** merchant private key PEM (WeChat: signs requests) */
  privateKey: z.string().max(8000).optional(),
  /** merchant certificate serial number */
  certSerialNo: z.string().trim().max(64).optional(),
  /** WeChat Pay platform public key / certificate PEM (verifies notifications) */
  platformPublicKey: z.string().max(8000).optional(),
  notifyUrl: z.string().trim().max(300).regex(/^$|^https?:\/\/\S+$/, '回调地址须以 http:// 或 https:// 开头').optional(),
});
export type PaymentAccountBody = z.infer<typeof paymentAccountBody>;
export interface PaymentAccountDto {
  projectId: number;
  provider: PaymentProviderKind;
  mchId: string;
  appId: string;
  /** e.g. "****a1b2": never the whole key */
  apiKeyMasked: string;
  hasPrivateKey: boolean;
  certSerialNo: string | null;
  hasPlatformPublicKey: boolean;
  notifyUrl: string | null;
  updatedAt: number;
}

/** POST /api/v1/account/{id}/order (header Idempotency-Key): an online top-up order → QR payload */
export const orderCreateBody = z.object({ amountFen: amountFen('充值金额') });
export const orderQuery = pageQuery.extend({
  projectId: decimal(z.number().int().positive()).optional(),
  accountId: decimal(z.number().int().positive()).optional(),
  status: z.enum(['created', 'paid', 'closed', 'refunded']).optional(),
  orderNo: z.string().trim().max(64).optional(),
  startTime: decimal(z.number().int().nonnegative()).optional(),
  endTime: decimal(z.number().int().nonnegative()).optional(),
});
export type OrderQuery = z.infer<typeof orderQuery>;
export interface OrderDto {
  id: number;
  orderNo: string;
  projectId: number;
  accountId: number;
  accountName: string;
  provider: PaymentProviderKind;
  amountFen: number;
  status: OrderStatus;
  /** the QR payload (code_url) while created */
  qrPayload: string | null;
  providerTxnId: string | null;
  entryId: number | null;
  createdAt: number;
  paidAt: number | null;
  closedAt: number | null;
}

/** GET /api/v1/account/reconcile?projectId= ("核对账目") → ReconcileResult */
export const reconcileQuery = z.object({ projectId: decimal(z.number().int().positive()).optional() });
export interface ReconcileRow {
  issue: ReconcileIssue;
  accountId: number | null;
  accountName: string | null;
  orderId: number | null;
  orderNo: string | null;
  entryId: number | null;
  /** the cached figure and the one recomputed from entries (or the order amount) */
  expectedFen: number;
  actualFen: number;
}
export interface ReconcileResult { checkedAccounts: number; checkedOrders: number; rows: ReconcileRow[]; at: number }

// ---------------------------------------------------------------- balance events

export const balanceEventQuery = pageQuery.extend({
  projectId: decimal(z.number().int().positive()).optional(),
  accountId: decimal(z.number().int().positive()).optional(),
  kind: z.enum(['warning1', 'warning2', 'cutoff', 'reconnect']).optional(),
});
export interface BalanceEventDto {
  id: number;
  accountId: number;
  accountName: string;
  projectId: number;
  kind: BalanceEventKind;
  balanceFen: number;
  entryId: number;
  createdAt: number;
}

// ---------------------------------------------------------------- import

/** POST /api/v1/account/import?projectId= (multipart Excel; all-or-nothing) → AccountImportResult */
export const accountImportQuery = z.object({ projectId: positiveIdOf('项目编号') });
export interface AccountImportResult { rows: number; created: number }

// ---------------------------------------------------------------- endpoints (the server's routes; the web calls these)

/**
 * Every accounts/money endpoint, with its access code. `:x` are path parameters. Money-changing calls (marked *)
 * need the `Idempotency-Key` header. The spec §7.5 second-service calls map as: groups → group*, charge logs →
 * chargelog, recharge orders → orders (deviceWxOrder), adding money → topup, user phone update → phone,
 * leave-charge check and clean → leaveCheck/leaveClean, return-record list and export → refunds/refundExport,
 * user/admindeposit/… → deposit, merchant payment account info → paymentAccount*.
 */
export const ACCOUNT_API = {
  list: 'GET /api/v1/account', // userRegister_n:view
  export: 'GET /api/v1/account/export', // userRegister_n:export
  create: 'POST /api/v1/account', // userRegister_n:btn_add
  get: 'GET /api/v1/account/:id', // userRegister_n:view
  update: 'PUT /api/v1/account/:id', // userRegister_n:btn_edit
  phone: 'PUT /api/v1/account/:id/phone', // userRegister_n:btn_edit
  importTemplate: 'GET /api/v1/account/import/template', // userRegister_n:btn_add
  import: 'POST /api/v1/account/import', // userRegister_n:btn_add (multipart file, ?projectId=)
  topup: 'POST /api/v1/account/:id/topup', // * userRegister_n:topup
  refund: 'POST /api/v1/account/:id/refund', // * userRegister_n:refund
  charge: 'POST /api/v1/account/:id/charge', // * userRegister_n:btn_edit (billing posts through the service)
  ledger: 'GET /api/v1/account/:id/ledger', // userRegister_n:view
  chargelog: 'GET /api/v1/account/chargelog', // userRegister_n:view (all accounts' ledger)
  receipt: 'GET /api/v1/account/entry/:entryId/receipt', // userRegister_n:view
  refunds: 'GET /api/v1/account/refund', // userRegister_n:view (return records)
  refundExport: 'GET /api/v1/account/refund/export', // userRegister_n:export
  refundApprove: 'POST /api/v1/account/refund/:refundId/approve', // userRegister_n:refund_approve (a different user)
  refundReject: 'POST /api/v1/account/refund/:refundId/reject', // userRegister_n:refund_approve
  leaveCheck: 'GET /api/v1/account/:id/leave/check', // userRegister_n:settle
  leaveClean: 'POST /api/v1/account/:id/leave/clean', // * userRegister_n:settle
  deposit: 'POST /api/v1/user/admindeposit/:action', // * devicedeposit:deposit (action collect | deduct | refund); depositRecharge:btn_add collects
  depositCollects: 'GET /api/v1/account/deposit/collect', // depositRecharge:view (deposit collections with the filter's total)
  depositCollectExport: 'GET /api/v1/account/deposit/collect/export', // depositRecharge:export
  depositDirect: 'POST /api/v1/account/deposit/direct', // * depositDirect:btn_add (one deposit for several accounts)
  depositBatches: 'GET /api/v1/account/deposit/direct', // depositDirect:view (the 直充 batches)
  depositBatch: 'GET /api/v1/account/deposit/direct/:batchKey', // depositDirect:view (the entries of one batch)
  settings: 'GET /api/v1/account/settings/:projectId', // userPayFeeUpper:view
  settingsUpdate: 'PUT /api/v1/account/settings/:projectId', // userPayFeeUpper:btn_edit
  reconcile: 'GET /api/v1/account/reconcile', // userRegister_n:reconcile (核对账目)
  balanceEvents: 'GET /api/v1/account/balanceevent', // userRegister_n:view
  groups: 'GET /api/v1/account/group', // userGroup:view
  groupCreate: 'POST /api/v1/account/group', // userGroup:btn_add
  groupUpdate: 'PUT /api/v1/account/group/:id', // userGroup:btn_edit (groupmanagers:btn_edit sets the manager the same way)
  groupMembers: 'PUT /api/v1/account/group/:id/members', // userGroup:btn_edit
  groupDelete: 'POST /api/v1/account/group/delete', // userGroup:btn_del { ids }
  orderCreate: 'POST /api/v1/account/:id/order', // * userRegister_n:topup → OrderDto with qrPayload
  orders: 'GET /api/v1/deviceWxOrder/list', // userRegister_n:view
  orderClose: 'POST /api/v1/deviceWxOrder/:orderId/close', // userRegister_n:topup
  sandboxPay: 'POST /api/v1/payment/sandbox/:orderNo/pay', // userRegister_n:topup (sandbox provider only: "pays" and calls back)
  notify: 'POST /api/v1/payment/notify/:projectId/:provider', // public (signature verified)
  paymentAccountGet: 'GET /api/v1/payment/account/:projectId', // userPayFeeUpper:view (keys masked)
  paymentAccountSave: 'POST /api/v1/payment/account', // userPayFeeUpper:btn_edit
  paymentAccountDelete: 'DELETE /api/v1/payment/account/:projectId', // userPayFeeUpper:btn_del
} as const;

export const groupDeleteBody = z.object({ ids: z.array(positiveIdOf('用户组编号')).min(1, '请选择用户组').max(200) });
export const depositActionParam = z.object({ action: z.enum(['collect', 'deduct', 'refund'], { error: '押金操作只能是收取、扣除或退还' }) });

// ---------------------------------------------------------------- 押金充值 / 押金直充 (datacenter)

/** GET /api/v1/account/deposit/collect: the deposit collections of a project, with the total of the whole filter. */
export const depositCollectQuery = pageQuery.extend({
  projectId: decimal(z.number().int().positive()).optional(),
  accountId: decimal(z.number().int().positive()).optional(),
  /** the operator's name as the ledger recorded it (contains) */
  operator: z.string().trim().max(64).optional(),
  startTime: decimal(z.number().int().nonnegative()).optional(),
  endTime: decimal(z.number().int().nonnegative()).optional(),
});
export type DepositCollectQuery = z.infer<typeof depositCollectQuery>;
export interface DepositCollectPage { total: number; rows: LedgerEntryDto[]; totalFen: number }

/**
 * POST /api/v1/account/deposit/direct (Idempotency-Key = the batch key): one deposit amount collected for each of
 * several accounts (picked, or the members of a user group). Each account is its own money move under a key derived
 * from the batch key, so a retried batch credits nobody twice and retries only those that failed.
 */
export const depositDirectBody = z.object({
  projectId: positiveIdOf('项目编号'),
  accountIds: z.array(positiveIdOf('账户编号')).max(500, '一次最多 500 个账户').optional(),
  groupId: positiveIdOf('用户组编号').optional(),
  amountFen: amountFen('押金金额'),
  reason: reason('说明'),
}).refine((b) => (b.accountIds?.length ?? 0) > 0 || b.groupId !== undefined, { message: '请选择账户或用户组', path: ['accountIds'] });
export type DepositDirectBody = z.infer<typeof depositDirectBody>;
export interface DepositDirectRow {
  accountId: number;
  accountName: string;
  ok: boolean;
  /** the answer came from an earlier attempt of the same batch (credited then, not again) */
  replayed: boolean;
  entryId: number | null;
  depositFen: number | null;
  error: string | null;
}
export interface DepositDirectResult { batchKey: string; okCount: number; failedCount: number; creditedFen: number; rows: DepositDirectRow[] }

export const DEPOSIT_DIRECT_CAUSE = 'deposit_direct';
export const depositBatchQuery = pageQuery.extend({
  projectId: decimal(z.number().int().positive()).optional(),
  startTime: decimal(z.number().int().nonnegative()).optional(),
  endTime: decimal(z.number().int().nonnegative()).optional(),
});
/** A 直充 batch as the ledger holds it: the entries credited under one batch key. */
export interface DepositBatchDto { batchKey: string; projectId: number; accounts: number; totalFen: number; reason: string | null; operator: string | null; createdAt: number }
export const depositBatchParam = z.object({ batchKey: idempotencyKey });
