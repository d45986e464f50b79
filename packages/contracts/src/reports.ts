import { z } from 'zod';
import { decimal, pageQuery } from './common.ts';
import { LEDGER_KINDS, REFUND_STATUS, TOPUP_METHODS, fenToYuan } from './accounts.ts';
import { BILL_STATUS } from './billing.ts';

/**
 * The report registry: every report of /datacenter (and the report calls of spec §7.3) is one entry here —
 * its filters, columns (label, unit, format, whether the total row sums it) and an optional chart. One page renders any
 * entry; the server serves any entry (page, sort, totals, chart, .xlsx export, print) from the query registered under
 * the same code. A new report = one entry here plus its query on the server.
 *
 * Screens of /datacenter that are workflows rather than reports have their own pages: `DATACENTER_WORKFLOW_CODES`.
 */

// ---------------------------------------------------------------- filters

/** 今日/本周/本月/本年 and 自定义 (a range picked by hand): the date filter's presets. */
export const PERIOD_PRESETS = { today: '今日', week: '本周', month: '本月', year: '本年', custom: '自定义' } as const;
export type PeriodPreset = keyof typeof PERIOD_PRESETS;

/**
 * What a filter is. `period` sends from/to (ms, [from, to)); `month` sends month (YYYY-MM); `year` year (YYYY);
 * `grain` day | month; `building` a building (or any area) of the project, areaId; `deviceType` the project's device
 * types; `counter` which cumulative counter (ENERGY_COUNTERS); `group` one of the project's device groups (groupId);
 * `keyword` free text; `select` one of `options`.
 */
export type ReportFilterKind = 'period' | 'month' | 'year' | 'grain' | 'building' | 'deviceType' | 'counter' | 'group' | 'keyword' | 'select';

export interface ReportFilter {
  /** the query parameter (period: from/to) */
  name: 'period' | 'month' | 'year' | 'grain' | 'areaId' | 'deviceType' | 'counter' | 'groupId' | 'keyword' | 'status' | 'method' | 'kind';
  label: string;
  kind: ReportFilterKind;
  options?: { value: string; label: string }[];
  /** period: the preset selected when the screen opens; grain/counter/select: the initial value */
  initial?: string;
  /** the report cannot run without it (period/month/year always have a value) */
  required?: boolean;
  placeholder?: string;
}

/** The cumulative counters energy reports read (use = end − start, from the device roll-ups). */
export const ENERGY_COUNTERS = {
  f70: { label: '电能', unit: 'kWh' },
  f48: { label: '热泵耗电', unit: 'kWh' },
  f60: { label: '热量', unit: 'GJ' },
  f24: { label: '空调能量当量', unit: 'kWh' },
  f23: { label: '空调时间当量', unit: 'h' },
  f30: { label: '通阀时间', unit: 'h' },
} as const;
export type EnergyCounter = keyof typeof ENERGY_COUNTERS;

const options = (o: Record<string, string>) => Object.entries(o).map(([value, label]) => ({ value, label }));

const f = {
  period: (initial: PeriodPreset = 'month'): ReportFilter => ({ name: 'period', label: '时间', kind: 'period', initial, required: true }),
  month: (): ReportFilter => ({ name: 'month', label: '月份', kind: 'month', required: true }),
  year: (): ReportFilter => ({ name: 'year', label: '年份', kind: 'year', required: true }),
  grain: (initial: 'day' | 'month' = 'day'): ReportFilter => ({ name: 'grain', label: '统计粒度', kind: 'grain', initial, options: options({ hour: '按小时', day: '按日', month: '按月' }) }),
  building: (): ReportFilter => ({ name: 'areaId', label: '楼栋', kind: 'building', placeholder: '全部楼栋' }),
  deviceType: (): ReportFilter => ({ name: 'deviceType', label: '设备类型', kind: 'deviceType', placeholder: '全部类型' }),
  counter: (initial: EnergyCounter = 'f70'): ReportFilter => ({ name: 'counter', label: '能源类型', kind: 'counter', initial, options: Object.entries(ENERGY_COUNTERS).map(([value, c]) => ({ value, label: `${c.label}（${c.unit}）` })) }),
  keyword: (placeholder: string): ReportFilter => ({ name: 'keyword', label: '关键字', kind: 'keyword', placeholder }),
  select: (name: ReportFilter['name'], label: string, o: Record<string, string>): ReportFilter => ({ name, label, kind: 'select', options: options(o) }),
};

// ---------------------------------------------------------------- columns and charts

/**
 * How a value is shown and exported. `fen`: integer fen shown as 元 with two decimals (the value stays fen end to end);
 * `num0`…`num3`: decimals; `percent`: a ratio 0–1 shown as %; `datetime`/`date`: ms epoch in China Standard Time;
 * `text`: as is.
 */
export type ReportFormat = 'text' | 'num0' | 'num1' | 'num2' | 'num3' | 'fen' | 'percent' | 'datetime' | 'date';

export interface ReportColumn {
  key: string;
  label: string;
  unit?: string;
  format: ReportFormat;
  /** the total row sums this column over everything the filters select (not just the page) */
  total?: boolean;
  width?: number;
  /** the server can sort by it */
  sortable?: boolean;
}

