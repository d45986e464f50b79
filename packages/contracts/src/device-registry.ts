import { parseDecimal } from './common.ts';
import { MENU_BY_CODE } from './menus.ts';
import { UNKNOWN_STATUS, type DeviceAction, type DeviceCategory, type DeviceTypeDef, type FieldDef, type FieldSim } from './device-types.ts';

/**
 * The device type registry (design §7): one entry per device route of spec §2.3/§2.5 plus gateways and managers.
 * Names are the menu titles, so the sidebar, the monitor page and the API always agree.
 */

// ── field builders ────────────────────────────────────────────────────────────────────────────────────────────────
type Extra = Partial<Omit<FieldDef, 'code' | 'label' | 'kind'>>;
const STATIC: FieldSim = { mode: 'static' };

function enumField(code: string, label: string, options: Record<string, string>, writable: boolean, initial: number, extra: Extra = {}): FieldDef {
  return { code, label, kind: 'enum', options, writable, initial, sim: STATIC, ...extra };
}
function num(code: string, label: string, unit: string, min: number, max: number, step: number, writable: boolean, initial: number, sim: FieldSim = STATIC, extra: Extra = {}): FieldDef {
  return { code, label, kind: 'number', unit, min, max, step, writable, initial, sim, ...extra };
}
function time(code: string, label: string, initial: string): FieldDef {
  return { code, label, kind: 'time', writable: true, initial, sim: STATIC };
}
const walk = (base: number, jitter: number): FieldSim => ({ mode: 'walk', base, jitter });
const acc = (perHour: number, when?: Record<string, number[]>): FieldSim => ({ mode: 'accumulate', perHour, ...(when && { when }) });

const ON_OFF = { 0: '关机', 1: '开机' };
const OPEN_CLOSED = { 0: '关', 1: '开' };

/** The thermostat fields of spec §4, with the labels and ranges it fixes. */
const T = {
  f00: enumField('f00', '电源', ON_OFF, true, 1),
  f01: enumField('f01', '运行模式', { 0: '制冷', 1: '制热（空调）', 2: '通风', 3: '地暖制热', 4: '节能', 5: '循环', 6: '恢复上次' }, true, 1),
  f02: enumField('f02', '风速', { 0: '自动', 1: '低速', 2: '中速', 3: '高速' }, true, 0),
  f03: num('f03', '室内温度', '°C', -20, 60, 0.1, false, 17, { mode: 'follow', target: 'f04', rate: 1.5 }),
  f04: num('f04', '设定温度', '°C', 10, 40, 0.5, true, 22, STATIC, { limits: { min: 'f12', max: 'f13' } }),
  f05: num('f05', '温度校正', '°C', -9, 9, 1, true, 0),
  f06: enumField('f06', '阀门状态', OPEN_CLOSED, false, 0, { sim: { mode: 'demand', actual: 'f03', target: 'f04' } }),
  f08: num('f08', '地面温度', '°C', -20, 90, 0.1, false, 24, walk(26, 0.4)),
  f10: enumField('f10', '锁定', { 0: '未锁定', 1: '半锁', 2: '全锁', 3: '禁用' }, true, 0),
  f12: num('f12', '最低温度', '°C', 5, 15, 1, true, 5),
  f13: num('f13', '最高温度', '°C', 25, 90, 1, true, 35),
  f14: enumField('f14', '达温后风机', { 0: '停止', 1: '继续运行' }, true, 0),
  f18: num('f18', '回差', '°C', 1, 5, 1, true, 1),
  f28: time('f28', '定时开机', '07:00'),
  f29: time('f29', '定时关机', '22:00'),
  f45: enumField('f45', '季节模式', { 0: '夏季', 1: '冬季', 2: '双供', 3: '标准' }, true, 1),
};

/** Billing thermostats: run time per fan speed counts only while the valve is open; T_eq = Σ k × t (design §8). */
const OPEN = { f06: [1] };
const BILLING = {
  f20: num('f20', '低速运行时间', 'h', 0, 1e7, 0.01, false, 0, acc(1, { ...OPEN, f02: [1] })),
  f21: num('f21', '中速运行时间', 'h', 0, 1e7, 0.01, false, 0, acc(1, { ...OPEN, f02: [0, 2] })),
  f22: num('f22', '高速运行时间', 'h', 0, 1e7, 0.01, false, 0, acc(1, { ...OPEN, f02: [3] })),
  f23: num('f23', '时间当量', 'h', 0, 1e7, 0.01, false, 0, { mode: 'sum', of: { f20: 0.6, f21: 0.8, f22: 1 } }),
  f24: num('f24', '能量当量', 'kWh', 0, 1e8, 0.01, false, 0, { mode: 'sum', of: { f20: 2.1, f21: 2.8, f22: 3.5 } }),
};

