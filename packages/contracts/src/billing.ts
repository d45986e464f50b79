import { z } from 'zod';
import { decimal, pageQuery } from './common.ts';
import { MAX_AMOUNT_FEN } from './accounts.ts';

/**
 * The billing engine (design §8): schemes 1–21, the versioned tariff of a project, per-device parameters, share
 * teams, metering plans, the quote calculator (计费试算, shared by the screens and the engine), charge runs, bill
 * lines, postpaid expense bills and the prepaid loop's supply actions (cut-off / reconnect). Prices are 元 as decimal
 * text (≤ 4 decimals); money is integer fen.
 */

// ---------------------------------------------------------------- schemes and methods

export const BILLING_METHODS = {
  timeEquivalent: '时间当量',
  energyEquivalent: '能量当量',
  heat: '计量热量',
  ladder: '阶梯电价',
  shareTime: '时间当量分摊',
  shareEnergy: '能量当量分摊',
  shareArea: '面积分摊',
  heatTwoPart: '两部制热价',
  onOffTimeArea: '通断时间面积法',
  shareMixed: '混合分摊',
  flat: '押金制包月',
} as const;
export type BillingMethod = keyof typeof BILLING_METHODS;

/** Methods whose cost is one total split over a share team's members (the rest bill each account on its own). */
export const SHARE_METHODS: ReadonlySet<BillingMethod> = new Set(['shareTime', 'shareEnergy', 'shareArea', 'onOffTimeArea', 'shareMixed']);

export interface BillingSchemeDef {
  value: number;
  name: string;
  method: BillingMethod;
  /** odd = prepaid (charged to the balance as use accrues), even = postpaid (expense bills per accounting period) */
  prepaid: boolean;
}

const METHOD_OF_PAIR: [BillingMethod, string][] = [
  ['timeEquivalent', '按时间当量固定单价'], ['energyEquivalent', '按能量当量固定单价'], ['heat', '按计量热量固定单价'], ['ladder', '阶梯价格（按结算周期）'],
  ['shareTime', '按时间当量分摊'], ['shareEnergy', '按能量当量分摊'], ['shareArea', '按面积分摊'], ['heatTwoPart', '两部制热价分摊'],
  ['onOffTimeArea', '通断时间面积法分摊'], ['shareMixed', '混合分摊'],
];

/** paraValue 1–21 (design §8): 1/2 … 19/20 by method, odd prepaid; 21 deposit-based flat fee. */
export const BILLING_SCHEMES: readonly BillingSchemeDef[] = [
  ...Array.from({ length: 20 }, (_, i) => {
    const [method, title] = METHOD_OF_PAIR[Math.floor(i / 2)]!;
    const prepaid = i % 2 === 0;
    return { value: i + 1, method, prepaid, name: `${title}（${prepaid ? '预付费' : '后付费'}）` };
  }),
  { value: 21, method: 'flat', prepaid: true, name: '押金制固定费用' },
];
export const schemeOf = (value: number | null | undefined): BillingSchemeDef | undefined => BILLING_SCHEMES.find((s) => s.value === value);
export function billingSchemeName(value: number | null | undefined): string | null {
  return value == null ? null : schemeOf(value)?.name ?? `方案 ${value}`;
}

/**
 * What each method reads from the device registry (cumulative counters; use = end − start). Time-based methods read
 * run time per fan speed (f20–f22) and, on types without fan speeds (floor heating, 4G on/off), the valve-open hours f30.
 */
export const METHOD_FIELDS: Record<BillingMethod, { fields: string[]; unit: string }> = {
  timeEquivalent: { fields: ['f20', 'f21', 'f22', 'f30'], unit: 'h' },
  energyEquivalent: { fields: ['f20', 'f21', 'f22', 'f30'], unit: 'kWh' },
  heat: { fields: ['f60'], unit: 'GJ' },
  ladder: { fields: ['f70'], unit: 'kWh' },
  shareTime: { fields: ['f20', 'f21', 'f22', 'f30'], unit: 'h' },
  shareEnergy: { fields: ['f20', 'f21', 'f22', 'f30'], unit: 'kWh' },
  shareArea: { fields: [], unit: 'm²' },
  heatTwoPart: { fields: ['f60'], unit: 'GJ' },
  onOffTimeArea: { fields: ['f30'], unit: 'h' },
  shareMixed: { fields: ['f20', 'f21', 'f22', 'f30'], unit: 'h' },
  flat: { fields: [], unit: '月' },
};