export interface ReportChart {
  kind: 'line' | 'bar' | 'pie';
  title: string;
  /** the series (keys of ReportChartData.series) and how each is drawn */
  series: { key: string; label: string; unit?: string; kind?: 'line' | 'bar'; stack?: string }[];
  /** many points (days of a year): the chart gets a data zoom */
  zoom?: boolean;
}

export interface ReportDef {
  code: string;
  title: string;
  /** one line under the title: what the report answers, where the numbers come from */
  description: string;
  filters: ReportFilter[];
  columns: ReportColumn[];
  /** the column whose value identifies a row */
  rowKey: string;
  defaultSort?: { key: string; order: 'asc' | 'desc' };
  chart?: ReportChart;
  /** a §7.3 call served by this entry (besides /api/v1/datacenter/{code}) */
  legacyPath?: string;
  /** not a menu screen of its own: reached as a tab of `tabOf` */
  tabOf?: string;
}

const col = (key: string, label: string, format: ReportFormat = 'text', more: Partial<ReportColumn> = {}): ReportColumn => ({ key, label, format, ...more });
const money = (key: string, label: string, more: Partial<ReportColumn> = {}) => col(key, label, 'fen', { unit: '元', total: true, sortable: true, width: 120, ...more });
const at = (key = 'at', label = '时间') => col(key, label, 'datetime', { sortable: true, width: 170 });
const account = [col('accountName', '账户', 'text', { width: 140, sortable: true }), col('rooms', '房间', 'text', { width: 200 })];
const device = [col('deviceCode', '设备编号', 'text', { width: 180, sortable: true }), col('deviceName', '设备名称', 'text', { width: 160 }), col('location', '位置', 'text', { width: 220 })];
const usage = (label = '用量') => col('usage', label, 'num2', { total: true, sortable: true, width: 120 });

const PAY_METHODS = TOPUP_METHODS as Record<string, string>;

