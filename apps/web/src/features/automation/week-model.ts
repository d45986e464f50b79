import type { DeviceTypeDef, FieldValue } from '@kelvin/contracts';
import { fieldDisplay, formatTime, parseTime, validateFieldWrite } from '@kelvin/contracts/device-registry';

/**
 * The week program as the editor holds it (pure; no React): seven days, Monday first, each a list of time slots that
 * set writable registry fields from their time until the next slot. Converted to and from the API body in api.ts.
 */
export const WEEKDAYS = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'] as const;
export const MAX_SLOTS_PER_DAY = 12;
/** most fields one slot sets (the server's limit) */
export const MAX_WRITES_PER_SLOT = 10;

export interface SlotDraft {
  /** HH:MM */
  time: string;
  /** field code → value (only writable fields of the program's device type) */
  writes: Record<string, FieldValue>;
}
/** index 0 = Monday … 6 = Sunday */
export type WeekDraft = SlotDraft[][];

export const emptyWeek = (): WeekDraft => Array.from({ length: 7 }, () => []);

/** A slot as the API carries it (contracts' ProgramSlot): ISO weekday 1 = Monday … 7 = Sunday. */
export interface ApiSlot {
  weekday: number;
  at: string;
  writes: { fieldCode: string; value: FieldValue }[];
}

/** API slots → the editor's week (each day in time order). */
export function weekOf(slots: readonly ApiSlot[]): WeekDraft {
  const week = emptyWeek();
  for (const s of slots) {
    if (s.weekday < 1 || s.weekday > 7) continue;
    week[s.weekday - 1]!.push({ time: s.at, writes: Object.fromEntries(s.writes.map((w) => [w.fieldCode, w.value])) });
  }
  return week.map(sortSlots);
}

/** The editor's week → API slots (Monday first, each day in time order). */
export function slotsOf(week: WeekDraft): ApiSlot[] {
  return week.flatMap((slots, day) => sortSlots(slots).map((s) => ({
    weekday: day + 1,
    at: s.time,
    writes: Object.entries(s.writes).map(([fieldCode, value]) => ({ fieldCode, value })),
  })));
}

/**
 * The program a memory-program device reports back (the contracts' encodeProgram text:
 * `H=weekend;1 07:00 f00=1,f04=22;1 18:00 f00=0`) → its holiday rule and the week; null when it is not such a text.
 */
