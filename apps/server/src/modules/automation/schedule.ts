import {
  addDays, cronMatches, localMidnight, localParts, minuteOfDay, parseCron, SHANGHAI_OFFSET_MINUTES,
  type FieldWrite, type HolidayRule, type PeriodicRule, type ProgramSlot,
} from '@kelvin/contracts';

/**
 * When things are due: pure functions from a schedule (a task's rule, a week program's slots) and the holiday
 * calendar to the instants of its occurrences. Local calendar in Asia/Shanghai (fixed +08:00) unless told otherwise.
 */

/** date (YYYY-MM-DD) → holiday (a day off) or workday (调休: a weekend day worked). */
export type CalendarDays = ReadonlyMap<string, 'holiday' | 'workday'>;

export type Schedule =
  | { kind: 'once'; runAt: number }
  | { kind: 'periodic'; rule: PeriodicRule; skipHolidays: boolean }
  | { kind: 'holiday'; at: string; holidayType: 'holiday' | 'workday' }
  | { kind: 'program'; slots: ProgramSlot[]; holidayRule: HolidayRule; powerField: string | null };

export interface Occurrence {
  at: number;
  /** a week program's slot writes (tasks carry their own) */
  writes?: FieldWrite[];
}

/** The weekday whose program a date follows: a 调休 working day on a weekend follows Monday's. */
export function workingWeekday(weekday: number, day: 'holiday' | 'workday' | undefined): number {
  return day === 'workday' && weekday >= 6 ? 1 : weekday;
}

/** What a week program does on a date: its slots, as (minute of day, writes). */
export function programDay(s: Extract<Schedule, { kind: 'program' }>, weekday: number, day: 'holiday' | 'workday' | undefined): { minute: number; writes: FieldWrite[] }[] {
  const of = (wd: number) => s.slots.filter((x) => x.weekday === wd).map((x) => ({ minute: minuteOfDay(x.at), writes: x.writes }));
  if (day === 'holiday') {
    if (s.holidayRule === 'weekend') return of(7);
    if (s.holidayRule === 'off') return s.powerField ? [{ minute: 0, writes: [{ fieldCode: s.powerField, value: 0 }] }] : [];
    return of(weekday);
  }
  return of(workingWeekday(weekday, day));
}

/** Minutes of a day at which a periodic rule fires. */
function periodicMinutes(rule: PeriodicRule, date: string, weekday: number, dayOfMonth: number, month: number): number[] {
  switch (rule.every) {
    case 'daily': return [minuteOfDay(rule.at)];
    case 'weekly': return rule.weekdays.includes(weekday) ? [minuteOfDay(rule.at)] : [];
    case 'monthly': return rule.days.includes(dayOfMonth) ? [minuteOfDay(rule.at)] : [];
    case 'cron': {
      const spec = parseCron(rule.cron);
      if (!spec) return [];
      const out: number[] = [];
      for (const h of [...spec.hours].sort((a, b) => a - b)) {
        for (const m of [...spec.minutes].sort((a, b) => a - b)) {
          if (cronMatches(spec, { date, year: Number(date.slice(0, 4)), month, day: dayOfMonth, weekday, minute: h * 60 + m })) out.push(h * 60 + m);
        }
      }
      return out;
    }
  }
}

/**
 * Occurrences in (from, to], in order. `calendar` must cover the local dates of the range. Ranges are bounded by the
 * caller (the scheduler looks back at most MAX_LOOKBACK_MS).
 */
export function occurrences(s: Schedule, from: number, to: number, calendar: CalendarDays, offset = SHANGHAI_OFFSET_MINUTES): Occurrence[] {
  if (to <= from) return [];
  if (s.kind === 'once') return s.runAt > from && s.runAt <= to ? [{ at: s.runAt }] : [];
  const out: Occurrence[] = [];
  const last = localParts(to, offset).date;
  for (let date = localParts(from, offset).date; date <= last; date = addDays(date, 1)) {
    const midnight = localMidnight(date, offset);
    const p = localParts(midnight, offset);
    const day = calendar.get(date);
    let slots: { minute: number; writes?: FieldWrite[] }[] = [];
    if (s.kind === 'program') slots = programDay(s, p.weekday, day);
    else if (s.kind === 'holiday') slots = day === s.holidayType ? [{ minute: minuteOfDay(s.at) }] : [];
    else if (!(s.skipHolidays && day === 'holiday')) {
      const weekday = s.skipHolidays ? workingWeekday(p.weekday, day) : p.weekday;
      slots = periodicMinutes(s.rule, date, weekday, p.day, p.month).map((minute) => ({ minute }));
    }
    for (const slot of slots.sort((a, b) => a.minute - b.minute)) {
      const at = midnight + slot.minute * 60_000;
      if (at > from && at <= to) out.push(slot.writes ? { at, writes: slot.writes } : { at });
    }
  }
  return out;
}

/** The first occurrence after `after`, looking at most `horizonDays` ahead (null: none in that window). */
export function nextOccurrence(s: Schedule, after: number, calendar: CalendarDays, horizonDays = 8): number | null {
  return occurrences(s, after, after + horizonDays * 86_400_000, calendar)[0]?.at ?? null;
}

/** The local dates an instant range touches, as [first, last] (for loading the calendar). */
export function dateRange(from: number, to: number, offset = SHANGHAI_OFFSET_MINUTES): [string, string] {
  return [localParts(from, offset).date, localParts(to, offset).date];
}
