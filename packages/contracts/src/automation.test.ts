import { describe, expect, it } from 'vitest';
import { cronMatches, describeRule, encodeProgram, localParts, parseCron, taskBody, weekProgramBody } from './automation.ts';

describe('describeRule (Chinese description of a periodic rule)', () => {
  it('writes each kind out', () => {
    expect(describeRule({ every: 'daily', at: '07:30' })).toBe('每天 07:30');
    expect(describeRule({ every: 'weekly', weekdays: [5, 1, 2, 3, 4], at: '07:30' })).toBe('每周一至周五 07:30');
    expect(describeRule({ every: 'weekly', weekdays: [1, 3, 5], at: '08:00' })).toBe('每周一、三、五 08:00');
    expect(describeRule({ every: 'weekly', weekdays: [6, 7], at: '09:00' })).toBe('每周六、日 09:00');
    expect(describeRule({ every: 'weekly', weekdays: [1, 2, 3, 5, 6, 7], at: '06:05' })).toBe('每周一至周三、五至周日 06:05');
    expect(describeRule({ every: 'weekly', weekdays: [1, 2, 3, 4, 5, 6, 7], at: '07:30' })).toBe('每天 07:30');
    expect(describeRule({ every: 'monthly', days: [15, 1], at: '08:00' })).toBe('每月1日、15日 08:00');
    expect(describeRule({ every: 'cron', cron: '30 7 * * 1-5' })).toBe('每周一至周五 07:30');
    expect(describeRule({ every: 'cron', cron: '0 22 * * *' })).toBe('每天 22:00');
    expect(describeRule({ every: 'cron', cron: '*/15 8-18 * * *' })).toBe('Cron：*/15 8-18 * * *');
  });
});

describe('cron', () => {
  it('parses and matches in local time', () => {
    const spec = parseCron('30 7 * * 1-5')!;
    // 2026-11-23 is a Monday; 07:30 Shanghai = 23:30 UTC the day before
    expect(cronMatches(spec, localParts(Date.parse('2026-11-22T23:30:00Z')))).toBe(true);
    // Saturday 2026-11-28 07:30
    expect(cronMatches(spec, localParts(Date.parse('2026-11-27T23:30:00Z')))).toBe(false);
    expect(parseCron('60 * * * *')).toBeNull();
    expect(parseCron('* * *')).toBeNull();
    expect(parseCron('0 0 * * 7')!.weekdays.has(7)).toBe(true);
    expect(parseCron('0 0 * * 0')!.weekdays.has(7)).toBe(true);
  });
  it('localParts crosses midnight at 16:00 UTC', () => {
    expect(localParts(Date.parse('2026-11-22T15:59:00Z'))).toMatchObject({ date: '2026-11-22', weekday: 7, minute: 23 * 60 + 59 });
    expect(localParts(Date.parse('2026-11-22T16:00:00Z'))).toMatchObject({ date: '2026-11-23', weekday: 1, minute: 0 });
  });
});

describe('contracts', () => {
  it('the issue\'s task contract parses; writes are checked against the registry', () => {
    const ok = taskBody.safeParse({ projectId: 1, name: '早上开机', kind: 'once', runAt: 1_800_000_000_000, deviceIds: [3], writes: [{ fieldCode: 'f00', value: 1 }] });
    expect(ok.success).toBe(true);
    const bad = taskBody.safeParse({ projectId: 1, name: 'x', kind: 'once', runAt: 1, deviceType: 'device20020', deviceIds: [3], writes: [{ fieldCode: 'f04', value: 99 }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toContain('设定温度');
    const hidden = taskBody.safeParse({ projectId: 1, name: 'x', kind: 'once', runAt: 1, deviceType: 'device20020', deviceIds: [3], writes: [{ fieldCode: 'f09', value: '1 07:00 f00=1' }] });
    expect(hidden.success).toBe(false);
  });
  it('week program slots: duplicates and read-only fields refused', () => {
    const base = { projectId: 1, name: '办公', deviceType: 'device20020', deviceIds: [1] };
    expect(weekProgramBody.safeParse({ ...base, slots: [{ weekday: 1, at: '07:00', writes: [{ fieldCode: 'f00', value: 1 }] }] }).success).toBe(true);
    expect(weekProgramBody.safeParse({ ...base, slots: [{ weekday: 1, at: '07:00', writes: [{ fieldCode: 'f03', value: 20 }] }] }).success).toBe(false);
    expect(weekProgramBody.safeParse({ ...base, slots: [1, 1].map(() => ({ weekday: 1, at: '07:00', writes: [{ fieldCode: 'f00', value: 1 }] })) }).success).toBe(false);
  });
  it('encodes a program for a memory device', () => {
    expect(encodeProgram([
      { weekday: 2, at: '18:00', writes: [{ fieldCode: 'f00', value: 0 }] },
      { weekday: 1, at: '07:00', writes: [{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }] },
    ], 'off')).toBe('H=off;1 07:00 f00=1,f04=22;2 18:00 f00=0');
  });
});