const SIGNAL = num('f31', '信号强度', 'dBm', -120, -40, 1, false, -78, walk(-78, 3));
const BATTERY = num('f32', '电池电压', 'V', 3, 4.2, 0.01, false, 3.6, walk(3.6, 0.01));
const VALVE_OPEN_HOURS = num('f30', '累计通阀时间', 'h', 0, 1e7, 0.01, false, 0, acc(1, OPEN));

/** Heat meters (CJ/T 188 style readings). */
const HEAT = {
  f60: num('f60', '累计热量', 'GJ', 0, 1e8, 0.001, false, 12.5, acc(0.022)),
  f61: num('f61', '瞬时流量', 'm³/h', 0, 100, 0.001, false, 0.45, walk(0.45, 0.03)),
  f62: num('f62', '累计流量', 'm³', 0, 1e8, 0.01, false, 860, acc(0.45)),
  f63: num('f63', '供水温度', '°C', 0, 130, 0.1, false, 45, walk(45, 0.4)),
  f64: num('f64', '回水温度', '°C', 0, 130, 0.1, false, 35, walk(35, 0.4)),
  f65: num('f65', '供回水温差', '°C', -50, 130, 0.1, false, 10, { mode: 'sum', of: { f63: 1, f64: -1 } }),
  f66: num('f66', '热功率', 'kW', 0, 1e4, 0.01, false, 5.2, walk(5.2, 0.3)),
};

/** Electric meters (DL/T 645 style readings). */
const ELECTRIC = {
  f70: num('f70', '累计电能', 'kWh', 0, 1e9, 0.01, false, 1520, acc(1.2)),
  f71: num('f71', '有功功率', 'kW', 0, 1e4, 0.001, false, 1.2, walk(1.2, 0.1)),
  f72: num('f72', 'A相电压', 'V', 0, 500, 0.1, false, 220, walk(220, 1.5)),
  f73: num('f73', 'A相电流', 'A', 0, 1000, 0.01, false, 5.5, walk(5.5, 0.4)),
  f74: num('f74', '功率因数', '', 0, 1, 0.01, false, 0.95, walk(0.95, 0.01)),
  f75: num('f75', 'B相电压', 'V', 0, 500, 0.1, false, 221, walk(221, 1.5)),
  f76: num('f76', 'C相电压', 'V', 0, 500, 0.1, false, 219, walk(219, 1.5)),
  f77: num('f77', 'B相电流', 'A', 0, 1000, 0.01, false, 5.1, walk(5.1, 0.4)),
  f78: num('f78', 'C相电流', 'A', 0, 1000, 0.01, false, 5.3, walk(5.3, 0.4)),
};

const HEAT_PUMP = {
  f40: enumField('f40', '运行模式', { 0: '制冷', 1: '制热', 2: '热水', 3: '自动' }, true, 1),
  f41: num('f41', '出水温度设定', '°C', 25, 60, 1, true, 45),
  f42: num('f42', '出水温度', '°C', -10, 90, 0.1, false, 38, { mode: 'follow', target: 'f41', rate: 6 }),
  f43: num('f43', '回水温度', '°C', -10, 90, 0.1, false, 33, walk(36, 0.5)),
  f44: num('f44', '环境温度', '°C', -40, 50, 0.1, false, 2, walk(2, 0.6)),
  f46: enumField('f46', '压缩机', { 0: '停止', 1: '运行' }, false, 0, { sim: { mode: 'demand', actual: 'f42', target: 'f41' } }),
  f47: enumField('f47', '故障代码', { 0: '正常', 1: '高压保护', 2: '低压保护', 3: '排气温度过高', 4: '水流开关断开', 5: '环境温度传感器故障' }, false, 0),
  f48: num('f48', '累计耗电', 'kWh', 0, 1e9, 0.01, false, 3200, acc(3.5, { f46: [1] })),
};

const VALVE = {
  f80: num('f80', '开度设定', '%', 0, 100, 1, true, 50),
  f81: num('f81', '实际开度', '%', 0, 100, 1, false, 50, { mode: 'follow', target: 'f80', rate: 600 }),
};

