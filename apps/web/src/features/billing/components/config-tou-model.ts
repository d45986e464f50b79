import { TOU_KINDS, type TouKind, type TouSection } from '@kelvin/contracts';

/**
 * The TOU periods of a day (计费时段) as minutes: what each minute is billed as, and what is wrong with a draft. The
 * server checks the same on save; this lets the editor say it while typing and draw the day.
 */
export type TouPeriod = TouSection['periods'][number];
export const DAY = 1440;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
export function minutesOf(hhmm: string | undefined): number | null {
  const m = HHMM.exec(hhmm ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}
export function hhmmOf(min: number): string {
  return min === DAY ? '24:00' : `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
}

/** The minutes [from, to) a period covers: one range, or two when it runs across midnight (22:00–06:00). */
export function rangesOf(p: Partial<TouPeriod>): [number, number][] {
  const s = minutesOf(p.start);
  const e = minutesOf(p.end);
  if (s === null || e === null || s === e) return [];
  if (e > s) return [[s, e]];
  return [[s, DAY], ...(e > 0 ? [[0, e] as [number, number]] : [])];
}

export interface TouSegment {
  from: number;
  to: number;
  /** the kind billed; null where no period covers the minute or where several do */
  kind: TouKind | null;
  /** indexes of the periods covering it (0 = a gap, 2+ = an overlap) */
  periods: number[];
}

/** The day from 00:00 to 24:00 as runs of equal cover. */
export function touSegments(periods: Partial<TouPeriod>[]): TouSegment[] {
  const cover: number[][] = Array.from({ length: DAY }, () => []);
  periods.forEach((p, i) => {
    for (const [a, b] of rangesOf(p)) for (let m = a; m < b; m++) cover[m]!.push(i);
  });
  const out: TouSegment[] = [];
  for (let m = 0; m < DAY; m++) {
    const c = cover[m]!;
    const last = out.at(-1);
    if (last && last.periods.join() === c.join()) last.to = m + 1;
    else out.push({ from: m, to: m + 1, periods: c, kind: c.length === 1 ? (periods[c[0]!]!.kind ?? null) : null });
  }
  return out;
}

/** What is wrong with the periods, in Chinese (empty = fine). Full-day cover is required only when TOU is enabled. */
export function touProblems(periods: Partial<TouPeriod>[], enabled: boolean): string[] {
  const problems: string[] = [];
  periods.forEach((p, i) => {
    const n = `第 ${i + 1} 段`;
    if (minutesOf(p.start) === null) problems.push(`${n}：请填写开始时间`);
    else if (minutesOf(p.end) === null) problems.push(`${n}：请填写结束时间`);
    else if (p.start === p.end) problems.push(`${n}：开始与结束时间不能相同`);
    if (!p.kind || !(p.kind in TOU_KINDS)) problems.push(`${n}：请选择峰、平或谷`);
  });
  const segments = touSegments(periods);
  for (const s of segments) {
    if (s.periods.length > 1) problems.push(`${s.periods.map((i) => `第 ${i + 1} 段`).join('与')}在 ${hhmmOf(s.from)}–${hhmmOf(s.to)} 重叠`);
  }
  if (enabled) {
    if (!periods.length) problems.push('启用分时计价时请至少添加一个时段');
    else for (const s of segments) if (!s.periods.length) problems.push(`${hhmmOf(s.from)}–${hhmmOf(s.to)} 没有设置时段，时段须覆盖全天 24 小时`);
  }
  return problems;
}

/** "峰 08:00–11:00、平 11:00–18:00 …" for the history. */
export function touSummary(periods: TouPeriod[]): string {
  return periods.map((p) => `${TOU_KINDS[p.kind]} ${p.start}–${p.end}`).join('、');
}

export const TOU_COLORS: Record<TouKind | 'gap' | 'overlap', string> = {
  peak: '#ff7a45', flat: '#ffc53d', valley: '#73d13d', gap: '#e8e8e8', overlap: '#9254de',
};
