import { describe, expect, it } from 'vitest';
import { MENUS, MENU_BY_CODE } from './menus.ts';
import {
  DEVICE_TYPES, DEVICE_TYPE_BY_CODE, allowedRange, deviceTypeName, deviceTypesForProjectType, fieldDisplay, fieldOf, narrowedField, validateFieldWrite,
} from './device-registry.ts';
import { PROJECT_TYPES } from './area.ts';

const deviceRoutes = MENUS.filter((m) => m.parent === 'deviceTypes').map((m) => m.code);

describe('设备类型注册表', () => {
  it('has one entry per device route of the menu, named as the menu, plus gateway and manager', () => {
    expect(deviceRoutes.length).toBe(26);
    for (const code of deviceRoutes) {
      const def = DEVICE_TYPE_BY_CODE.get(code);
      expect(def, code).toBeDefined();
      expect(def!.name).toBe(MENU_BY_CODE.get(code)!.title);
    }
    expect(DEVICE_TYPE_BY_CODE.get('gateway')?.name).toBe('网关');
    expect(DEVICE_TYPE_BY_CODE.get('manager')?.name).toBe('管理器');
    expect(DEVICE_TYPES.length).toBe(28);
  });

  it('every entry has a real schema: fields with labels, ranges for numbers, labels for enums, list fields that exist', () => {
    for (const t of DEVICE_TYPES) {
      expect(t.fields.length, t.code).toBeGreaterThanOrEqual(4);
      expect(new Set(t.fields.map((f) => f.code)).size, `${t.code} duplicate field`).toBe(t.fields.length);
      for (const f of t.fields) {
        expect(f.code).toMatch(/^f\d{2}$/);
        expect(f.label).toMatch(/[\u4e00-\u9fa5]|PM2\.5/);
        if (f.kind === 'number') {
          expect(f.min, `${t.code}.${f.code}`).toBeTypeOf('number');
          expect(f.max, `${t.code}.${f.code}`).toBeGreaterThan(f.min!);
        }
        if (f.kind === 'enum') expect(Object.keys(f.options ?? {}).length, `${t.code}.${f.code}`).toBeGreaterThanOrEqual(2);
        if (f.sim.mode === 'follow' || f.sim.mode === 'integrate') {
          const other = f.sim.mode === 'follow' ? f.sim.target : f.sim.of;
          expect(fieldOf(t, other), `${t.code}.${f.code} → ${other}`).toBeDefined();
        }
      }
      for (const c of t.listFields) expect(fieldOf(t, c), `${t.code} list ${c}`).toBeDefined();
      expect(t.heartbeatSeconds).toBeGreaterThan(t.reportSeconds);
    }
  });

  it('the thermostat fields carry the spec §4 labels and ranges', () => {
    const t = DEVICE_TYPE_BY_CODE.get('device20000')!;
    const f = (c: string) => fieldOf(t, c)!;
    expect(f('f00').options).toEqual({ 0: '关机', 1: '开机' });
    expect(f('f01').options).toEqual({ 0: '制冷', 1: '制热（空调）', 2: '通风', 3: '地暖制热', 4: '节能', 5: '循环', 6: '恢复上次' });
    expect(f('f02').options).toEqual({ 0: '自动', 1: '低速', 2: '中速', 3: '高速' });
    expect(f('f10').options).toEqual({ 0: '未锁定', 1: '半锁', 2: '全锁', 3: '禁用' });
    expect(f('f14').options).toEqual({ 0: '停止', 1: '继续运行' });
    expect(f('f45').options).toEqual({ 0: '夏季', 1: '冬季', 2: '双供', 3: '标准' });
    expect([f('f04').min, f('f04').max]).toEqual([10, 40]);
    expect([f('f05').min, f('f05').max]).toEqual([-9, 9]);
    expect([f('f18').min, f('f18').max]).toEqual([1, 5]);
    expect([f('f12').min, f('f12').max]).toEqual([5, 15]);
    expect([f('f13').min, f('f13').max]).toEqual([25, 90]);
    expect(f('f28').kind).toBe('time');
    expect(f('f29').kind).toBe('time');
  });

  it('billing thermostats have run time per fan speed and a time-equivalent; meters have cumulative readings', () => {
    const ac = DEVICE_TYPE_BY_CODE.get('device20030')!;
    expect(['f20', 'f21', 'f22', 'f23'].map((c) => fieldOf(ac, c)?.label)).toEqual(['低速运行时间', '中速运行时间', '高速运行时间', '时间当量']);
    expect(fieldOf('calorimeter', 'f60')?.unit).toBe('GJ');
    expect(fieldOf('device20090', 'f70')?.label).toBe('累计电能');
    expect(fieldOf('deviceSolar_n', 'f90')?.sim.mode).toBe('daylight');
    expect(fieldOf('balanceValve', 'f80')?.label).toBe('开度设定');
    expect(DEVICE_TYPE_BY_CODE.get('device4GHeating')?.sleeps).toBe(true);
    expect(DEVICE_TYPE_BY_CODE.get('device20020')?.sleeps).toBe(false);
  });

  it('the project types of a type include the menu rule of spec §6, and every device type is used by some project type', () => {
    for (const t of DEVICE_TYPES) {
      const menu = MENU_BY_CODE.get(t.code);
      if (menu?.projectTypes) expect(t.projectTypes.slice().sort(), t.code).toEqual(expect.arrayContaining(menu.projectTypes));
      for (const pt of t.projectTypes) expect(PROJECT_TYPES.map((p) => p.code)).toContain(pt);
    }
    const pt1011 = deviceTypesForProjectType('PT1011').map((t) => t.code);
    expect(pt1011).toEqual(expect.arrayContaining(['device20020', 'gateway', 'manager']));
    expect(pt1011).not.toContain('device20030');
    expect(deviceTypesForProjectType('PT2015').map((t) => t.code)).toContain('device20030V2');
    expect(deviceTypesForProjectType(null).map((t) => t.code)).toEqual(['gateway', 'manager']);
  });
});