/** The week program a memory-program thermostat keeps (automation's encodeProgram text), reported back as written. */
const PROGRAM_FIELD: FieldDef = { code: 'f09', label: '周程序', kind: 'text', writable: true, initial: '', sim: STATIC, maxLength: 4096, hidden: true };

const CHANNELS = (n: number, label: (i: number) => string, options: Record<string, string>) =>
  Array.from({ length: n }, (_, i) => enumField(`f${50 + i}`, label(i + 1), options, true, 1));

const COMMON_ACTIONS: DeviceAction[] = ['refresh', 'reboot', 'syncTime'];

// ── the registry ────────────────────────────────────────────────────────────────────────────────────────────────────
interface Entry {
  category: DeviceCategory;
  projectTypes: string[];
  fields: FieldDef[];
  listFields: string[];
  heartbeatSeconds?: number;
  reportSeconds?: number;
  sleeps?: boolean;
  actions?: DeviceAction[];
  /** keeps a week program in memory, written to this field (see DeviceTypeDef.programField) */
  programField?: string;
  /** project types that have one of these in each building as plant (DeviceTypeDef.plantFor) */
  plantFor?: string[];
  /** cut-off / reconnect writes (DeviceTypeDef.supply); default: power f00 0/1 when the type has a writable f00 */
  supply?: { field: string; off: number; on: number } | null;
}

const WIRED = { heartbeatSeconds: 600, reportSeconds: 30 };
const METER = { heartbeatSeconds: 900, reportSeconds: 60 };
/** 4G devices sleep between wake-ups; a command waits for the next wake-up. */
const CELLULAR = { heartbeatSeconds: 1800, reportSeconds: 120, sleeps: true };

/** Gateways and managers: how many devices they serve, uptime, storage use, firmware. */
function hub(category: 'gateway' | 'manager', subLabel: string, maxSub: number, subs: number, storage: number, firmware: string): Entry {
  return {
    category, projectTypes: [], heartbeatSeconds: 300, reportSeconds: 60,
    fields: [
      num('f96', subLabel, '台', 0, maxSub, 1, false, subs),
      num('f97', '运行时长', 'h', 0, 1e7, 0.01, false, 0, acc(1)),
      num('f99', '存储使用率', '%', 0, 100, 1, false, storage, walk(storage, 0.5)),
      { code: 'f98', label: '固件版本', kind: 'text', writable: false, initial: firmware, sim: STATIC },
    ],
    listFields: ['f96', 'f97', 'f99', 'f98'],
  };
}