const ENTRIES: ReportDef[] = [
  // ---------------------------------------------------------------- energy and use (device roll-ups)
  {
    code: 'datastats', title: '数据统计', description: '项目能耗随时间的变化：每小时 / 日 / 月的用量（读数差，换表从新表首个读数起算）',
    filters: [f.period('month'), f.grain('day'), f.counter(), f.building(), f.deviceType()],
    columns: [col('bucket', '时间', 'text', { width: 140, sortable: true }), usage(), col('devices', '有数据设备数', 'num0', { width: 120 }), col('change', '环比', 'percent', { width: 100 })],
    rowKey: 'bucket', defaultSort: { key: 'bucket', order: 'asc' },
    chart: { kind: 'bar', title: '用量趋势', series: [{ key: 'usage', label: '用量' }], zoom: true },
  },
  {
    code: 'useenergy', title: '设备用量排行', tabOf: 'datastats', legacyPath: '/api/v1/device/useenergy',
    description: '时间范围内每台设备的用量，从高到低',
    filters: [f.period('month'), f.counter(), f.building(), f.deviceType(), f.keyword('设备编号 / 名称')],
    columns: [...device, col('deviceType', '设备类型', 'text', { width: 140 }), col('startValue', '起始读数', 'num3', { width: 120 }), col('endValue', '结束读数', 'num3', { width: 120 }), usage(), col('share', '占比', 'percent', { width: 90 })],
    rowKey: 'deviceId', defaultSort: { key: 'usage', order: 'desc' },
    chart: { kind: 'bar', title: '用量前十', series: [{ key: 'usage', label: '用量' }] },
  },
  {
    code: 'deviceusehours', title: '设备运行时长', tabOf: 'datastats', legacyPath: '/api/v1/device/deviceusehours',
    description: '每台设备在时间范围内的运行时长（低/中/高速运行时间与通阀时间的读数差）',
    filters: [f.period('month'), f.building(), f.deviceType(), f.keyword('设备编号 / 名称')],
    columns: [...device, col('low', '低速', 'num2', { unit: 'h', total: true }), col('mid', '中速', 'num2', { unit: 'h', total: true }), col('high', '高速', 'num2', { unit: 'h', total: true }),
      col('valve', '通阀', 'num2', { unit: 'h', total: true }), col('hours', '合计', 'num2', { unit: 'h', total: true, sortable: true })],
    rowKey: 'deviceId', defaultSort: { key: 'hours', order: 'desc' },
  },
  {
    code: 'usehours', title: '每日运行时长', tabOf: 'datastats', legacyPath: '/api/v1/device/report/usehours',
    description: '项目每天的设备运行总时长与运行设备数',
    filters: [f.period('month'), f.building(), f.deviceType()],
    columns: [col('bucket', '日期', 'text', { width: 120, sortable: true }), col('hours', '运行时长', 'num2', { unit: 'h', total: true }), col('devices', '运行设备数', 'num0')],
    rowKey: 'bucket', defaultSort: { key: 'bucket', order: 'asc' },
    chart: { kind: 'line', title: '运行时长', series: [{ key: 'hours', label: '运行时长', unit: 'h' }], zoom: true },
  },
  {
    code: 'groupusehourslist', title: '分组运行时长', tabOf: 'datastats', legacyPath: '/api/v1/device/groupusehourslist',
    description: '每个设备分组在时间范围内的运行时长与用量',
    filters: [f.period('month')],
    columns: [col('groupName', '分组', 'text', { width: 180, sortable: true }), col('devices', '设备数', 'num0'), col('hours', '运行时长', 'num2', { unit: 'h', total: true, sortable: true }), col('avgHours', '台均时长', 'num2', { unit: 'h' })],
    rowKey: 'groupId', defaultSort: { key: 'hours', order: 'desc' },
    chart: { kind: 'pie', title: '运行时长构成', series: [{ key: 'hours', label: '运行时长', unit: 'h' }] },
  },
  {
    code: 'groupdeviceusehourslist', title: '分组设备运行时长', tabOf: 'datastats', legacyPath: '/api/v1/device/groupdeviceusehourslist',
    description: '一个分组内每台设备的运行时长',
    filters: [f.period('month'), { name: 'groupId', label: '分组', kind: 'group', required: true, placeholder: '请选择分组' }],
    columns: [...device, col('hours', '运行时长', 'num2', { unit: 'h', total: true, sortable: true })],
    rowKey: 'deviceId', defaultSort: { key: 'hours', order: 'desc' },
  },
  {
    code: 'devicetempinfo', title: '温度统计', tabOf: 'datastats', legacyPath: '/api/v1/device/devicetempinfo',
    description: '每台温控器在时间范围内的室内温度：平均、最低、最高与设定温度平均',
    filters: [f.period('week'), f.building(), f.deviceType(), f.keyword('设备编号 / 名称')],
    columns: [...device, col('avg', '平均温度', 'num1', { unit: '°C', sortable: true }), col('min', '最低', 'num1', { unit: '°C' }), col('max', '最高', 'num1', { unit: '°C' }), col('setAvg', '平均设定', 'num1', { unit: '°C' }), col('samples', '读数条数', 'num0')],
    rowKey: 'deviceId', defaultSort: { key: 'avg', order: 'desc' },
  },
  {
    code: 'annualData', title: '年度数据', description: '一年 12 个月的用量与去年同期对比（同比）',
    filters: [f.year(), f.counter(), f.building(), f.deviceType()],
    columns: [col('month', '月份', 'text', { width: 100 }), col('usage', '本年用量', 'num2', { total: true }), col('lastYear', '去年同期', 'num2', { total: true }), col('yoy', '同比', 'percent')],
    rowKey: 'month',
    chart: { kind: 'bar', title: '逐月用量（同比）', series: [{ key: 'usage', label: '本年' }, { key: 'lastYear', label: '去年同期' }] },
  },
  {
    // /project/electricMeterEnergyView: electricity by meter, building or project with its 峰/平/谷 split
    code: 'electricMeterEnergyView', title: '电表能耗视图',
    description: '每块电表、每栋楼或整个项目按日 / 按月的用电量（累计电能 f70 的读数差），按计费配置的峰平谷时段拆分',
    filters: [
      f.period('month'), { name: 'grain', label: '统计粒度', kind: 'grain', initial: 'day', options: options({ day: '按日', month: '按月' }) },
      { ...f.select('kind', '统计对象', { meter: '按电表', building: '按楼栋', project: '按项目' }), initial: 'meter' }, f.building(), f.keyword('电表编号 / 名称'),
    ],
    columns: [
      col('bucket', '时间', 'text', { width: 110, sortable: true }), col('name', '对象', 'text', { width: 200, sortable: true }), col('location', '位置', 'text', { width: 180 }),
      col('peak', '峰', 'num2', { unit: 'kWh', total: true, sortable: true }), col('flat', '平', 'num2', { unit: 'kWh', total: true, sortable: true }),
      col('valley', '谷', 'num2', { unit: 'kWh', total: true, sortable: true }), col('total', '合计', 'num2', { unit: 'kWh', total: true, sortable: true }),
      col('valleyShare', '谷电占比', 'percent', { width: 100 }),
    ],
    rowKey: 'key', defaultSort: { key: 'bucket', order: 'asc' },
    chart: {
      kind: 'bar', title: '分时用电', zoom: true,
      series: [
        { key: 'peak', label: '峰', unit: 'kWh', stack: 'tou' }, { key: 'flat', label: '平', unit: 'kWh', stack: 'tou' },
        { key: 'valley', label: '谷', unit: 'kWh', stack: 'tou' }, { key: 'total', label: '合计', unit: 'kWh', kind: 'line' },
      ],
    },
  },
  {
    code: 'deviceStatus_n', title: '设备状态',
    description: '每台设备的在线状态、最后上报时间与今日用电（累计电能 f70，无电能计量的热泵/柜机取累计耗电 f48；今日 = 当前读数 − 今日零点前最后读数）；光伏逆变器另列发电功率与今日发电',
    filters: [f.deviceType(), f.building(), f.select('status', '状态', { online: '在线', offline: '离线' }), f.keyword('设备编号 / 名称')],
    columns: [...device, col('deviceType', '设备类型', 'text', { width: 140 }), col('online', '状态', 'text', { width: 80 }), at('lastReportAt', '最后上报'),
      col('power', '有功功率', 'num3', { unit: 'kW' }), col('energy', '累计电能', 'num2', { unit: 'kWh' }), col('today', '今日用电', 'num2', { unit: 'kWh', total: true, sortable: true }),
      col('genPower', '发电功率', 'num2', { unit: 'kW' }), col('genToday', '今日发电', 'num2', { unit: 'kWh', total: true, sortable: true })],
    rowKey: 'deviceId', defaultSort: { key: 'deviceCode', order: 'asc' },
    chart: { kind: 'pie', title: '在线情况', series: [{ key: 'count', label: '设备数' }] },
  },
  {
    code: 'balancetable', title: '平衡表',
    description: '水力平衡：每台平衡阀的流量、供回水温度、实际开度与温差；平衡阀没有目标值，目标温差取项目全部平衡阀温差的平均值，偏差 = (实际温差 − 目标) / 目标',
    filters: [f.building()],
    columns: [col('location', '位置', 'text', { width: 220 }), col('deviceCode', '设备编号', 'text', { width: 170, sortable: true }), col('flow', '流量', 'num3', { unit: 'm³/h', total: true }),
      col('supply', '供水温度', 'num1', { unit: '°C' }), col('return', '回水温度', 'num1', { unit: '°C' }), col('deltaT', '温差', 'num1', { unit: '°C', sortable: true }),
      col('opening', '实际开度', 'num0', { unit: '%' }), col('target', '目标温差', 'num1', { unit: '°C' }), col('deviation', '偏差', 'percent', { sortable: true }), at('readAt', '读数时间')],
    rowKey: 'deviceId', defaultSort: { key: 'deviation', order: 'desc' },
    chart: { kind: 'bar', title: '各分支温差与目标', series: [{ key: 'deltaT', label: '实际温差', unit: '°C' }, { key: 'target', label: '目标温差', unit: '°C', kind: 'line' }] },
  },
  {
    code: 'balancetableAF900', title: 'AF900 平衡表',
    description: 'AF900 水力平衡调节阀：每个阀门按其控制方式比较目标值（f83；手动开度时为开度设定 f80）与实际值（恒流量：流量，恒回水温度：回水温度，恒温差：温差，手动：实际开度），偏差 = (实际 − 目标) / 目标',
    filters: [f.building()],
    columns: [col('location', '位置', 'text', { width: 220 }), col('deviceCode', '设备编号', 'text', { width: 170, sortable: true }), col('mode', '控制方式', 'text', { width: 110 }),
      col('flow', '流量', 'num3', { unit: 'm³/h', total: true }), col('supply', '供水温度', 'num1', { unit: '°C' }), col('return', '回水温度', 'num1', { unit: '°C' }),
      col('deltaT', '温差', 'num1', { unit: '°C' }), col('opening', '实际开度', 'num0', { unit: '%' }),
      col('target', '目标值', 'num2'), col('actual', '实际值', 'num2'), col('unit', '单位', 'text', { width: 70 }), col('deviation', '偏差', 'percent', { sortable: true }), at('readAt', '读数时间')],
    rowKey: 'deviceId', defaultSort: { key: 'deviation', order: 'desc' },
    chart: { kind: 'bar', title: '各阀门偏离目标', series: [{ key: 'deviationPct', label: '偏差', unit: '%' }] },
  },

  // ---------------------------------------------------------------- charges per device type (billing lines)
  {
    code: 'airconcostdata', title: '空调费用数据', description: '每台空调末端在时间范围内的计费用量与费用（计费明细汇总）',
    filters: [f.period('month'), f.building(), f.keyword('设备 / 账户')],
    columns: [...device, col('accountName', '账户', 'text', { width: 140 }), col('quantity', '计费用量', 'num2', { total: true }), col('unit', '单位', 'text', { width: 70 }), money('amountFen', '费用')],
    rowKey: 'deviceId', defaultSort: { key: 'amountFen', order: 'desc' },
    chart: { kind: 'bar', title: '费用前十', series: [{ key: 'amountFen', label: '费用', unit: '元' }] },
  },
  {
    code: 'calorimeterchargedata', title: '热量表计费数据', description: '每块热量表的起止读数、用热量与费用',
    filters: [f.period('month'), f.building(), f.keyword('设备 / 账户')],
    columns: [...device, col('accountName', '账户', 'text', { width: 140 }), col('startValue', '起始读数', 'num3', { unit: 'GJ' }), col('endValue', '结束读数', 'num3', { unit: 'GJ' }),
      col('quantity', '用热量', 'num3', { unit: 'GJ', total: true, sortable: true }), money('amountFen', '费用')],
    rowKey: 'deviceId', defaultSort: { key: 'quantity', order: 'desc' },
  },
  {
    code: 'ag2420chargedata', title: 'AG2420 计费数据', description: '每台 AG2420 的计费用量与费用',
    filters: [f.period('month'), f.building(), f.keyword('设备 / 账户')],
    columns: [...device, col('accountName', '账户', 'text', { width: 140 }), col('quantity', '计费用量', 'num2', { total: true, sortable: true }), col('unit', '单位', 'text', { width: 70 }), money('amountFen', '费用')],
    rowKey: 'deviceId', defaultSort: { key: 'amountFen', order: 'desc' },
  },

  // ---------------------------------------------------------------- money (the ledger, bills and billing lines)
  {
    code: 'operateRecord', title: '充值记录', description: '余额账本的每一笔充值与退费（与账本逐笔一致）',
    filters: [f.period('month'), f.select('kind', '类型', { topup: LEDGER_KINDS.topup, refund: LEDGER_KINDS.refund }), f.select('method', '方式', PAY_METHODS), f.keyword('账户 / 电话 / 房间')],
    columns: [at(), ...account, col('kind', '类型', 'text', { width: 80 }), money('amountFen', '金额'), money('balanceAfterFen', '余额', { total: false, sortable: false }), col('method', '方式', 'text', { width: 100 }), col('operator', '操作人', 'text', { width: 110 }), col('reason', '备注', 'text', { width: 180 })],
    rowKey: 'id', defaultSort: { key: 'at', order: 'desc' },
  },
  {
    code: 'payReport', title: '缴费报表', description: '每日充值笔数与金额，按缴费方式分列（与账本逐日一致）',
    filters: [f.period('month'), f.grain('day')],
    columns: [col('bucket', '日期', 'text', { width: 120, sortable: true }), col('count', '笔数', 'num0', { total: true }), money('cashFen', '现金'), money('bankFen', '银行转账'), money('onlineFen', '在线支付'), money('refundFen', '退费'), money('netFen', '净收入')],
    rowKey: 'bucket', defaultSort: { key: 'bucket', order: 'asc' },
    chart: { kind: 'bar', title: '每日收款', series: [{ key: 'cashFen', label: '现金', unit: '元', stack: 'in' }, { key: 'bankFen', label: '银行转账', unit: '元', stack: 'in' }, { key: 'onlineFen', label: '在线支付', unit: '元', stack: 'in' }, { key: 'refundFen', label: '退费', unit: '元', kind: 'line' }], zoom: true },
  },
  {
    code: 'payReport_n', title: '缴费报表（新）', description: '每个账户在时间范围内的期初余额、充值、扣费、退费（含退户结算）与期末余额（期初 + 充值 − 扣费 − 退费 = 期末）',
    filters: [f.period('month'), f.keyword('账户 / 电话 / 房间')],
    columns: [...account, money('openingFen', '期初余额', { total: true }), money('topupFen', '充值'), col('topups', '充值笔数', 'num0', { total: true }), money('chargeFen', '扣费'), money('refundFen', '退费'), money('closingFen', '期末余额')],
    rowKey: 'accountId', defaultSort: { key: 'topupFen', order: 'desc' },
    chart: { kind: 'line', title: '每日充值与扣费', series: [{ key: 'topupFen', label: '充值', unit: '元' }, { key: 'chargeFen', label: '扣费', unit: '元' }], zoom: true },
  },
  {
    code: 'refundTable', title: '退费表', description: '退费申请与审批：申请人、审批人、状态',
    filters: [f.period('month'), f.select('status', '状态', REFUND_STATUS), f.keyword('账户 / 电话')],
    columns: [at('at', '申请时间'), ...account, money('amountFen', '金额'), col('reason', '原因', 'text', { width: 180 }), col('status', '状态', 'text', { width: 90 }), col('requestedBy', '申请人', 'text', { width: 100 }), col('decidedBy', '审批人', 'text', { width: 100 }), at('decidedAt', '审批时间')],
    rowKey: 'id', defaultSort: { key: 'at', order: 'desc' },
  },
  {
    code: 'refundTable_n', title: '退费表（新）', description: '实际退出的钱：余额退费与退户结算的账本记录',
    filters: [f.period('month'), f.keyword('账户 / 电话')],
    columns: [at(), ...account, col('kind', '类型', 'text', { width: 100 }), money('amountFen', '退款金额'), col('operator', '操作人', 'text', { width: 110 }), col('reason', '说明', 'text', { width: 200 })],
    rowKey: 'id', defaultSort: { key: 'at', order: 'desc' },
  },
  {
    code: 'depositdata', title: '押金数据', description: '每个账户的押金：时间范围内收取、扣除、退还与当前押金',
    filters: [f.period('year'), f.select('status', '账户状态', { active: '在用', closed: '已退户' }), f.keyword('账户 / 电话 / 房间')],
    columns: [...account, money('collectFen', '收取'), money('deductFen', '扣除'), money('refundFen', '退还'), money('depositFen', '当前押金'), col('status', '账户状态', 'text', { width: 90 })],
    rowKey: 'accountId', defaultSort: { key: 'depositFen', order: 'desc' },
  },
  {
    code: 'depositreport', title: '押金报表', description: '押金账本按日汇总：收取、扣除、退还与净额',
    filters: [f.period('month'), f.grain('day')],
    columns: [col('bucket', '日期', 'text', { width: 120, sortable: true }), col('count', '笔数', 'num0', { total: true }), money('collectFen', '收取'), money('deductFen', '扣除'), money('refundFen', '退还'), money('netFen', '净额')],
    rowKey: 'bucket', defaultSort: { key: 'bucket', order: 'asc' },
    chart: { kind: 'bar', title: '押金收退', series: [{ key: 'collectFen', label: '收取', unit: '元' }, { key: 'deductFen', label: '扣除', unit: '元' }, { key: 'refundFen', label: '退还', unit: '元' }], zoom: true },
  },
  {
    code: 'expensebilldata', title: '账单数据', description: '后付费账单：账期、金额、状态、缴费',
    filters: [f.period('year'), f.select('status', '状态', BILL_STATUS as Record<string, string>), f.keyword('账户 / 电话 / 房间')],
    columns: [col('period', '账期', 'text', { width: 100, sortable: true }), ...account, money('amountFen', '金额'), col('lines', '明细条数', 'num0'), col('status', '状态', 'text', { width: 80 }), at('issuedAt', '出账时间'), at('dueAt', '缴费期限'), at('paidAt', '缴费时间'), col('payMethod', '缴费方式', 'text', { width: 90 })],
    rowKey: 'id', defaultSort: { key: 'issuedAt', order: 'desc' },
    chart: { kind: 'pie', title: '账单状态', series: [{ key: 'amountFen', label: '金额', unit: '元' }] },
  },
  {
    code: 'dataDetails_n', title: '数据明细', description: '计费明细：每个账户每台设备每个计费周期的用量、单价与金额',
    filters: [f.period('month'), f.keyword('账户 / 设备')],
    columns: [at('periodFrom', '周期开始'), at('periodUntil', '周期结束'), col('accountName', '账户', 'text', { width: 140, sortable: true }), col('deviceName', '设备', 'text', { width: 160 }), col('label', '项目', 'text', { width: 200 }),
      col('quantity', '用量', 'num3', { total: true }), col('unit', '单位', 'text', { width: 60 }), col('unitPrice', '单价（元）', 'text', { width: 100 }), money('amountFen', '金额')],
    rowKey: 'id', defaultSort: { key: 'periodFrom', order: 'desc' },
  },
  {
    code: 'summaryReport_n', title: '汇总报表', description: '每个账户在时间范围内的用量与费用合计，以及同期充值与余额',
    filters: [f.period('month'), f.keyword('账户 / 电话 / 房间')],
    columns: [...account, col('quantity', '计费用量', 'num2', { total: true, sortable: true }), money('amountFen', '费用'), money('topupFen', '充值'), money('balanceFen', '当前余额')],
    rowKey: 'accountId', defaultSort: { key: 'amountFen', order: 'desc' },
    chart: { kind: 'line', title: '每日费用', series: [{ key: 'amountFen', label: '费用', unit: '元' }], zoom: true },
  },
  {
    code: 'accountingPeriod_n', title: '核算周期', description: '每个账户每个核算周期（账期）的用量、费用与账单状态',
    filters: [f.period('year'), f.keyword('账户 / 电话 / 房间')],
    columns: [col('period', '账期', 'text', { width: 100, sortable: true }), ...account, col('quantity', '用量', 'num2', { unit: 'kWh', total: true }), money('amountFen', '费用'), col('billStatus', '账单', 'text', { width: 90 })],
    rowKey: 'key', defaultSort: { key: 'period', order: 'desc' },
    chart: { kind: 'bar', title: '各账期费用', series: [{ key: 'amountFen', label: '费用', unit: '元' }] },
  },
  {
    code: 'ladderReport_n', title: '阶梯电价报表', description: '每个账户每个账期逐档的用量与金额（第一档、第二档、第三档）',
    filters: [f.period('year'), f.keyword('账户 / 电话 / 房间')],
    columns: [col('period', '账期', 'text', { width: 100, sortable: true }), ...account,
      col('tier1', '第一档用量', 'num2', { unit: 'kWh', total: true }), money('tier1Fen', '第一档金额'), col('tier2', '第二档用量', 'num2', { unit: 'kWh', total: true }), money('tier2Fen', '第二档金额'),
      col('tier3', '第三档用量', 'num2', { unit: 'kWh', total: true }), money('tier3Fen', '第三档金额'), money('amountFen', '合计')],
    rowKey: 'key', defaultSort: { key: 'period', order: 'desc' },
    chart: { kind: 'bar', title: '各档用量', series: [{ key: 'tier1', label: '第一档', unit: 'kWh', stack: 't' }, { key: 'tier2', label: '第二档', unit: 'kWh', stack: 't' }, { key: 'tier3', label: '第三档', unit: 'kWh', stack: 't' }] },
  },
  {
    code: 'billingDataAllocation_n', title: '计费数据分摊', description: '每条分摊：分摊组、账户、分摊依据（面积 / 当量 / 通阀时间）与分得金额',
    filters: [f.period('month'), f.keyword('账户 / 分摊组')],
    columns: [at('periodFrom', '周期开始'), col('teamName', '分摊组', 'text', { width: 160 }), col('accountName', '账户', 'text', { width: 140, sortable: true }), col('label', '项目', 'text', { width: 200 }),
      col('basis', '分摊依据', 'text', { width: 200 }), col('ratio', '比例', 'percent'), col('quantity', '分得用量', 'num3', { total: true }), money('amountFen', '金额')],
    rowKey: 'id', defaultSort: { key: 'periodFrom', order: 'desc' },
  },
  {
    code: 'shareReport_n', title: '分摊报表', description: '每个分摊组的总费用、公摊部分与各户分摊合计；核对：分摊合计必须等于总费用',
    filters: [f.period('month')],
    columns: [col('teamName', '分摊组', 'text', { width: 180, sortable: true }), col('members', '户数', 'num0'), col('totalUse', '总表用量', 'num3', { total: true }), col('publicUse', '公摊用量', 'num3', { total: true }),
      money('costFen', '总费用'), money('publicFen', '公摊费用'), money('sharedFen', '分摊合计'), money('differenceFen', '差额'), col('check', '核对', 'text', { width: 80 })],
    rowKey: 'teamId', defaultSort: { key: 'costFen', order: 'desc' },
    chart: { kind: 'pie', title: '各分摊组费用', series: [{ key: 'costFen', label: '总费用', unit: '元' }] },
  },

  // ---------------------------------------------------------------- records (the audit and operation logs, accounts)
  {
    code: 'userList_n', title: '用户列表', description: '项目的全部账户：房间、面积、余额、押金、状态',
    filters: [f.select('status', '状态', { active: '在用', closed: '已退户' }), f.keyword('账户 / 电话 / 房间')],
    columns: [col('accountName', '账户', 'text', { width: 140, sortable: true }), col('kind', '类型', 'text', { width: 70 }), col('phone', '电话', 'text', { width: 130 }), col('rooms', '房间', 'text', { width: 220 }),
      col('area', '面积', 'num2', { unit: 'm²', total: true }), money('balanceFen', '余额'), money('depositFen', '押金'), col('status', '状态', 'text', { width: 80 }), at('createdAt', '开户时间')],
    rowKey: 'accountId', defaultSort: { key: 'createdAt', order: 'desc' },
  },
  {
    code: 'deviceBindRecord', title: '设备绑定记录', description: '设备的安装、移位、换表与备件记录',
    filters: [f.period('year'), f.select('kind', '动作', { install: '安装', move: '移位', replace: '换表', spare: '备件' }), f.keyword('设备编号')],
    columns: [at(), col('action', '动作', 'text', { width: 80 }), col('deviceType', '设备类型', 'text', { width: 140 }), col('oldDeviceCode', '原设备', 'text', { width: 170 }), col('newDeviceCode', '新设备', 'text', { width: 170 }),
      col('location', '位置', 'text', { width: 220 }), col('detail', '说明', 'text', { width: 220 }), col('operator', '操作人', 'text', { width: 110 })],
    rowKey: 'id', defaultSort: { key: 'at', order: 'desc' },
  },
  {
    code: 'useroperationlog', title: '用户操作日志', description: '本租户用户的每次修改操作（审计日志）',
    filters: [f.period('week'), f.keyword('用户 / 操作 / 地址')],
    columns: [at(), col('username', '用户', 'text', { width: 110, sortable: true }), col('menu', '菜单', 'text', { width: 140 }), col('operation', '操作', 'text', { width: 160 }), col('method', '方法', 'text', { width: 70 }),
      col('uri', '地址', 'text', { width: 260 }), col('result', '结果', 'text', { width: 80 })],
    rowKey: 'id', defaultSort: { key: 'at', order: 'desc' },
  },
  {
    code: 'deviceOperationRecord', title: '设备操作记录', description: '项目设备的每条指令与变更：谁、何时、做了什么、结果',
    filters: [f.period('week'), f.deviceType(), f.keyword('设备编号 / 名称')],
    columns: [at(), col('deviceCode', '设备编号', 'text', { width: 180 }), col('deviceName', '设备名称', 'text', { width: 160 }), col('deviceType', '设备类型', 'text', { width: 140 }),
      col('operation', '操作', 'text', { width: 120 }), col('detail', '内容', 'text', { width: 240 }), col('result', '结果', 'text', { width: 90 }), col('operator', '操作人', 'text', { width: 110 })],
    rowKey: 'id', defaultSort: { key: 'at', order: 'desc' },
  },
];