describe('fieldDisplay', () => {
  it('renders enum labels, units, HH:MM and 未知状态', () => {
    expect(fieldDisplay('device20000', 'f01', 3)).toBe('地暖制热');
    expect(fieldDisplay('device20000', 'f00', '1')).toBe('开机');
    expect(fieldDisplay('device20000', 'f04', 24)).toBe('24.0 °C');
    expect(fieldDisplay('device20000', 'f05', -3)).toBe('-3 °C');
    expect(fieldDisplay('device20000', 'f28', '7:05')).toBe('07:05');
    expect(fieldDisplay('device20000', 'f29', 1320)).toBe('22:00');
    expect(fieldDisplay('balanceValve', 'f80', 65)).toBe('65%');
    expect(fieldDisplay('calorimeter', 'f60', 12.34567)).toBe('12.346 GJ');
    expect(fieldDisplay('device20000', 'f77', 1)).toBe('未知状态');
    expect(fieldDisplay('device20000', 'f01', 9)).toBe('未知状态');
    expect(fieldDisplay('device20000', 'f28', '25:00')).toBe('未知状态');
    expect(fieldDisplay('nosuchtype', 'f00', 1)).toBe('未知状态');
    expect(fieldDisplay('device20000', 'f04', null)).toBe('—');
  });
});