export function decodeProgram(text: unknown): { holidayRule: string | null; week: WeekDraft } | null {
  if (typeof text !== 'string' || !text.trim()) return null;
  const week = emptyWeek();
  let holidayRule: string | null = null;
  for (const part of text.split(';').map((p) => p.trim()).filter(Boolean)) {
    if (part.startsWith('H=')) {
      holidayRule = part.slice(2);
      continue;
    }
    const m = /^([1-7]) (\d{2}:\d{2}) (.+)$/.exec(part);
    if (!m) return null;
    const writes: Record<string, FieldValue> = {};
    for (const kv of m[3]!.split(',')) {
      const [code, raw] = kv.split('=');
      if (!code || raw === undefined) return null;
      writes[code] = raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    week[Number(m[1]) - 1]!.push({ time: m[2]!, writes });
  }
  return { holidayRule, week: week.map(sortSlots) };
}

export interface SlotProblem {
  day: number;
  /** slot index in the day, or -1 for the day as a whole */
  slot: number;
  message: string;
}

/** Every problem of a week program, in Chinese, day by day (nothing is sent while this is not empty). */
export function validateWeek(def: DeviceTypeDef, week: WeekDraft): SlotProblem[] {
  const out: SlotProblem[] = [];
  week.forEach((slots, day) => {
    if (slots.length > MAX_SLOTS_PER_DAY) out.push({ day, slot: -1, message: `${WEEKDAYS[day]}最多 ${MAX_SLOTS_PER_DAY} 个时段` });
    const seen = new Map<number, number>();
    slots.forEach((s, i) => {
      const at = parseTime(s.time);
      const where = `${WEEKDAYS[day]}第 ${i + 1} 个时段`;
      if (at === null || !/^\d{2}:\d{2}$/.test(s.time)) out.push({ day, slot: i, message: `${where}：时间格式为 HH:MM` });
      else if (seen.has(at)) out.push({ day, slot: i, message: `${where}：与第 ${seen.get(at)! + 1} 个时段时间相同（${s.time}）` });
      else seen.set(at, i);
      const codes = Object.keys(s.writes);
      if (!codes.length) out.push({ day, slot: i, message: `${where}：至少设置一个参数` });
      if (codes.length > MAX_WRITES_PER_SLOT) out.push({ day, slot: i, message: `${where}：最多设置 ${MAX_WRITES_PER_SLOT} 个参数` });
      for (const code of codes) {
        const check = validateFieldWrite(def, code, s.writes[code]);
        if (!check.ok) out.push({ day, slot: i, message: `${where}：${check.message}` });
      }
    });
  });
  return out;
}

/** The slots of a day in time order (unparseable times last, order kept). */
export function sortSlots(slots: SlotDraft[]): SlotDraft[] {
  const key = (s: SlotDraft) => parseTime(s.time) ?? 10_000;
  return slots.map((s, i) => ({ s, i })).sort((a, b) => key(a.s) - key(b.s) || a.i - b.i).map((x) => x.s);
}

/** A copy of one day's slots onto other days (the days given are replaced). */
export function copyDay(week: WeekDraft, from: number, to: number[]): WeekDraft {
  return week.map((slots, day) => (to.includes(day) && day !== from
    ? week[from]!.map((s) => ({ time: s.time, writes: { ...s.writes } }))
    : slots));
}

/** A new slot for a day: an hour after its last slot (or 08:00), with the last slot's values as a start. */
export function nextSlot(slots: SlotDraft[], defaults: Record<string, FieldValue>): SlotDraft {
  const sorted = sortSlots(slots);
  const last = sorted[sorted.length - 1];
  const lastAt = last ? parseTime(last.time) : null;
  const at = lastAt === null ? 8 * 60 : Math.min(lastAt + 60, 23 * 60 + 59);
  return { time: formatTime(at), writes: { ...(last?.writes ?? defaults) } };
}

export interface Segment {
  /** minutes of the day, [from, to) */
  from: number;
  to: number;
  /** the fields in force (what the program last set, carried over midnight and from Sunday into Monday) */
  state: Record<string, FieldValue>;
  /** whether a slot of this day starts the segment (false for the carry-over from the day before) */
  starts: boolean;
}

/**
 * What the program holds over each day: segments between slot times, each with the fields in force. The state at
 * Monday 00:00 is what the week ends with (the program repeats), so every segment after the first slot of the week is
 * exact; a field the program never sets is simply absent.
 */
export function weekSegments(week: WeekDraft): Segment[][] {
  const days = week.map((slots) => sortSlots(slots).filter((s) => parseTime(s.time) !== null));
  // the state the week ends with = every write applied in order
  let carry: Record<string, FieldValue> = {};
  for (const slots of days) for (const s of slots) carry = { ...carry, ...s.writes };
  return days.map((slots) => {
    const segs: Segment[] = [];
    let state = carry;
    let from = 0;
    let starts = false;
    for (const s of slots) {
      const at = parseTime(s.time)!;
      if (at > from) segs.push({ from, to: at, state, starts });
      state = { ...state, ...s.writes };
      from = at;
      starts = true;
    }
    segs.push({ from, to: 1440, state, starts });
    carry = state;
    return segs;
  });
}

/** The short label of a segment on the timeline: 关机, or the set temperature (and mode) in force. */
export function segmentLabel(def: DeviceTypeDef, state: Record<string, FieldValue>): string {
  if (state.f00 !== undefined && Number(state.f00) === 0) return '关机';
  const parts: string[] = [];
  if (state.f04 !== undefined) parts.push(fieldDisplay(def, 'f04', state.f04).replace(' ', ''));
  const firstOther = Object.keys(state).find((c) => c !== 'f00' && c !== 'f04');
  if (!parts.length && firstOther) parts.push(fieldDisplay(def, firstOther, state[firstOther]));
  if (!parts.length && state.f00 !== undefined) parts.push('开机');
  return parts.join(' ');
}

/** Every field of a state, for the timeline's tooltip: 电源：开机，设定温度：22.0 °C … */
export function stateText(def: DeviceTypeDef, state: Record<string, FieldValue>): string {
  const codes = Object.keys(state);
  if (!codes.length) return '未设置（保持设备当前状态）';
  return codes.map((c) => `${def.fields.find((f) => f.code === c)?.label ?? c}：${fieldDisplay(def, c, state[c])}`).join('，');
}

/** Fill colour of a segment: grey when off or unset, blue (cool) → red (warm) along the set temperature. */
export function segmentColor(state: Record<string, FieldValue>): string {
  if (state.f00 !== undefined && Number(state.f00) === 0) return '#d9d9d9';
  if (state.f04 === undefined) return state.f00 !== undefined ? '#95de64' : '#f0f0f0';
  const t = Math.min(30, Math.max(14, Number(state.f04)));
  const x = (t - 14) / 16; // 0 at 14 °C, 1 at 30 °C
  const hue = Math.round(210 - 210 * x); // 210 blue → 0 red
  return `hsl(${hue}, 70%, 62%)`;
}

/** What a program holds at a minute of a weekday (0 = Monday): the segment containing it; null when nothing is set. */
export function inForce(slots: readonly ApiSlot[], day: number, minute: number): { from: number; state: Record<string, FieldValue> } | null {
  const seg = weekSegments(weekOf(slots))[day]?.find((s) => minute >= s.from && minute < s.to);
  return seg && Object.keys(seg.state).length ? { from: seg.from, state: seg.state } : null;
}

/** Whether the program a memory device reports back is the one pushed (same slots, same values). */
export function sameProgram(reported: unknown, slots: readonly ApiSlot[]): 'same' | 'different' | 'none' {
  const decoded = decodeProgram(reported);
  if (!decoded) return 'none';
  const norm = (list: ApiSlot[]) => JSON.stringify(list.map((x) => ({ ...x, writes: x.writes.map((w) => [w.fieldCode, String(w.value)]).sort() })));
  return norm(slotsOf(decoded.week)) === norm(slotsOf(weekOf(slots))) ? 'same' : 'different';
}
