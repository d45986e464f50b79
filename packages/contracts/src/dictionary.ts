import { z } from 'zod';
import { ACCOUNT_KINDS, ACCOUNT_STATUS, BALANCE_EVENT_KINDS, LEDGER_BOOKS, LEDGER_KINDS, ORDER_STATUS, PAYMENT_PROVIDERS, REFUND_STATUS, TOPUP_METHODS } from './accounts.ts';
import { DATAVIEW_STATUS_LABELS } from './bigscreen.ts';
import { AREA_LEVEL_LABELS, PROJECT_MAP_STATUS_LABELS, PROJECT_TYPE2, PROJECT_TYPES } from './area.ts';
import { RUN_RESULT_STATUS, RUN_STATUS, TASK_KINDS, WEEKDAY_LABELS } from './automation.ts';
import { BILL_PAY_METHODS, BILL_STATUS, BILLING_METHODS, BILLING_SCHEMES, DEVICE_RELATION_ROLES, GAP_KINDS, METERING_METHOD_TYPES, SUPPLY_ACTIONS, SUPPLY_STATUS, TOU_KINDS } from './billing.ts';
import { pageQuery } from './common.ts';
import { BATCH_RESULT_LABELS, BIND_ACTION_LABELS } from './device-admin.ts';
import { ADDRESS_CHANGE_STATUS_LABELS, FACTORY_RUN_STATUS_LABELS, FACTORY_STEP_STATUS_LABELS } from './device-management.ts';
import { DEVICE_ACTION_LABELS, DEVICE_CATEGORY_LABELS, DEVICE_TYPES } from './device-registry.ts';
import type { FieldDef } from './device-types.ts';
import { COMMAND_STATUS_LABELS } from './device.ts';
import { EXCEPTION_KINDS } from './exceptions.ts';
import { ALARM_SEVERITIES, ALARM_STATUS_LABELS } from './monitoring.ts';
import { BROADCAST_ACTIONS, INSTANCE_ROLES, INSTANCE_STATUS, SPAN_KINDS } from './ops.ts';
import { REGISTRATION_STATUS } from './registration.ts';
import { REPAIR_PRIORITY, REPAIR_STATUS } from './repairs.ts';
import { HOLIDAY_TYPES, SMS_KINDS, SMS_STATUSES } from './system.ts';

/**
 * 数据字典 (/businessSys/dict): every enumeration the product uses, read from the registries of this package (one
 * source: the dictionary is a view of them, never a second copy to keep in step). A tenant may override the display
 * label of the items of the `overridable` dictionaries (what its own users call a device type, a project type, an
 * alarm severity); the values and the defaults stay the registries'.
 */

export interface DictItem {
  value: string;
  label: string;
  description: string | null;
  sort: number;
}
export interface DictDef {
  code: string;
  name: string;
  /** where the enumeration is used */
  description: string;
  /** a tenant may give its items its own display names */
  overridable: boolean;
  items: DictItem[];
}
/** A dictionary as a tenant sees it: each item's default, and its override when the tenant set one. */
export interface DictItemDto extends DictItem {
  defaultLabel: string;
  overridden: boolean;
}
export interface DictDto extends Omit<DictDef, 'items'> {
  items: DictItemDto[];
  overrides: number;
}
export type DictSummary = Omit<DictDto, 'items'> & { itemCount: number };

type Labels = Readonly<Record<string | number, string>>;
const fromMap = (labels: Labels, describe?: (value: string) => string | null): DictItem[] =>
  Object.entries(labels).map(([value, label], i) => ({ value, label, description: describe?.(value) ?? null, sort: i + 1 }));
const fromList = (list: readonly { code: string | number; name: string }[], describe?: (code: string) => string | null): DictItem[] =>
  list.map((x, i) => ({ value: String(x.code), label: x.name, description: describe?.(String(x.code)) ?? null, sort: i + 1 }));

const REPORT_GROUPS: Labels = {
  report1: '报表组一：明细与汇总（方案 1–6、21）',
  report2: '报表组二：结算周期与阶梯（方案 7、8）',
  report3: '报表组三：分摊（方案 9–20）',
  report4: '缴费报表（单数方案 1–19）',
};
const reportGroupsOfScheme = (v: number) => {
  const groups = [v <= 6 || v === 21 ? 'report1' : v <= 8 ? 'report2' : 'report3'];
  if (v % 2 === 1 && v <= 19) groups.push('report4');
  return groups.join('、');
};
const FIELD_KINDS: Labels = { enum: '枚举', number: '数值', time: '时间', bool: '开关', text: '文本' };