export const REPORTS: readonly ReportDef[] = ENTRIES;
export const REPORT_BY_CODE: ReadonlyMap<string, ReportDef> = new Map(ENTRIES.map((r) => [r.code, r]));
/** The tabs a report screen shows after its own entry (datastats: ranking, run hours, groups, temperatures). */
export const reportTabs = (code: string): ReportDef[] => ENTRIES.filter((r) => r.tabOf === code);
/** The menu code whose permission a report's data needs: its own, or its screen's for a tab. */
export const reportMenuCode = (r: ReportDef): string => r.tabOf ?? r.code;

export { DATACENTER_WORKFLOW_CODES } from './menus.ts';

// ---------------------------------------------------------------- the wire

/** Report query parameters: any entry's filters (validated per entry on the server), the page and the sort. */
export const reportQuery = pageQuery.extend({
  projectId: decimal(z.number({ error: '请选择项目' }).int().positive('请选择项目')),
  from: decimal(z.number({ error: '开始时间无效' }).int().nonnegative()).optional(),
  to: decimal(z.number({ error: '结束时间无效' }).int().nonnegative()).optional(),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式为 YYYY-MM').optional(),
  year: decimal(z.number({ error: '年份无效' }).int().min(2000, '年份无效').max(2100, '年份无效')).optional(),
  grain: z.enum(['hour', 'day', 'month'], { error: '统计粒度只能是按小时、按日或按月' }).optional(),
  areaId: decimal(z.number().int().positive()).optional(),
  groupId: decimal(z.number().int().positive()).optional(),
  deviceType: z.string().trim().max(32).optional(),
  counter: z.enum(Object.keys(ENERGY_COUNTERS) as [EnergyCounter, ...EnergyCounter[]], { error: '能源类型无效' }).optional(),
  keyword: z.string().trim().max(64, '关键字最多 64 个字').optional(),
  status: z.string().trim().max(32).optional(),
  method: z.string().trim().max(32).optional(),
  kind: z.string().trim().max(32).optional(),
  sortBy: z.string().trim().max(32).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
});
export type ReportQuery = z.infer<typeof reportQuery>;
export const reportExportQuery = reportQuery.omit({ pageNo: true, pageSize: true });