const ENTRIES: Record<string, Entry> = {
  device20000: {
    category: 'thermostat', projectTypes: ['PT1012', 'PT5030'], ...WIRED,
    fields: [T.f00, T.f01, T.f02, T.f03, T.f04, T.f05, T.f06, T.f10, T.f12, T.f13, T.f14, T.f18, T.f28, T.f29, T.f45, VALVE_OPEN_HOURS],
    listFields: ['f00', 'f01', 'f03', 'f04', 'f02', 'f06'],
  },
  device20020: {
    category: 'thermostat', projectTypes: ['PT1011', 'PT1012', 'PT1014'], ...WIRED,
    fields: [T.f00, { ...T.f01, initial: 3 }, T.f03, T.f04, T.f05, T.f06, T.f08, T.f10, T.f12, T.f13, T.f18, T.f28, T.f29, T.f45, VALVE_OPEN_HOURS, PROGRAM_FIELD],
    listFields: ['f00', 'f01', 'f03', 'f04', 'f08', 'f06', 'f10'],
    programField: PROGRAM_FIELD.code,
  },
  device20030: {
    category: 'billingThermostat', projectTypes: ['PT2010', 'PT2016', 'PT2014'], ...WIRED,
    fields: [T.f00, T.f01, T.f02, T.f03, T.f04, T.f05, T.f06, T.f10, T.f14, T.f18, T.f45, BILLING.f20, BILLING.f21, BILLING.f22, BILLING.f23],
    listFields: ['f00', 'f01', 'f02', 'f03', 'f04', 'f06', 'f23'],
  },
  device20030V2: {
    category: 'billingThermostat', projectTypes: ['PT2015'], ...WIRED,
    fields: [T.f00, T.f01, T.f02, T.f03, T.f04, T.f05, T.f06, T.f10, T.f14, T.f18, T.f28, T.f29, T.f45, BILLING.f20, BILLING.f21, BILLING.f22, BILLING.f23, BILLING.f24],
    listFields: ['f00', 'f01', 'f02', 'f03', 'f04', 'f23', 'f24'],
  },
  device20040: {
    category: 'thermostat', projectTypes: ['PT2010', 'PT2016', 'PT5030'], ...WIRED,
    fields: [T.f00, T.f01, T.f02, T.f03, T.f04, T.f05, T.f06, T.f10, T.f14, T.f18, T.f28, T.f29, T.f45],
    listFields: ['f00', 'f01', 'f02', 'f03', 'f04', 'f06'],
  },
  device20050: {
    category: 'heatPump', projectTypes: ['PT5030'], ...WIRED, actions: [...COMMON_ACTIONS, 'resetAlarm'],
    fields: [T.f00, HEAT_PUMP.f40, HEAT_PUMP.f41, HEAT_PUMP.f42, HEAT_PUMP.f43, HEAT_PUMP.f44, HEAT_PUMP.f46, HEAT_PUMP.f47, HEAT_PUMP.f48],
    listFields: ['f00', 'f40', 'f41', 'f42', 'f43', 'f46', 'f47'],
  },
  device20070: {
    category: 'distributor', projectTypes: ['PT5010', 'PT5030'], ...METER,
    fields: [
      enumField('f00', '总开关', { 0: '分闸', 1: '合闸' }, true, 1),
      ...CHANNELS(4, (i) => `第${i}回路`, { 0: '断开', 1: '闭合' }),
      ELECTRIC.f70, ELECTRIC.f71, ELECTRIC.f72, ELECTRIC.f73,
    ],
    listFields: ['f00', 'f50', 'f51', 'f52', 'f53', 'f71', 'f70'],
  },
  device20090: {
    category: 'electricMeter', projectTypes: ['PT5010', 'PT5030'], plantFor: ['PT2010', 'PT2014'], ...METER, actions: [...COMMON_ACTIONS, 'resetCounters'],
    fields: [ELECTRIC.f70, ELECTRIC.f71, ELECTRIC.f72, ELECTRIC.f73, ELECTRIC.f74],
    listFields: ['f70', 'f71', 'f72', 'f73', 'f74'],
  },
  device20110: {
    category: 'billingThermostat', projectTypes: ['PT2012'], ...WIRED,
    fields: [T.f00, T.f01, T.f02, T.f03, T.f04, T.f06, T.f10, BILLING.f20, BILLING.f21, BILLING.f22, BILLING.f23, BILLING.f24],
    listFields: ['f00', 'f01', 'f02', 'f03', 'f04', 'f23', 'f24'],
  },
  device20120: {
    category: 'valve', projectTypes: ['PT4020'], ...METER,
    fields: [
      VALVE.f80, VALVE.f81,
      enumField('f82', '控制方式', { 0: '手动开度', 1: '恒流量', 2: '恒回水温度', 3: '恒温差' }, true, 0),
      num('f83', '控制目标值', '', 0, 100, 0.1, true, 0),
      HEAT.f61, HEAT.f63, HEAT.f64, HEAT.f65,
    ],
    listFields: ['f80', 'f81', 'f82', 'f61', 'f63', 'f64'],
  },
  device20130: {
    category: 'heatPump', projectTypes: ['PT5030'], ...WIRED, actions: [...COMMON_ACTIONS, 'resetAlarm'],
    fields: [T.f00, HEAT_PUMP.f40, HEAT_PUMP.f41, HEAT_PUMP.f42, HEAT_PUMP.f44, HEAT_PUMP.f46, HEAT_PUMP.f47, HEAT_PUMP.f48, T.f03, T.f04],
    listFields: ['f00', 'f40', 'f41', 'f42', 'f03', 'f46', 'f47'],
  },
  device20150: {
    category: 'thermostat', projectTypes: ['PT2010', 'PT5030'], ...WIRED,
    fields: [
      T.f00, T.f02, T.f10, num('f03', '室内温度', '°C', -20, 60, 0.1, false, 24, walk(24, 0.3)),
      num('f84', 'PM2.5', 'µg/m³', 0, 999, 1, false, 35, walk(35, 4)),
      num('f85', '二氧化碳', 'ppm', 300, 5000, 1, false, 650, walk(650, 40)),
      num('f86', '相对湿度', '%', 0, 100, 1, false, 45, walk(45, 2)),
    ],
    listFields: ['f00', 'f02', 'f03', 'f84', 'f85', 'f86'],
  },
  device618_n: {
    category: 'thermostat', projectTypes: ['PT1011', 'PT1012', 'PT1014'], ...WIRED,
    fields: [T.f00, T.f01, T.f02, T.f03, T.f04, T.f05, T.f06, T.f10, T.f12, T.f13, T.f18, VALVE_OPEN_HOURS],
    listFields: ['f00', 'f01', 'f03', 'f04', 'f06', 'f10'],
  },
  device801_n: {
    category: 'onOffController', projectTypes: ['PT1014', 'PT5030'], ...WIRED,
    fields: [T.f00, T.f03, T.f04, ...CHANNELS(8, (i) => `第${i}路阀门`, OPEN_CLOSED)],
    listFields: ['f00', 'f03', 'f04', 'f50', 'f51', 'f52', 'f53'],
  },
  AirCabinetController: {
    category: 'airCabinet', projectTypes: ['PT2016', 'PT5030'], ...WIRED,
    fields: [
      T.f00, T.f01, T.f02, { ...T.f03, initial: 26 }, { ...T.f04, initial: 24 }, T.f05, T.f06, T.f10, T.f14, T.f45,
      num('f86', '相对湿度', '%', 0, 100, 1, false, 50, walk(50, 2)),
      num('f48', '累计耗电', 'kWh', 0, 1e9, 0.01, false, 860, acc(2.4, OPEN)),
    ],
    listFields: ['f00', 'f01', 'f02', 'f03', 'f04', 'f48'],
  },
  deviceSolar_n: {
    category: 'solar', projectTypes: ['PT5020', 'PT5030'], ...METER,
    fields: [
      enumField('f00', '逆变器', ON_OFF, true, 1),
      num('f90', '发电功率', 'kW', 0, 1e4, 0.01, false, 0, { mode: 'daylight', peak: 30 }),
      num('f91', '当日发电量', 'kWh', 0, 1e6, 0.01, false, 0, { mode: 'integrate', of: 'f90', daily: true }),
      num('f92', '累计发电量', 'kWh', 0, 1e10, 0.1, false, 52000, { mode: 'integrate', of: 'f90' }),
      num('f93', '直流电压', 'V', 0, 1500, 0.1, false, 600, walk(600, 6)),
      num('f94', '逆变器温度', '°C', -40, 120, 0.1, false, 40, walk(40, 0.8)),
      enumField('f95', '运行状态', { 0: '待机', 1: '并网发电', 2: '故障' }, false, 0),
    ],
    listFields: ['f00', 'f95', 'f90', 'f91', 'f92', 'f94'],
  },
  device24201_n: {
    category: 'electricMeter', projectTypes: ['PT5010'], ...METER, actions: [...COMMON_ACTIONS, 'resetCounters'],
    fields: [ELECTRIC.f70, ELECTRIC.f71, ELECTRIC.f72, ELECTRIC.f73, ELECTRIC.f74],
    listFields: ['f70', 'f71', 'f72', 'f73'],
  },
  device24202_n: {
    category: 'electricMeter', projectTypes: ['PT5010', 'PT5030'], ...METER, actions: [...COMMON_ACTIONS, 'resetCounters'],
    fields: [
      { ...ELECTRIC.f70, sim: acc(8) }, { ...ELECTRIC.f71, initial: 8, sim: walk(8, 0.6) },
      ELECTRIC.f72, ELECTRIC.f75, ELECTRIC.f76, ELECTRIC.f73, ELECTRIC.f77, ELECTRIC.f78, ELECTRIC.f74,
    ],
    listFields: ['f70', 'f71', 'f72', 'f75', 'f76', 'f74'],
  },
  device4gElectric: {
    category: 'electricMeter', projectTypes: ['PT5010'], ...CELLULAR,
    fields: [enumField('f00', '继电器', { 0: '断开（拉闸）', 1: '闭合（合闸）' }, true, 1), ELECTRIC.f70, ELECTRIC.f71, ELECTRIC.f72, ELECTRIC.f73, SIGNAL],
    listFields: ['f00', 'f70', 'f71', 'f72', 'f31'],
  },
  device4GHeating: {
    category: 'onOffController', projectTypes: ['PT1013', 'PT1015'], ...CELLULAR,
    fields: [T.f00, T.f03, T.f04, T.f06, VALVE_OPEN_HOURS, SIGNAL, BATTERY],
    listFields: ['f00', 'f03', 'f04', 'f06', 'f30', 'f31', 'f32'],
  },
  deviceAG2410: {
    category: 'onOffController', projectTypes: ['PT1013', 'PT1015', 'PT4012'], ...CELLULAR,
    fields: [
      T.f00, T.f03, T.f04, T.f06, VALVE_OPEN_HOURS, SIGNAL,
      enumField('f33', '阀门控制', { 0: '自动', 1: '强制开', 2: '强制关' }, true, 0),
    ],
    listFields: ['f00', 'f03', 'f04', 'f06', 'f33', 'f30', 'f31'],
    supply: { field: 'f33', off: 2, on: 0 },
  },
  deviceAG2420: {
    category: 'billingThermostat', projectTypes: ['PT2013', 'PT2017'], ...CELLULAR,
    fields: [T.f00, T.f01, T.f02, T.f03, T.f04, T.f06, BILLING.f20, BILLING.f21, BILLING.f22, BILLING.f23, SIGNAL],
    listFields: ['f00', 'f01', 'f02', 'f03', 'f04', 'f23', 'f31'],
  },
  calorimeter: {
    category: 'heatMeter', projectTypes: ['PT4010', 'PT4011', 'PT4012'], plantFor: ['PT1013', 'PT1014', 'PT1015'], ...METER,
    fields: [HEAT.f60, HEAT.f61, HEAT.f62, HEAT.f63, HEAT.f64, HEAT.f65, HEAT.f66],
    listFields: ['f60', 'f66', 'f61', 'f63', 'f64', 'f65'],
  },
  calorimeterBy4GRTU: {
    category: 'heatMeter', projectTypes: ['PT4010', 'PT4012'], ...CELLULAR,
    fields: [HEAT.f60, HEAT.f61, HEAT.f62, HEAT.f63, HEAT.f64, HEAT.f65, HEAT.f66, SIGNAL, BATTERY],
    listFields: ['f60', 'f66', 'f63', 'f64', 'f31', 'f32'],
  },
  balanceValve: {
    category: 'valve', projectTypes: ['PT4020', 'PT2014'], ...METER,
    fields: [VALVE.f80, VALVE.f81, HEAT.f61, HEAT.f63, HEAT.f64],
    listFields: ['f80', 'f81', 'f61', 'f63', 'f64'],
  },
  systemController_n: {
    category: 'systemController', projectTypes: ['PT4020', 'PT5030'], ...WIRED, actions: [...COMMON_ACTIONS, 'resetAlarm'],
    fields: [
      enumField('f00', '系统启停', { 0: '停止', 1: '运行' }, true, 1), T.f45, HEAT_PUMP.f41,
      num('f63', '供水温度', '°C', 0, 130, 0.1, false, 42, { mode: 'follow', target: 'f41', rate: 4 }),
      num('f64', '回水温度', '°C', 0, 130, 0.1, false, 36, walk(37, 0.5)),
      num('f87', '运行机组数', '台', 0, 32, 1, false, 2, walk(2, 0.2)),
      num('f88', '系统压力', 'MPa', 0, 2.5, 0.01, false, 0.35, walk(0.35, 0.01)),
      enumField('f47', '故障代码', { 0: '正常', 1: '系统超压', 2: '系统欠压', 3: '主机故障', 4: '循环泵故障' }, false, 0),
    ],
    listFields: ['f00', 'f45', 'f41', 'f63', 'f64', 'f88', 'f47'],
  },
  gateway: hub('gateway', '在线子设备数', 1024, 8, 23, 'V2.3.1'),
  manager: hub('manager', '管理设备数', 4096, 24, 41, 'V1.8.0'),
};

