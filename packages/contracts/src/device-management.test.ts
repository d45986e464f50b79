import { describe, expect, it } from 'vitest';
import { DEVICE_TYPES, DEVICE_TYPE_BY_CODE, fieldOf } from './device-registry.ts';
import { FACTORY_BENCH_BY_CODE, hostSchema, midValue, onlineHistoryQuery, portSchema } from './device-management.ts';

const def = (code: string) => DEVICE_TYPE_BY_CODE.get(code)!;
const labels = (bench: string, type: string) => FACTORY_BENCH_BY_CODE.get(bench)!.script(def(type)).map((s) => s.label);

describe('出厂测试脚本', () => {
  it('a floor-heating thermostat is not asked for cooling or ventilation; 恢复上次 is not a mode', () => {
    const steps = labels('testEquipment_n', 'device20020');
    expect(steps).toEqual(['在线检查', '电源：开机', '运行模式：制热（空调）', '运行模式：地暖制热', '运行模式：节能', '运行模式：循环',
      '设定温度：25.0 °C', '刷新数据', '数据上报：室内温度、地面温度、阀门状态', '电源：关机']);
  });

  it('each bench takes only the types it can test, and scripts their own fields', () => {
    const accepted = (bench: string) => DEVICE_TYPES.filter((t) => FACTORY_BENCH_BY_CODE.get(bench)!.accepts(t)).map((t) => t.code);
    expect(accepted('testSolarEquipment')).toEqual(['deviceSolar_n']);
    expect(accepted('testAirCabinetControllerEquipment')).toEqual(['AirCabinetController']);
    expect(accepted('testBLDCXEquipment')).toContain('device20040');
    expect(accepted('testBLDCXEquipment')).not.toContain('device20090');
    expect(labels('testBLDCXEquipment', 'device20040')).toEqual(['在线检查', '电源：开机', '风速：自动', '风速：低速', '风速：中速', '风速：高速', '设定温度：25.0 °C', '电源：关机']);
    expect(labels('testSolarEquipment', 'deviceSolar_n')).toEqual(['在线检查', '逆变器：开机', '刷新数据', '数据上报：运行状态、发电功率、当日发电量、累计发电量、逆变器温度', '逆变器：关机']);
    // a meter has nothing to switch: online, refresh, readings
    expect(labels('testEquipment_n', 'device20090')).toEqual(['在线检查', '刷新数据', '数据上报：累计电能、有功功率、A相电压、A相电流、功率因数']);
    // a heat pump: its own mode field and water set point
    expect(labels('testEquipment_n', 'device20050')).toContain('出水温度设定：43 °C');
    expect(labels('testEquipment_n', 'device20050')).toContain('运行模式：热水');
  });

  it('the set point is the middle of the range, on its step', () => {
    expect(midValue(fieldOf('device20000', 'f04')!)).toBe(25);
    expect(midValue(fieldOf('device20050', 'f41')!)).toBe(43);
    expect(midValue(fieldOf('balanceValve', 'f80')!)).toBe(50);
  });
});

describe('地址与范围校验', () => {
  it('accepts host names and IPv4, refuses URLs, ports inside, spaces', () => {
    for (const ok of ['iot.example.cn', '10.0.0.8', 'mqtt-1.local', 'localhost']) expect(hostSchema.safeParse(ok).success).toBe(true);
    for (const bad of ['http://x.cn', 'x.cn:1883', 'a b', '-x.cn', '']) expect(hostSchema.safeParse(bad).success).toBe(false);
    expect(portSchema.safeParse('1883').data).toBe(1883);
    expect(portSchema.safeParse(0).error?.issues[0].message).toBe('端口范围为 1～65535');
  });

  it('online history ranges: from before to, at most 31 days', () => {
    expect(onlineHistoryQuery.safeParse({ from: 1, to: 2 }).success).toBe(true);
    expect(onlineHistoryQuery.safeParse({ from: 2, to: 1 }).error?.issues[0].message).toBe('开始时间必须早于结束时间');
    expect(onlineHistoryQuery.safeParse({ from: 0, to: 32 * 86_400_000 }).error?.issues[0].message).toBe('时间范围最长 31 天');
  });
});