export type ReportValue = string | number | null;
export type ReportRow = Record<string, ReportValue>;

/** Chart data over everything the filters select: x labels and one array per series key. */
export interface ReportChartData {
  x: string[];
  /** null: no data for that point (a gap, not a zero) */
  series: Record<string, (number | null)[]>;
}

export interface ReportPage {
  total: number;
  rows: ReportRow[];
  /** sums of the `total` columns over everything the filters select */
  totals: Record<string, number>;
  chart?: ReportChartData;
  /** what the reader should know about the numbers (devices without readings, meters replaced, …) */
  notes: string[];
  /** the filters as applied, in words (for print and export headers) */
  applied: { label: string; value: string }[];
}

/** A period preset → [from, to) in China Standard Time (weeks start on Monday). */
export function periodRange(preset: Exclude<PeriodPreset, 'custom'>, now = Date.now()): [number, number] {
  const CST = 8 * 3600_000;
  const DAY = 86_400_000;
  const local = new Date(now + CST);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  const dayStart = Math.floor((now + CST) / DAY) * DAY - CST;
  switch (preset) {
    case 'today': return [dayStart, dayStart + DAY];
    case 'week': {
      const weekday = (local.getUTCDay() + 6) % 7;
      return [dayStart - weekday * DAY, dayStart + (7 - weekday) * DAY];
    }
    case 'month': return [Date.UTC(y, m, 1) - CST, Date.UTC(y, m + 1, 1) - CST];
    case 'year': return [Date.UTC(y, 0, 1) - CST, Date.UTC(y + 1, 0, 1) - CST];
  }
}