const EXTRA_NAMES: Record<string, string> = { gateway: '网关', manager: '管理器' };
/** Gateways and managers serve every project type. */
const EVERY_PROJECT = new Set(['gateway', 'manager']);

/**
 * A device type's Chinese name is the title of its monitor page in the menu tree (one source for the sidebar, the
 * route and the registry). A new type therefore needs its menu row too; the error says exactly which.
 */
export function deviceTypeName(code: string, menuTitle: (code: string) => string | undefined = (c) => MENU_BY_CODE.get(c)?.title): string {
  const name = menuTitle(code) ?? EXTRA_NAMES[code];
  if (!name) {
    throw new Error(`设备类型 ${code} 没有菜单标题：请在 packages/contracts/src/menus.ts 的「设备类型监控」(deviceTypes) 目录下加一行 `
      + `['${code}', '中文名称', MONITOR]（只属于某些项目类型时加 { projectTypes: [...] }），页面与侧栏随之生成`);
  }
  return name;
}

export const DEVICE_TYPES: readonly DeviceTypeDef[] = Object.entries(ENTRIES).map(([code, e]) => {
  const name = deviceTypeName(code);
  return {
    code,
    name,
    category: e.category,
    projectTypes: e.projectTypes,
    heartbeatSeconds: e.heartbeatSeconds ?? 600,
    reportSeconds: e.reportSeconds ?? 60,
    sleeps: e.sleeps ?? false,
    fields: e.fields,
    listFields: e.listFields,
    actions: e.actions ?? COMMON_ACTIONS,
    programField: e.programField ?? null,
    plantFor: e.plantFor ?? [],
    supply: e.supply !== undefined ? e.supply : e.fields.some((f) => f.code === 'f00' && f.writable) && ['thermostat', 'billingThermostat', 'onOffController', 'electricMeter', 'airCabinet', 'distributor'].includes(e.category)
      ? { field: 'f00', off: 0, on: 1 } : null,
  };
});