// ---------------------------------------------------------------- values

/** 元 price as text, ≥ 0, at most 4 decimals ("0.5283"). */
export const PRICE_PATTERN = /^\d{1,7}(\.\d{1,4})?$/;
export const price = (label = '单价') => z.string({ error: `${label}必须填写` }).trim().regex(PRICE_PATTERN, `${label}须为不超过 4 位小数的非负金额（元）`);
/** A coefficient as text, 0–100, at most 4 decimals ("0.6"). */
export const coefficient = (label = '系数') => z.string({ error: `${label}必须填写` }).trim().regex(/^\d{1,3}(\.\d{1,4})?$/, `${label}须为不超过 4 位小数的非负数`)
  .refine((v) => Number(v) <= 100, `${label}不能大于 100`);
const hhmm = (label: string) => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label}格式为 HH:mm`);
const ms = (label: string) => decimal(z.number({ error: `${label}必须是时间` }).int().nonnegative());
const positiveId = (label: string) => decimal(z.number({ error: `${label}必须是数字` }).int(`${label}必须是整数`).positive(`请选择${label}`));

export const TOU_KINDS = { peak: '峰', flat: '平', valley: '谷' } as const;
export type TouKind = keyof typeof TOU_KINDS;

// ---------------------------------------------------------------- the tariff (one versioned document per project)

/** Fan-speed coefficients k of T_eq = Σ k × t (low/mid/high). */
export const speedFactors = z.object({ low: coefficient('低速系数'), mid: coefficient('中速系数'), high: coefficient('高速系数') });

export const touSection = z.object({
  enabled: z.boolean(),
  /** whole-day cover, in order; a period may run across midnight (22:00–06:00) */
  periods: z.array(z.object({ start: hhmm('开始时间'), end: hhmm('结束时间'), kind: z.enum(['peak', 'flat', 'valley'], { error: '时段类型只能是峰、平、谷' }) })).max(24, '最多 24 个时段'),
  prices: z.object({ peak: price('峰时单价'), flat: price('平时单价'), valley: price('谷时单价') }),
  /** on holidays (system calendar) the whole day is billed as this kind; null = as on any day */
  holidayKind: z.enum(['peak', 'flat', 'valley']).nullable(),
});
export type TouSection = z.infer<typeof touSection>;

export const ladderTier = z.object({
  /** upper bound of the tier in kWh within the cycle; null = no bound (the last tier) */
  upTo: decimal(z.number({ error: '阶梯上限必须是数字' }).positive('阶梯上限必须大于 0')).nullable(),
  /** added to the base price in this tier (元/kWh) */
  add: price('加价'),
});
export const ladderSection = z.object({
  cycle: z.enum(['year', 'month'], { error: '阶梯周期只能是年或月' }),
  /** the month a yearly cycle starts (1–12) */
  startMonth: decimal(z.number().int().min(1).max(12, '起始月份 1～12')),
  tiers: z.array(ladderTier).min(1, '至少一个阶梯').max(6, '最多 6 个阶梯'),
});
export type LadderSection = z.infer<typeof ladderSection>;

export const tariffBody = z.object({
  scheme: decimal(z.number({ error: '请选择计费方案' }).int().min(1, '计费方案取值 1～21').max(21, '计费方案取值 1～21')),
  /** the change applies from this moment (runs over earlier periods keep the earlier version) */
  effectiveFrom: ms('生效时间'),
  /** the method's unit price: 元 per h of T_eq, per kWh of energy equivalent, per GJ, per kWh (ladder base), per GJ of building heat (onOffTimeArea), per unit of plant use (share) */
  price: price('单价'),
  k: speedFactors,
  tou: touSection,
  ladder: ladderSection,
  /** two-part heat tariff: basic 元/m² per accounting period, metered 元/GJ */
  heat: z.object({ basicPrice: price('基本热价'), heatPrice: price('计量热价') }),
  /** 4G electric meters: the CT/PT multiplier applied to the meter's kWh (billingFactor_n) */
  electric: z.object({ multiplier: coefficient('电表倍率') }),
  /** solar generation valued at these prices (billingFactorSolar_n; the reports use them) */
  solar: z.object({ selfUsePrice: price('自用电价'), feedInPrice: price('上网电价') }),
  /** share of the total split by area in 混合分摊 (0–1) */
  share: z.object({ publicRatio: coefficient('面积分摊比例').refine((v) => Number(v) <= 1, '面积分摊比例在 0～1 之间') }),
  /** overtime hours from the overtime pool (元/h) */
  overtimePrice: price('超时单价'),
  /** flat fee per device per month for scheme 21 and base fees (元) */
  flatMonthlyPrice: price('包月费'),
  accounting: z.object({
    /** bills close on this day of the month (1–28) at 00:00 */
    closeDay: decimal(z.number().int().min(1, '结算日 1～28').max(28, '结算日 1～28')),
    /** days after issue until a bill is overdue */
    dueDays: decimal(z.number().int().min(1, '缴费期限 1～90 天').max(90, '缴费期限 1～90 天')),
  }),
  remark: z.string().trim().max(200, '备注最多 200 字').optional().default(''),
});
export type TariffBody = z.infer<typeof tariffBody>;
export type TariffDoc = Omit<TariffBody, 'effectiveFrom' | 'remark'>;

export interface TariffVersionDto extends TariffBody {
  id: number;
  projectId: number;
  createdBy: string | null;
  createdAt: number;
}

/** The defaults a project starts from until someone saves its tariff (sourced from design §8; all editable). */
export const DEFAULT_TARIFF: TariffDoc = {
  scheme: 1,
  price: '1.0000',
  k: { low: '0.6', mid: '0.8', high: '1' },
  tou: {
    enabled: false,
    periods: [
      { start: '08:00', end: '11:00', kind: 'peak' }, { start: '11:00', end: '18:00', kind: 'flat' },
      { start: '18:00', end: '22:00', kind: 'peak' }, { start: '22:00', end: '08:00', kind: 'valley' },
    ],
    prices: { peak: '1.2000', flat: '0.8000', valley: '0.4000' },
    holidayKind: null,
  },
  ladder: { cycle: 'year', startMonth: 1, tiers: [{ upTo: 2880, add: '0' }, { upTo: 4800, add: '0.05' }, { upTo: null, add: '0.30' }] },
  heat: { basicPrice: '16.0000', heatPrice: '85.0000' },
  electric: { multiplier: '1' },
  solar: { selfUsePrice: '0.8000', feedInPrice: '0.3910' },
  share: { publicRatio: '0.3' },
  overtimePrice: '20.0000',
  flatMonthlyPrice: '100.0000',
  accounting: { closeDay: 1, dueDays: 15 },
};

// ---------------------------------------------------------------- per-device parameters (device20030para, deviceAG2420para, devicebasefee, updatechrgrate)

const paramDeviceIds = z.array(positiveId('设备')).min(1, '请选择设备').max(1000, '一次最多 1000 台');
export const deviceParamBody = z.object({
  deviceIds: paramDeviceIds,
  /** multiplies the device's use (计费系数, default 1) */
  chargeRate: coefficient('计费系数').optional(),
  /** rated capacity in kW (energy equivalent = T_eq × rated power) */
  ratedPower: coefficient('额定功率').optional(),
  /** monthly base fee of the device (devicebasefee), fen */
  baseFeeFen: decimal(z.number().int().min(0, '基础费不能为负').max(MAX_AMOUNT_FEN)).optional(),
  effectiveFrom: ms('生效时间'),
}).refine((b) => b.chargeRate !== undefined || b.ratedPower !== undefined || b.baseFeeFen !== undefined, { message: '请至少填写一项参数', path: ['chargeRate'] });
export type DeviceParamBody = z.infer<typeof deviceParamBody>;
export const deviceParamQuery = pageQuery.extend({
  projectId: positiveId('项目'),
  deviceType: z.string().max(40).optional(),
  keyword: z.string().trim().max(40).optional(),
});
export interface DeviceParamRow {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  areaName: string | null;
  chargeRate: string;
  ratedPower: string;
  baseFeeFen: number;
  effectiveFrom: number | null;
  updatedBy: string | null;
}
export const DEFAULT_DEVICE_PARAMS = { chargeRate: '1', ratedPower: '3.5', baseFeeFen: 0 } as const;
/** Old clients send the coefficient as a number (1.2) as well as text. */
const legacyCoefficient = (label: string) => z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v), coefficient(label));
/** POST /api/v1/device/updatechrgrate and updatepower (spec §7.3): tenantId is ignored (the caller's scope decides), effectiveFrom defaults to now. */
export const updateChargeRateBody = z.object({ tenantId: z.unknown().optional(), deviceIds: paramDeviceIds, chargeRate: legacyCoefficient('计费系数'), effectiveFrom: ms('生效时间').optional() });
export const updatePowerBody = z.object({ tenantId: z.unknown().optional(), deviceIds: paramDeviceIds, ratedPower: legacyCoefficient('额定功率'), effectiveFrom: ms('生效时间').optional() });

// ---------------------------------------------------------------- share teams, members, device relations (groupexpsshare, devicerelation)

export const shareTeamBody = z.object({
  projectId: positiveId('项目'),
  name: z.string().trim().min(1, '请填写分摊组名称').max(40, '名称最多 40 字'),
  remark: z.string().trim().max(200).optional().default(''),
});
export type ShareTeamBody = z.infer<typeof shareTeamBody>;
export const shareTeamQuery = pageQuery.extend({ projectId: positiveId('项目').optional() });
export interface ShareTeamRow {
  shareTeamId: number;
  projectId: number;
  name: string;
  remark: string;
  members: number;
  totalDevices: number;
  publicDevices: number;
  memberArea: number;
  updatedBy: string | null;
  updatedAt: number;
}
/** share group = the members of a team: accounts (their rooms' area counts) */
export const shareGroupBody = z.object({
  shareTeamId: positiveId('分摊组'),
  accountIds: z.array(positiveId('账户')).min(1, '请选择账户').max(2000),
});
export const shareGroupQuery = pageQuery.extend({ shareTeamId: positiveId('分摊组') });
/** move a member to another team of the same project */
export const shareMemberMoveBody = z.object({ shareTeamId: positiveId('分摊组') });
export interface ShareMemberRow { id: number; shareTeamId: number; accountId: number; accountName: string; rooms: string; area: number }

export const DEVICE_RELATION_ROLES = { total: '总表（计入总费用）', public: '公共区域表（公共费用）' } as const;
export type DeviceRelationRole = keyof typeof DEVICE_RELATION_ROLES;
export const deviceRelationBody = z.object({
  shareTeamId: positiveId('分摊组'),
  deviceIds: z.array(positiveId('设备')).min(1, '请选择设备').max(200),
  role: z.enum(['total', 'public'], { error: '关联类型只能是总表或公共区域表' }),
});
export const deviceRelationQuery = pageQuery.extend({ shareTeamId: positiveId('分摊组').optional(), projectId: positiveId('项目').optional() })
  .refine((q) => q.shareTeamId !== undefined || q.projectId !== undefined, { message: '请选择分摊组或项目', path: ['shareTeamId'] });
export interface DeviceRelationRow { id: number; shareTeamId: number; deviceId: number; deviceCode: string; deviceName: string; deviceType: string; role: DeviceRelationRole }

// ---------------------------------------------------------------- metering plans (interaction project plan, device plan)

export const METERING_METHOD_TYPES = { timeEquivalent: '时间当量', energyEquivalent: '能量当量', heat: '计量热量', ladder: '电能计量', flat: '包月' } as const;
export type MeteringMethodType = keyof typeof METERING_METHOD_TYPES;
export const projectPlanBody = z.object({
  projectId: positiveId('项目'),
  name: z.string().trim().min(1, '请填写方案名称').max(40),
  meteringMethodType: z.enum(Object.keys(METERING_METHOD_TYPES) as [MeteringMethodType, ...MeteringMethodType[]], { error: '请选择计量方式' }),
  price: price('单价'),
  effectiveFrom: ms('生效时间'),
  remark: z.string().trim().max(200).optional().default(''),
});
export type ProjectPlanBody = z.infer<typeof projectPlanBody>;
export const projectPlanQuery = pageQuery.extend({ projectId: positiveId('项目') });
export interface ProjectPlanRow extends ProjectPlanBody { projectPlanId: number; devices: number; updatedBy: string | null; updatedAt: number }
export const devicePlanBody = z.object({
  projectPlanId: positiveId('计费方案'),
  deviceIds: z.array(positiveId('设备')).min(1, '请选择设备').max(1000),
  effectiveFrom: ms('生效时间'),
});
export const devicePlanQuery = pageQuery.extend({ projectPlanId: positiveId('计费方案') });
export interface DevicePlanRow { id: number; projectPlanId: number; deviceId: number; deviceCode: string; deviceName: string; deviceType: string; effectiveFrom: number }

// ---------------------------------------------------------------- the quote calculator (POST /api/v1/billing/quote) — a fixed contract: the screens and outside callers rely on these shapes

const qty = (label: string) => decimal(z.number({ error: `${label}必须是数字` }).nonnegative(`${label}不能为负`).max(1e9, `${label}过大`));
export const quoteBody = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('ladder'),
    params: z.object({ price: price('电价'), tiers: z.array(ladderTier).min(1, '至少一个阶梯').max(6) }),
    inputs: z.object({ usedBefore: qty('已用电量'), use: qty('本次用电量') }),
  }),
  z.object({
    method: z.literal('timeEquivalent'),
    params: z.object({ price: price('单价'), k: speedFactors }),
    inputs: z.object({ hours: z.object({ low: qty('低速时间'), mid: qty('中速时间'), high: qty('高速时间') }) }),
  }),
  z.object({
    method: z.literal('heatTwoPart'),
    params: z.object({ basicPrice: price('基本热价'), heatPrice: price('计量热价') }),
    inputs: z.object({ area: qty('面积'), heatGJ: qty('热量') }),
  }),
  z.object({
    method: z.literal('share'),
    params: z.object({
      totalFen: decimal(z.number({ error: '总费用必须是整数分' }).int('总费用必须是整数分').min(0, '总费用不能为负').max(MAX_AMOUNT_FEN)),
      publicFen: decimal(z.number({ error: '公共费用必须是整数分' }).int('公共费用必须是整数分').min(0, '公共费用不能为负').max(MAX_AMOUNT_FEN)),
    }).refine((p) => p.publicFen <= p.totalFen, { message: '公共费用不能大于总费用', path: ['publicFen'] }),
    inputs: z.array(z.object({ id: z.union([z.string().min(1).max(40), z.number()]), equivalent: qty('当量'), area: qty('面积') })).min(1, '至少一户').max(10000),
  }),
  z.object({
    method: z.literal('onOffTimeArea'),
    params: z.object({ buildingHeatGJ: qty('楼栋热量'), price: price('热价') }),
    inputs: z.array(z.object({ id: z.union([z.string().min(1).max(40), z.number()]), area: qty('面积'), hours: qty('通阀时间') })).min(1, '至少一户').max(10000),
  }),
], { error: '计算方法只能是 ladder、timeEquivalent、heatTwoPart、share、onOffTimeArea' });
export type QuoteBody = z.infer<typeof quoteBody>;
export interface QuoteLine { label: string; quantity: number; unitPrice: string; amountFen: number }
export interface QuoteResult { totalFen: number; lines: QuoteLine[] }

// ---------------------------------------------------------------- runs and lines

export const runBody = z.object({
  projectId: positiveId('项目'),
  /** bill up to this moment (ms); default now */
  until: ms('截止时间').optional(),
});
export interface RunResult { runId: number | null; accounts: number; lines: number; totalFen: number }

export const RUN_STATES = { running: '计算中', done: '已完成' } as const;
export type BillingRunState = keyof typeof RUN_STATES;
export const GAP_KINDS = { noReading: '期间无读数', stale: '读数中断', reset: '表计更换或清零', noDevice: '账户无计费设备', noTeam: '未加入分摊组或分摊组未关联总表', unallocated: '无法分配', byArea: '无通阀时间，按面积分摊' } as const;
export type GapKind = keyof typeof GAP_KINDS;
export interface RunGap { accountId: number | null; deviceId: number | null; deviceName: string | null; fieldCode: string | null; kind: GapKind; from: number; to: number; note: string }

export const billingRunQuery = pageQuery.extend({ projectId: positiveId('项目').optional() });
export interface BillingRunRow {
  runId: number;
  projectId: number;
  projectName: string;
  scheme: number;
  periodFrom: number;
  periodUntil: number;
  state: BillingRunState;
  accounts: number;
  lines: number;
  totalFen: number;
  gaps: RunGap[];
  trigger: string;
  startedAt: number;
  finishedAt: number | null;
}

/** One priced line (an account's use of one device, or a tier, a share, a fee) and the readings it came from. */
export interface BillLineRow {
  id: number;
  runId: number;
  projectId: number;
  accountId: number;
  accountName: string;
  deviceId: number | null;
  deviceName: string | null;
  method: BillingMethod | 'overtime' | 'baseFee';
  label: string;
  quantity: number;
  unit: string;
  unitPrice: string;
  amountFen: number;
  periodFrom: number;
  periodUntil: number;
  /** the ledger entry (prepaid) or the expense bill (postpaid) the line went into */
  entryId: number | null;
  billId: number | null;
  readings: { deviceId: number; fieldCode: string; startTs: number | null; startValue: number | null; endTs: number | null; endValue: number | null }[];
  /** a cost-share line: what the account's share was computed from at the run (null on other lines) */
  basis: ShareBasis | null;
}
/**
 * The account's figures a share was split by: its rooms' area (m²), its equivalent (h or kWh of T_eq, share methods)
 * or its valve-open hours (onOffTimeArea), and the devices they came from (their readings are the line's readings).
 */
export interface ShareBasis { team: string; area: number; equivalent?: number; hours?: number; deviceIds: number[] }
export const lineQuery = pageQuery.extend({
  projectId: positiveId('项目').optional(),
  runId: positiveId('计费批次').optional(),
  /** the lines an expense bill holds */
  billId: positiveId('账单').optional(),
  accountId: positiveId('账户').optional(),
  deviceId: positiveId('设备').optional(),
  method: z.string().max(30).optional(),
  startTime: ms('开始时间').optional(),
  endTime: ms('结束时间').optional(),
});
export type LineQuery = z.infer<typeof lineQuery>;

/** POST calcdevicechargedatasummary / calcdevicechargedatadetail (spec §7.3): per-device use and money over a range. */
export const chargeDataBody = z.object({
  projectId: positiveId('项目'),
  startTime: ms('开始时间'),
  endTime: ms('结束时间'),
  deviceType: z.string().max(40).optional(),
  keyword: z.string().trim().max(40).optional(),
  deviceId: positiveId('设备').optional(),
  pageNo: decimal(z.number().int().min(1)).default(1),
  pageSize: decimal(z.number().int().min(1).max(200, '每页最多 200 条')).default(20),
}).refine((b) => b.endTime > b.startTime, { message: '结束时间必须晚于开始时间', path: ['endTime'] });
export interface ChargeSummaryRow { deviceId: number; deviceCode: string; deviceName: string; deviceType: string; accountName: string | null; quantity: number; unit: string; amountFen: number; lines: number }

// ---------------------------------------------------------------- postpaid expense bills (expensebill)

export const BILL_STATUS = { issued: '待缴费', paid: '已缴费', overdue: '已逾期' } as const;
export type BillStatus = keyof typeof BILL_STATUS;
export const billQuery = pageQuery.extend({
  projectId: positiveId('项目').optional(),
  period: z.string().regex(/^\d{4}-\d{2}$/, '账期格式为 YYYY-MM').optional(),
  status: z.enum(['issued', 'paid', 'overdue']).optional(),
  keyword: z.string().trim().max(40).optional(),
});
export const billIssueBody = z.object({ projectId: positiveId('项目'), period: z.string().regex(/^\d{4}-\d{2}$/, '账期格式为 YYYY-MM') });
export const BILL_PAY_METHODS = { cash: '现金', transfer: '转账', balance: '余额抵扣' } as const;
export const billPayBody = z.object({ method: z.enum(['cash', 'transfer', 'balance'], { error: '请选择缴费方式' }), remark: z.string().trim().max(200).optional().default('') });
export interface ExpenseBillRow {
  id: number;
  projectId: number;
  accountId: number;
  accountName: string;
  phone: string;
  period: string;
  periodFrom: number;
  periodUntil: number;
  amountFen: number;
  lines: number;
  status: BillStatus;
  issuedAt: number;
  dueAt: number;
  paidAt: number | null;
  payMethod: string | null;
  paidBy: string | null;
}

// ---------------------------------------------------------------- the prepaid loop's supply actions

export const SUPPLY_ACTIONS = { cutoff: '断开供能', reconnect: '恢复供能' } as const;
export type SupplyAction = keyof typeof SUPPLY_ACTIONS;
export const SUPPLY_STATUS = { pending: '执行中', acked: '已执行', failed: '未执行（将重试）', gaveUp: '多次未执行', superseded: '已被后续操作取代', unsupported: '设备不支持' } as const;
export type SupplyStatus = keyof typeof SUPPLY_STATUS;
export const supplyQuery = pageQuery.extend({
  projectId: positiveId('项目').optional(),
  accountId: positiveId('账户').optional(),
  status: z.enum(Object.keys(SUPPLY_STATUS) as [SupplyStatus, ...SupplyStatus[]]).optional(),
});
export interface SupplyActionRow {
  id: number;
  projectId: number;
  accountId: number;
  accountName: string;
  deviceId: number;
  deviceName: string;
  deviceType: string;
  action: SupplyAction;
  status: SupplyStatus;
  attempts: number;
  commandId: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}