/** A device field's options, unit and range, in one line. */
export function describeField(f: FieldDef): string {
  const parts = [FIELD_KINDS[f.kind] ?? f.kind];
  if (f.options) parts.push(`选项：${Object.entries(f.options).map(([v, l]) => `${v} ${l}`).join('、')}`);
  if (f.min !== undefined || f.max !== undefined) parts.push(`范围 ${f.min ?? ''}–${f.max ?? ''}${f.unit ?? ''}`);
  else if (f.unit) parts.push(`单位 ${f.unit}`);
  if (f.step !== undefined && f.kind === 'number') parts.push(`步长 ${f.step}`);
  parts.push(f.writable ? '可写' : '只读');
  return parts.join('；');
}

const dict = (code: string, name: string, description: string, items: DictItem[], overridable = false): DictDef => ({ code, name, description, overridable, items });

export const DICTIONARIES: readonly DictDef[] = [
  dict('projectType', '项目类型', '项目的类型（PT…），决定项目可见的设备与菜单', fromList(PROJECT_TYPES), true),
  dict('projectType2', '项目计费类型', '项目的第二类型（101–105），决定计费与押金相关菜单', fromList(PROJECT_TYPE2), true),
  dict('billingScheme', '计费方案', '项目计费方案 paraValue 1–21：单数预付费、双数后付费；决定报表组',
    BILLING_SCHEMES.map((s, i) => ({ value: String(s.value), label: s.name, description: `计费方式：${BILLING_METHODS[s.method]}；报表：${reportGroupsOfScheme(s.value)}`, sort: i + 1 }))),
  dict('reportGroup', '报表组', '计费方案对应的报表组', fromMap(REPORT_GROUPS)),
  dict('billingMethod', '计费方式', '计费方案的计价方法', fromMap(BILLING_METHODS)),
  dict('meteringMethodType', '计量方式', '项目计量方案的计量方式', fromMap(METERING_METHOD_TYPES)),
  dict('touKind', '分时电价时段', '峰平谷时段', fromMap(TOU_KINDS)),
  dict('deviceRelationRole', '分摊表计角色', '分摊组关联表计的角色', fromMap(DEVICE_RELATION_ROLES)),
  dict('billingGap', '计费缺口', '计费运行中无法计费的原因', fromMap(GAP_KINDS)),
  dict('billStatus', '账单状态', '后付费账单的状态', fromMap(BILL_STATUS)),
  dict('billPayMethod', '账单缴费方式', '后付费账单的缴费方式', fromMap(BILL_PAY_METHODS)),
  dict('supplyAction', '供能控制操作', '欠费断开与充值恢复', fromMap(SUPPLY_ACTIONS)),
  dict('supplyStatus', '供能控制状态', '欠费断开与充值恢复指令的执行状态', fromMap(SUPPLY_STATUS)),
  dict('deviceType', '设备类型', '设备类型（分类与适用项目类型），每个类型有自己的监控页面',
    DEVICE_TYPES.map((t, i) => ({
      value: t.code, label: t.name, sort: i + 1,
      description: `${DEVICE_CATEGORY_LABELS[t.category]}${t.projectTypes.length ? `；项目类型 ${t.projectTypes.join('、')}` : '；所有项目'}；心跳 ${Math.round(t.heartbeatSeconds / 60)} 分钟`,
    })), true),
  dict('deviceCategory', '设备分类', '设备类型所属的分类', fromMap(DEVICE_CATEGORY_LABELS), true),
  dict('deviceAction', '设备操作', '设备的远程操作', fromMap(DEVICE_ACTION_LABELS)),
  dict('commandStatus', '指令状态', '下发给设备的指令的状态', fromMap(COMMAND_STATUS_LABELS)),
  dict('batchResult', '批量下发结果', '批量参数下发的结果', fromMap(BATCH_RESULT_LABELS)),
  dict('bindAction', '设备绑定操作', '设备绑定记录的操作类型', fromMap(BIND_ACTION_LABELS)),
  dict('addressChangeStatus', '地址变更状态', '设备地址变更申请的状态', fromMap(ADDRESS_CHANGE_STATUS_LABELS)),
  dict('factoryRunStatus', '出厂测试状态', '出厂测试的结果', fromMap(FACTORY_RUN_STATUS_LABELS)),
  dict('factoryStepStatus', '测试步骤状态', '出厂测试每一步的状态', fromMap(FACTORY_STEP_STATUS_LABELS)),
  ...DEVICE_TYPES.map((t) => dict(`deviceField.${t.code}`, `设备字段：${t.name}`, `${t.name}上报与可写的字段（选项、单位、范围）`,
    t.fields.map((f, i) => ({ value: f.code, label: f.label, description: describeField(f), sort: i + 1 })))),
  dict('alarmSeverity', '告警级别', '监控规则与告警的级别', fromMap(ALARM_SEVERITIES), true),
  dict('alarmStatus', '告警状态', '告警是否仍在持续', fromMap(ALARM_STATUS_LABELS), true),
  dict('exceptionKind', '异常数据类型', '异常数据的判定类型', fromMap(EXCEPTION_KINDS)),
  dict('accountKind', '账户类型', '计费账户的类型', fromMap(ACCOUNT_KINDS), true),
  dict('accountStatus', '账户状态', '计费账户的状态', fromMap(ACCOUNT_STATUS), true),
  dict('topupMethod', '充值方式', '充值的付款方式', fromMap(TOPUP_METHODS), true),
  dict('ledgerBook', '账簿', '预付余额与押金两本账', fromMap(LEDGER_BOOKS)),
  dict('ledgerKind', '账目类型', '账目流水的类型', fromMap(LEDGER_KINDS)),
  dict('refundStatus', '退费状态', '退费申请的状态', fromMap(REFUND_STATUS)),
  dict('orderStatus', '支付订单状态', '在线支付订单的状态', fromMap(ORDER_STATUS)),
  dict('paymentProvider', '支付渠道', '在线支付的渠道', fromMap(PAYMENT_PROVIDERS)),
  dict('balanceEventKind', '余额事件', '余额预警、欠费断开与充值恢复', fromMap(BALANCE_EVENT_KINDS)),
  dict('repairStatus', '维修状态', '维修记录的状态', fromMap(REPAIR_STATUS), true),
  dict('repairPriority', '维修优先级', '维修记录的优先级', fromMap(REPAIR_PRIORITY), true),
  dict('taskKind', '任务类型', '定时、周期、节假日、策略与记忆任务', fromMap(TASK_KINDS)),
  dict('runStatus', '任务执行状态', '一次任务执行的结果', fromMap(RUN_STATUS)),
  dict('runResultStatus', '设备执行结果', '任务执行中每台设备的结果', fromMap(RUN_RESULT_STATUS)),
  dict('weekday', '星期', '周程序与周期任务的星期', fromMap(WEEKDAY_LABELS)),
  dict('holidayType', '节假日类型', '节假日与调休工作日', fromList(HOLIDAY_TYPES)),
  dict('smsKind', '短信类型', '平台发送的短信类型', fromList(SMS_KINDS)),
  dict('smsStatus', '短信状态', '短信记录的状态', fromList(SMS_STATUSES)),
  dict('areaLevel', '区域层级', '区域树的层级', fromMap(AREA_LEVEL_LABELS)),
  dict('projectMapStatus', '项目地图状态', '地图总览上项目的状态', fromMap(PROJECT_MAP_STATUS_LABELS)),
  dict('registrationStatus', '入驻申请状态', '运营公司入驻申请的审核状态', fromMap(REGISTRATION_STATUS)),
  dict('dataviewStatus', '大屏分享链接状态', '项目大屏公开链接是否仍可打开', fromMap(DATAVIEW_STATUS_LABELS)),
  dict('instanceRole', '服务进程角色', '服务注册中心里进程承担的工作', fromMap(INSTANCE_ROLES)),
  dict('instanceStatus', '服务进程状态', '服务注册中心里进程的心跳状态', fromMap(INSTANCE_STATUS)),
  dict('spanKind', '链路跨度类型', '调用链路中一段耗时的来源', fromMap(SPAN_KINDS)),
  dict('broadcastAction', 'MQTT 广播内容', '服务运行监控向设备广播的请求', fromMap(BROADCAST_ACTIONS)),
];