export const DEVICE_TYPE_BY_CODE: ReadonlyMap<string, DeviceTypeDef> = new Map(DEVICE_TYPES.map((t) => [t.code, t]));
export const DEVICE_TYPE_CODES = DEVICE_TYPES.map((t) => t.code);

export const DEVICE_CATEGORY_LABELS: Record<DeviceCategory, string> = {
  thermostat: '温控器',
  billingThermostat: '计费温控器',
  heatPump: '热泵',
  heatMeter: '热量表',
  electricMeter: '电能表',
  valve: '阀门',
  solar: '光伏',
  onOffController: '通断控制器',
  airCabinet: '空调柜机',
  distributor: '配电器',
  systemController: '系统控制器',
  gateway: '网关',
  manager: '管理器',
};

export const DEVICE_ACTION_LABELS: Record<DeviceAction, string> = {
  refresh: '刷新数据',
  reboot: '重启设备',
  syncTime: '校准时间',
  resetAlarm: '复位报警',
  resetCounters: '清零累计值',
};

/** Device types a project of this type uses (spec §6 and design §8), gateways and managers included. */
export function deviceTypesForProjectType(projectType: string | null | undefined): DeviceTypeDef[] {
  return DEVICE_TYPES.filter((t) => EVERY_PROJECT.has(t.code) || (projectType != null && t.projectTypes.includes(projectType)));
}

