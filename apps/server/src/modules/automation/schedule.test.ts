import { describe, expect, it } from 'vitest';
import { nextOccurrence, occurrences, type CalendarDays } from './schedule.ts';

/** Shanghai wall time → epoch ms (UTC+8, written out by hand in each case below). */
const cst = (s: string) => Date.parse(`${s}+08:00`);
const none: CalendarDays = new Map();
const iso = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

describe('occurrences (Asia/Shanghai)', () => {
  it('daily at 00:00 fires at local midnight, which is 16:00 UTC the day before', () => {
    const got = occurrences({ kind: 'periodic', rule: { every: 'daily', at: '00:00' }, skipHolidays: false }, cst('2026-11-23T23:59:00'), cst('2026-11-24T00:01:00'), none);
    expect(got.map((o) => o.at)).toEqual([Date.parse('2026-11-23T16:00:00Z')]);
  });

  it('the range is (from, to]: an occurrence exactly at `from` was handled by the previous pass', () => {
    const s = { kind: 'periodic' as const, rule: { every: 'daily' as const, at: '07:30' }, skipHolidays: false };
    expect(occurrences(s, cst('2026-11-24T07:30:00'), cst('2026-11-24T08:00:00'), none)).toEqual([]);
    expect(occurrences(s, cst('2026-11-24T07:29:59'), cst('2026-11-24T07:30:00'), none).map((o) => iso(o.at))).toEqual(['2026-11-24 07:30']);
  });

  it('weekly 周一至周五 over a week boundary: Fri, then Mon — not Sat/Sun', () => {
    const s = { kind: 'periodic' as const, rule: { every: 'weekly' as const, weekdays: [1, 2, 3, 4, 5], at: '07:30' }, skipHolidays: false };
    // 2026-11-27 is a Friday, 2026-11-30 a Monday
    const got = occurrences(s, cst('2026-11-27T00:00:00'), cst('2026-11-30T23:59:00'), none).map((o) => iso(o.at));
    expect(got).toEqual(['2026-11-27 07:30', '2026-11-30 07:30']);
  });

  it('Sunday 23:59 → Monday 00:00 for a week program: Sunday\'s last slot, then Monday\'s first', () => {
    const s = {
      kind: 'program' as const, holidayRule: 'unchanged' as const, powerField: 'f00',
      slots: [
        { weekday: 7, at: '23:59', writes: [{ fieldCode: 'f00', value: 0 }] },
        { weekday: 1, at: '00:00', writes: [{ fieldCode: 'f00', value: 1 }] },
      ],
    };
    const got = occurrences(s, cst('2026-11-29T23:58:00'), cst('2026-11-30T00:00:00'), none);
    expect(got.map((o) => [iso(o.at), o.writes![0]!.value])).toEqual([['2026-11-29 23:59', 0], ['2026-11-30 00:00', 1]]);
  });

  it('holidays: weekend rule uses Sunday\'s slots, off writes power off at 00:00, unchanged keeps the weekday; 调休 Saturday follows Monday', () => {
    const slots = [
      { weekday: 1, at: '08:00', writes: [{ fieldCode: 'f04', value: 22 }] },
      { weekday: 4, at: '08:00', writes: [{ fieldCode: 'f04', value: 21 }] },
      { weekday: 7, at: '10:00', writes: [{ fieldCode: 'f04', value: 18 }] },
    ];
    // 2026-10-01 (Thursday) a holiday; 2026-10-10 (Saturday) a 调休 working day
    const cal: CalendarDays = new Map([['2026-10-01', 'holiday'], ['2026-10-10', 'workday']]);
    const day = (rule: 'weekend' | 'off' | 'unchanged', date: string) =>
      occurrences({ kind: 'program', slots, holidayRule: rule, powerField: 'f00' }, cst(`${date}T00:00:00`) - 1, cst(`${date}T23:59:00`), cal).map((o) => [iso(o.at), o.writes]);
    expect(day('weekend', '2026-10-01')).toEqual([['2026-10-01 10:00', [{ fieldCode: 'f04', value: 18 }]]]);
    expect(day('off', '2026-10-01')).toEqual([['2026-10-01 00:00', [{ fieldCode: 'f00', value: 0 }]]]);
    expect(day('unchanged', '2026-10-01')).toEqual([['2026-10-01 08:00', [{ fieldCode: 'f04', value: 21 }]]]);
    expect(day('weekend', '2026-10-10')).toEqual([['2026-10-10 08:00', [{ fieldCode: 'f04', value: 22 }]]]);
    // an ordinary Saturday has no slots in this program
    expect(day('weekend', '2026-10-17')).toEqual([]);
  });

  it('periodic with skipHolidays: no run on a holiday; a 调休 Saturday counts as a working day for 周一至周五', () => {
    const s = { kind: 'periodic' as const, rule: { every: 'weekly' as const, weekdays: [1, 2, 3, 4, 5], at: '07:30' }, skipHolidays: true };
    const cal: CalendarDays = new Map([['2026-10-01', 'holiday'], ['2026-10-02', 'holiday'], ['2026-10-10', 'workday']]);
    const got = occurrences(s, cst('2026-09-30T00:00:00'), cst('2026-10-12T23:00:00'), cal).map((o) => iso(o.at).slice(0, 10));
    expect(got).toEqual(['2026-09-30', '2026-10-05', '2026-10-06', '2026-10-07', '2026-10-08', '2026-10-09', '2026-10-10', '2026-10-12']);
    // without skipHolidays the calendar is ignored
    const plain = occurrences({ ...s, skipHolidays: false }, cst('2026-10-01T00:00:00'), cst('2026-10-01T23:00:00'), cal);
    expect(plain).toHaveLength(1);
  });

  it('holiday tasks fire on each day of the chosen type', () => {
    const cal: CalendarDays = new Map([['2026-10-01', 'holiday'], ['2026-10-02', 'holiday'], ['2026-10-10', 'workday']]);
    expect(occurrences({ kind: 'holiday', at: '09:00', holidayType: 'holiday' }, cst('2026-09-30T00:00:00'), cst('2026-10-31T00:00:00'), cal).map((o) => iso(o.at)))
      .toEqual(['2026-10-01 09:00', '2026-10-02 09:00']);
    expect(occurrences({ kind: 'holiday', at: '07:00', holidayType: 'workday' }, cst('2026-09-30T00:00:00'), cst('2026-10-31T00:00:00'), cal).map((o) => iso(o.at)))
      .toEqual(['2026-10-10 07:00']);
  });

  it('monthly on the 31st skips short months; cron */30 in office hours', () => {
    const monthly = { kind: 'periodic' as const, rule: { every: 'monthly' as const, days: [31], at: '06:00' }, skipHolidays: false };
    expect(occurrences(monthly, cst('2026-03-01T00:00:00'), cst('2026-06-01T00:00:00'), none).map((o) => iso(o.at))).toEqual(['2026-03-31 06:00', '2026-05-31 06:00']);
    const cron = { kind: 'periodic' as const, rule: { every: 'cron' as const, cron: '*/30 8-9 * * 1-5' }, skipHolidays: false };
    // 2026-11-28 is a Saturday: nothing; Monday 30th: 08:00 08:30 09:00 09:30
    expect(occurrences(cron, cst('2026-11-28T00:00:00'), cst('2026-11-30T23:00:00'), none).map((o) => iso(o.at)))
      .toEqual(['2026-11-30 08:00', '2026-11-30 08:30', '2026-11-30 09:00', '2026-11-30 09:30']);
  });

  it('once and next occurrence', () => {
    const at = cst('2026-11-24T07:30:00');
    expect(occurrences({ kind: 'once', runAt: at }, at - 1, at, none)).toEqual([{ at }]);
    expect(occurrences({ kind: 'once', runAt: at }, at, at + 1000, none)).toEqual([]);
    expect(nextOccurrence({ kind: 'periodic', rule: { every: 'weekly', weekdays: [1], at: '07:30' }, skipHolidays: false }, cst('2026-11-24T00:00:00'), none))
      .toBe(cst('2026-11-30T07:30:00'));
  });
});