export const DICTIONARY_BY_CODE: ReadonlyMap<string, DictDef> = new Map(DICTIONARIES.map((d) => [d.code, d]));

const dictCode = z.string({ error: '请选择字典' }).trim().min(1, '请选择字典').max(64, '字典编码最多 64 个字符');
export const dictQuery = z.object({ keyword: z.string().trim().max(50, '关键字最多 50 个字符').optional() });
export const dictItemQuery = pageQuery.extend({ keyword: z.string().trim().max(50, '关键字最多 50 个字符').optional() });
export const dictCodeParam = z.object({ code: dictCode });
/** PUT /api/v1/dict/{code}/override: the tenant's display name of one item. */
export const dictOverrideBody = z.object({
  value: z.string({ error: '请选择字典项' }).trim().min(1, '请选择字典项').max(64, '字典项最多 64 个字符'),
  label: z.string({ error: '请输入显示名称' }).trim().min(1, '请输入显示名称').max(40, '显示名称最多 40 个字符'),
});
/** POST /api/v1/dict/{code}/reset: back to the registry's label. */
export const dictResetBody = z.object({ value: dictOverrideBody.shape.value });
export type DictOverrideBody = z.infer<typeof dictOverrideBody>;

/** GET /api/v1/dict/labels: the signed-in tenant's overrides, dictionary → value → label (empty when none). */
export type DictLabels = Record<string, Record<string, string>>;

/** A label as the tenant shows it: its override, else the registry's. */
export const dictLabel = (labels: DictLabels | undefined, code: string, value: string | number, fallback: string) => labels?.[code]?.[String(value)] ?? fallback;