export function fieldOf(type: string | DeviceTypeDef, code: string): FieldDef | undefined {
  const def = typeof type === 'string' ? DEVICE_TYPE_BY_CODE.get(type) : type;
  return def?.fields.find((f) => f.code === code);
}

function decimals(step: number | undefined): number {
  if (step === undefined || step >= 1) return 0;
  return Math.min(4, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
}

/** A number rounded to its field's step precision (floating-point noise never reaches the UI or the database). */
export function roundToStep(field: Pick<FieldDef, 'step'>, value: number): number {
  const f = 10 ** decimals(field.step);
  return Math.round(value * f) / f;
}

/** Chinese rendering of a reported value: enum labels, units, HH:MM; unknown codes and values read 未知状态. */
export function fieldDisplay(type: string | DeviceTypeDef, code: string, value: unknown): string {
  const field = fieldOf(type, code);
  if (!field) return UNKNOWN_STATUS;
  if (value === null || value === undefined || value === '') return '—';
  switch (field.kind) {
    case 'enum':
    case 'bool': {
      const label = field.options?.[String(value)];
      return label ?? UNKNOWN_STATUS;
    }
    case 'time': {
      const t = parseTime(value);
      return t === null ? UNKNOWN_STATUS : formatTime(t);
    }
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) return UNKNOWN_STATUS;
      const text = n.toFixed(decimals(field.step));
      if (!field.unit) return text;
      return field.unit === '%' ? `${text}%` : `${text} ${field.unit}`;
    }
    default:
      return String(value);
  }
}

/** 'HH:MM' (or minutes of the day) → minutes of the day, or null. */
export function parseTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value < 1440 ? value : null;
  if (typeof value !== 'string') return null;
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

