import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts/device-registry';
import {
  copyDay, decodeProgram, emptyWeek, inForce, sameProgram, nextSlot, segmentColor, segmentLabel, slotsOf, sortSlots, validateWeek, weekOf, weekSegments, type WeekDraft,
} from './week-model';

const def = DEVICE_TYPE_BY_CODE.get('device20020')!;

/** A week whose Monday heats to 22 °C at 07:00 and switches off at 22:00; the other days are empty. */
function mondayOnly(): WeekDraft {
  const w = emptyWeek();
  w[0] = [{ time: '22:00', writes: { f00: 0 } }, { time: '07:00', writes: { f00: 1, f04: 22 } }];
  return w;
}

describe('week program slots', () => {
  it('a valid week has no problems', () => {
    expect(validateWeek(def, mondayOnly())).toEqual([]);
  });

  it('names the day and slot of every problem, in Chinese', () => {
    const w = emptyWeek();
    w[2] = [
      { time: '07:00', writes: { f04: 22 } },
      { time: '07:00', writes: { f04: 23 } }, // same time as the first
      { time: '7:5', writes: { f04: 20 } }, // bad format
      { time: '09:00', writes: {} }, // nothing to set
      { time: '10:00', writes: { f04: 45 } }, // set temperature is 10～40
      { time: '11:00', writes: { f03: 20 } }, // room temperature is read-only
    ];
    expect(validateWeek(def, w).map((p) => [p.day, p.slot, p.message])).toEqual([
      [2, 1, '周三第 2 个时段：与第 1 个时段时间相同（07:00）'],
      [2, 2, '周三第 3 个时段：时间格式为 HH:MM'],
      [2, 3, '周三第 4 个时段：至少设置一个参数'],
      [2, 4, '周三第 5 个时段：「设定温度」取值范围为 10～40 °C，步长 0.5'],
      [2, 5, '周三第 6 个时段：「室内温度」是只读数据，不能写入'],
    ]);
  });

  it('refuses more than 12 slots a day', () => {
    const w = emptyWeek();
    w[6] = Array.from({ length: 13 }, (_, i) => ({ time: `${String(i + 6).padStart(2, '0')}:00`, writes: { f00: 1 } }));
    expect(validateWeek(def, w)).toEqual([{ day: 6, slot: -1, message: '周日最多 12 个时段' }]);
  });

  it('sorts a day by time', () => {
    expect(sortSlots(mondayOnly()[0]!).map((s) => s.time)).toEqual(['07:00', '22:00']);
  });

  it('a new slot comes an hour after the last, with its values; 08:00 on an empty day', () => {
    expect(nextSlot(mondayOnly()[0]!, { f00: 1 })).toEqual({ time: '23:00', writes: { f00: 0 } });
    expect(nextSlot([], { f00: 1, f04: 20 })).toEqual({ time: '08:00', writes: { f00: 1, f04: 20 } });
    expect(nextSlot([{ time: '23:30', writes: { f00: 0 } }], {}).time).toBe('23:59');
  });

  it('copies a day onto others, leaving the rest', () => {
    const w = copyDay(mondayOnly(), 0, [1, 2, 3, 4]);
    expect(w[4]).toEqual(w[0]);
    expect(w[4]).not.toBe(w[0]);
    expect(w[5]).toEqual([]);
  });
});