/** A report value as text the way screens, print and export show it (fen → 元 with two decimals). */
export function formatReportValue(value: ReportValue | undefined, format: ReportFormat): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  switch (format) {
    case 'fen': return fenToYuan(value);
    case 'num0': return value.toFixed(0);
    case 'num1': return value.toFixed(1);
    case 'num2': return value.toFixed(2);
    case 'num3': return value.toFixed(3);
    case 'percent': return `${(value * 100).toFixed(1)}%`;
    case 'datetime': return cstText(value, true);
    case 'date': return cstText(value, false);
    default: return String(value);
  }
}

function cstText(ms: number, withTime: boolean): string {
  const d = new Date(ms + 8 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}`;
  return withTime ? `${date} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}` : date;
}

// ---------------------------------------------------------------- datademo (数据示例): one device field's readings

/** Raw readings for periods up to 7 days; up to 62 days hourly means, up to two years daily means (device roll-ups). */
export const DATADEMO_RAW_MAX_MS = 7 * 86_400_000;
export const DATADEMO_HOURLY_MAX_MS = 62 * 86_400_000;
export const DATADEMO_MAX_RANGE_MS = 2 * 366 * 86_400_000;
export type DatademoResolution = 'raw' | 'hour' | 'day';
export const datademoResolution = (from: number, to: number): DatademoResolution =>
  (to - from <= DATADEMO_RAW_MAX_MS ? 'raw' : to - from <= DATADEMO_HOURLY_MAX_MS ? 'hour' : 'day');

export const datademoDeviceQuery = z.object({
  projectId: decimal(z.number({ error: '请选择项目' }).int().positive('请选择项目')),
  keyword: z.string().trim().max(64, '关键字最多 64 个字').optional(),
});

/** A device of the project with its numeric fields (what the explorer can chart). */
export interface DatademoDevice {
  id: number;
  deviceCode: string;
  deviceName: string;
  typeName: string;
  location: string;
  fields: { code: string; label: string; unit: string }[];
}

export const datademoSeriesQuery = z.object({
  deviceId: decimal(z.number({ error: '请选择设备' }).int().positive('请选择设备')),
  field: z.string({ error: '请选择字段' }).regex(/^f\d{2}$/, '字段不存在'),
  from: decimal(z.number({ error: '开始时间无效' }).int().nonnegative()),
  to: decimal(z.number({ error: '结束时间无效' }).int().nonnegative()),
});
export const datademoReadingsQuery = pageQuery.extend(datademoSeriesQuery.shape);

/** Every reading of the period for the chart ([ms, value], oldest first). */
export interface DatademoSeries {
  field: string;
  label: string;
  unit: string;
  from: number;
  to: number;
  /** raw readings, or the mean of each hour / day (from the roll-ups) */
  resolution: DatademoResolution;
  points: [number, number][];
}