export function formatTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The allowed values of a writable field, as a Chinese phrase (used in messages and control hints). */
export function allowedRange(field: FieldDef): string {
  switch (field.kind) {
    case 'enum':
    case 'bool':
      return Object.entries(field.options ?? {}).map(([v, l]) => `${v}（${l}）`).join('、');
    case 'time':
      return 'HH:MM（00:00～23:59）';
    case 'number': {
      const unit = field.unit ? (field.unit === '%' ? '%' : ` ${field.unit}`) : '';
      const step = field.step !== undefined && field.step !== 1 ? `，步长 ${field.step}` : '';
      return `${field.min}～${field.max}${unit}${step}`;
    }
    default:
      return '文本';
  }
}


/**
 * A number field with its registry range narrowed by the devices' own current limits (a thermostat refuses a set
 * point above its f13): the tightest bounds over every device given, so a batch write fits each of them. Devices that
 * have not reported a limit leave the registry bound; contradictory limits leave the registry range.
 */
export function narrowedField(field: FieldDef, devices: readonly Record<string, unknown>[] = []): FieldDef {
  if (field.kind !== 'number' || !field.limits || !devices.length) return field;
  let min = field.min ?? -Infinity;
  let max = field.max ?? Infinity;
  for (const values of devices) {
    const lo = field.limits.min ? parseDecimal(values[field.limits.min]) : NaN;
    const hi = field.limits.max ? parseDecimal(values[field.limits.max]) : NaN;
    if (Number.isFinite(lo)) min = Math.max(min, lo);
    if (Number.isFinite(hi)) max = Math.min(max, hi);
  }
  if (min > max || (min === field.min && max === field.max)) return field;
  return { ...field, min, max };
}

export type FieldWriteCheck = { ok: true; field: FieldDef; value: number | string } | { ok: false; message: string };

/**
 * Server-side check of a field write (spec writedeviceattr): unknown type or field, read-only field, or a value
 * outside the field's range is refused with a Chinese message naming what is allowed; nothing is sent then. With
 * `devices` (their current values) the range is the one narrowedField gives.
 */
export function validateFieldWrite(type: string | DeviceTypeDef, code: string, raw: unknown, devices: readonly Record<string, unknown>[] = []): FieldWriteCheck {
  const def = typeof type === 'string' ? DEVICE_TYPE_BY_CODE.get(type) : type;
  if (!def) return { ok: false, message: `设备类型 ${String(type)} 不存在` };
  const registered = fieldOf(def, code);
  if (!registered) return { ok: false, message: `${def.name}没有字段 ${code}` };
  const field = narrowedField(registered, devices);
  if (!field.writable) return { ok: false, message: `「${field.label}」是只读数据，不能写入` };
  const text = typeof raw === 'string' ? raw.trim() : raw;
  switch (field.kind) {
    case 'time': {
      const t = parseTime(text);
      if (t === null || typeof text !== 'string') return { ok: false, message: `「${field.label}」应为 ${allowedRange(field)}` };
      return { ok: true, field, value: formatTime(t) };
    }
    case 'enum':
    case 'bool': {
      const n = parseDecimal(raw);
      if (!Number.isInteger(n) || field.options?.[String(n)] === undefined) {
        return { ok: false, message: `「${field.label}」只能取 ${allowedRange(field)}` };
      }
      return { ok: true, field, value: n };
    }
    case 'number': {
      const n = parseDecimal(raw);
      const outside = !Number.isFinite(n) || (field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max);
      const offStep = field.step !== undefined && Number.isFinite(n) && Math.abs(n / field.step - Math.round(n / field.step)) > 1e-6;
      if (outside || offStep) return { ok: false, message: `「${field.label}」取值范围为 ${allowedRange(field)}` };
      return { ok: true, field, value: roundToStep(field, n) };
    }
    default: {
      const s = String(text ?? '');
      const max = field.maxLength ?? 64;
      if (s.length > max) return { ok: false, message: `「${field.label}」最多 ${max} 个字符` };
      return { ok: true, field, value: s };
    }
  }
}

/** Fields worth a history chart: the numeric ones. */
/** Set points and states hold their value until the next change (steps); measured values move continuously (lines). */
export function isStepField(field: FieldDef | undefined): boolean {
  return !!field && (field.writable || field.kind === 'enum' || field.kind === 'bool');
}

export function chartFields(def: DeviceTypeDef): FieldDef[] {
  return def.fields.filter((f) => f.kind === 'number');
}