describe('validateFieldWrite', () => {
  it('accepts values inside the range and normalises them', () => {
    expect(validateFieldWrite('device20000', 'f04', '24')).toMatchObject({ ok: true, value: 24 });
    expect(validateFieldWrite('device20000', 'f04', '10')).toMatchObject({ ok: true, value: 10 });
    expect(validateFieldWrite('device20000', 'f04', '40')).toMatchObject({ ok: true, value: 40 });
    expect(validateFieldWrite('device20000', 'f04', '22.5')).toMatchObject({ ok: true, value: 22.5 });
    expect(validateFieldWrite('device20000', 'f05', '-9')).toMatchObject({ ok: true, value: -9 });
    expect(validateFieldWrite('device20000', 'f01', '6')).toMatchObject({ ok: true, value: 6 });
    expect(validateFieldWrite('device20000', 'f28', '7:30')).toMatchObject({ ok: true, value: '07:30' });
    expect(validateFieldWrite('balanceValve', 'f80', 100)).toMatchObject({ ok: true, value: 100 });
  });

  it('accepts plain decimal numbers only: hex, exponents, blanks and signs are not 25', () => {
    for (const text of ['0x19', '2.5e1', ' 25', '25 ', '+25', '25.', '.5', 'Infinity', '1e309']) {
      expect(validateFieldWrite('device20000', 'f04', text).ok, text).toBe(false);
    }
    expect(validateFieldWrite('device20000', 'f01', '0x1').ok).toBe(false);
    expect(validateFieldWrite('device20000', 'f04', '25')).toMatchObject({ ok: true, value: 25 });
  });

  it('refuses out-of-range values with a Chinese message naming the allowed range', () => {
    const r = validateFieldWrite('device20000', 'f04', '41');
    expect(r).toEqual({ ok: false, message: '「设定温度」取值范围为 10～40 °C，步长 0.5' });
    expect(validateFieldWrite('device20000', 'f04', '9.5').ok).toBe(false);
    expect(validateFieldWrite('device20000', 'f04', '22.3').ok).toBe(false);
    expect(validateFieldWrite('device20000', 'f04', 'abc').ok).toBe(false);
    expect(validateFieldWrite('device20000', 'f04', '').ok).toBe(false);
    expect(validateFieldWrite('device20000', 'f05', '10')).toEqual({ ok: false, message: '「温度校正」取值范围为 -9～9 °C' });
    expect(validateFieldWrite('device20000', 'f18', '0')).toMatchObject({ ok: false, message: expect.stringContaining('1～5') });
    expect(validateFieldWrite('device20000', 'f12', '16')).toMatchObject({ ok: false, message: expect.stringContaining('5～15') });
    expect(validateFieldWrite('device20000', 'f13', '24')).toMatchObject({ ok: false, message: expect.stringContaining('25～90') });
    expect(validateFieldWrite('device20000', 'f02', '4')).toEqual({ ok: false, message: '「风速」只能取 0（自动）、1（低速）、2（中速）、3（高速）' });
    expect(validateFieldWrite('device20000', 'f01', '1.5').ok).toBe(false);
    expect(validateFieldWrite('device20000', 'f28', '24:00')).toEqual({ ok: false, message: '「定时开机」应为 HH:MM（00:00～23:59）' });
    expect(validateFieldWrite('device20000', 'f03', '20')).toEqual({ ok: false, message: '「室内温度」是只读数据，不能写入' });
    expect(validateFieldWrite('device20000', 'f99', '1')).toMatchObject({ ok: false, message: expect.stringContaining('没有字段 f99') });
    expect(validateFieldWrite('nosuch', 'f00', '1')).toMatchObject({ ok: false });
  });

  it('the device\'s own limits narrow the set-point range (f12/f13), for one device or every device of a batch', () => {
    const device = { f12: 5, f13: 35 };
    expect(validateFieldWrite('device20000', 'f04', 40, [device])).toEqual({ ok: false, message: '「设定温度」取值范围为 10～35 °C，步长 0.5' });
    expect(validateFieldWrite('device20000', 'f04', 35, [device])).toMatchObject({ ok: true, value: 35 });
    expect(narrowedField(fieldOf('device20000', 'f04')!, [device, { f12: 12, f13: 30 }, {}])).toMatchObject({ min: 12, max: 30 });
    // no limits reported, contradictory limits, or a field without limits: the registry range
    expect(narrowedField(fieldOf('device20000', 'f04')!, [{}])).toMatchObject({ min: 10, max: 40 });
    expect(narrowedField(fieldOf('device20000', 'f04')!, [{ f12: 15, f13: 35 }, { f12: 5, f13: 12 }])).toMatchObject({ min: 10, max: 40 });
    expect(narrowedField(fieldOf('device20000', 'f05')!, [device])).toBe(fieldOf('device20000', 'f05'));
  });

  it('allowedRange phrases each kind', () => {
    expect(allowedRange(fieldOf('device20000', 'f00')!)).toBe('0（关机）、1（开机）');
    expect(allowedRange(fieldOf('balanceValve', 'f80')!)).toBe('0～100%');
  });
});

describe('a new device type', () => {
  it('takes its name from its menu row, and without one the error says what to add and where', () => {
    expect(deviceTypeName('device20020')).toBe('地暖温控器');
    expect(() => deviceTypeName('device99999', () => undefined)).toThrow(/menus\.ts.*deviceTypes.*\['device99999', '中文名称', MONITOR\]/);
  });
});