describe('week timeline', () => {
  it('Monday: off until 07:00 (the week ends off), 22 °C until 22:00, then off; Tuesday carries the off state all day', () => {
    const segs = weekSegments(mondayOnly());
    expect(segs[0]).toEqual([
      { from: 0, to: 420, state: { f00: 0, f04: 22 }, starts: false },
      { from: 420, to: 1320, state: { f00: 1, f04: 22 }, starts: true },
      { from: 1320, to: 1440, state: { f00: 0, f04: 22 }, starts: true },
    ]);
    expect(segs[1]).toEqual([{ from: 0, to: 1440, state: { f00: 0, f04: 22 }, starts: false }]);
  });

  it('a slot at 00:00 starts the day itself', () => {
    const w = emptyWeek();
    w[3] = [{ time: '00:00', writes: { f04: 18 } }];
    expect(weekSegments(w)[3]).toEqual([{ from: 0, to: 1440, state: { f04: 18 }, starts: true }]);
  });

  it('labels and colours: off is grey, the set temperature reads 22.0°C', () => {
    expect(segmentLabel(def, { f00: 0, f04: 22 })).toBe('关机');
    expect(segmentLabel(def, { f00: 1, f04: 22 })).toBe('22.0°C');
    expect(segmentLabel(def, { f00: 1 })).toBe('开机');
    expect(segmentLabel(def, { f01: 3 })).toBe('地暖制热');
    expect(segmentColor({ f00: 0, f04: 22 })).toBe('#d9d9d9');
    expect(segmentColor({ f04: 14 })).toBe('hsl(210, 70%, 62%)');
    expect(segmentColor({ f04: 30 })).toBe('hsl(0, 70%, 62%)');
    expect(segmentColor({ f04: 22 })).toBe('hsl(105, 70%, 62%)');
  });
});

describe('week program ↔ API slots', () => {
  it('round-trips: weekday 1 is Monday, each day in time order', () => {
    const slots = [
      { weekday: 7, at: '09:00', writes: [{ fieldCode: 'f04', value: 20 }] },
      { weekday: 1, at: '22:00', writes: [{ fieldCode: 'f00', value: 0 }] },
      { weekday: 1, at: '07:00', writes: [{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }] },
    ];
    const week = weekOf(slots);
    expect(week[0]!.map((s) => s.time)).toEqual(['07:00', '22:00']);
    expect(week[6]).toEqual([{ time: '09:00', writes: { f04: 20 } }]);
    expect(slotsOf(week)).toEqual([slots[2], slots[1], slots[0]]);
  });

  it('reads the program a memory thermostat reports back', () => {
    expect(decodeProgram('H=weekend;1 07:00 f00=1,f04=22;1 18:00 f00=0;6 08:30 f04=20.5')).toEqual({
      holidayRule: 'weekend',
      week: [
        [{ time: '07:00', writes: { f00: 1, f04: 22 } }, { time: '18:00', writes: { f00: 0 } }],
        [], [], [], [],
        [{ time: '08:30', writes: { f04: 20.5 } }],
        [],
      ],
    });
    expect(decodeProgram('')).toBeNull();
    expect(decodeProgram('garbage')).toBeNull();
    expect(decodeProgram(42)).toBeNull();
  });
});

describe('what a program holds now, and what a memory device reports', () => {
  const slots = [
    { weekday: 1, at: '07:00', writes: [{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }] },
    { weekday: 1, at: '22:00', writes: [{ fieldCode: 'f00', value: 0 }] },
  ];
  it('Monday 06:59 is still the week\'s end (off); 07:00 is 22 °C from 07:00; Tuesday noon carries Monday night', () => {
    expect(inForce(slots, 0, 419)).toEqual({ from: 0, state: { f00: 0, f04: 22 } });
    expect(inForce(slots, 0, 420)).toEqual({ from: 420, state: { f00: 1, f04: 22 } });
    expect(inForce(slots, 1, 720)).toEqual({ from: 0, state: { f00: 0, f04: 22 } });
    expect(inForce([], 3, 600)).toBeNull();
  });

  it('compares the reported text with the program: order of fields and number formatting do not matter', () => {
    expect(sameProgram('H=weekend;1 07:00 f04=22,f00=1;1 22:00 f00=0', slots)).toBe('same');
    expect(sameProgram('H=weekend;1 07:00 f00=1,f04=21;1 22:00 f00=0', slots)).toBe('different');
    expect(sameProgram(undefined, slots)).toBe('none');
  });
});
