import { DEVICE_TYPE_BY_CODE, localMidnight, localParts, minuteOfDay, type ProgramSlot } from '@kelvin/contracts';
import type { Scope } from '../../lib/scope.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import * as repo from './repository.ts';
import type { ProgramRow } from './repository.ts';

const WEEK_MINUTES = 7 * 1440;
const DAY_MS = 86_400_000;

/**
 * Standard hours of a week program: the minutes of the week when its slots leave the power (f00) on. A slot without
 * f00 leaves the state as it was; the week wraps (Sunday night's state carries into Monday). Index: (weekday-1)*1440+minute.
 */
export function standardMinutes(slots: ProgramSlot[]): Uint8Array {
  const marks = slots
    .map((s) => ({ at: (s.weekday - 1) * 1440 + minuteOfDay(s.at), power: s.writes.find((w) => w.fieldCode === 'f00')?.value }))
    .filter((m) => m.power !== undefined)
    .sort((a, b) => a.at - b.at);
  const week = new Uint8Array(WEEK_MINUTES);
  if (!marks.length) return week;
  let state = Number(marks[marks.length - 1]!.power) === 1 ? 1 : 0;
  let next = 0;
  for (let m = 0; m < WEEK_MINUTES; m++) {
    while (next < marks.length && marks[next]!.at === m) state = Number(marks[next++]!.power) === 1 ? 1 : 0;
    week[m] = state;
  }
  return week;
}

/** Minutes in [from, to) when a device was on, from its f00 readings (each holds until the next; none before the first). */
export function onMinutes(points: [number, number][], from: number, to: number, into: Uint8Array) {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]![1] !== 1) continue;
    const start = Math.max(from, sorted[i]![0]);
    const end = Math.min(to, i + 1 < sorted.length ? sorted[i + 1]![0] : to);
    for (let m = Math.floor((start - from) / 60_000); m < Math.ceil((end - from) / 60_000) && m < into.length; m++) into[m] = 1;
  }
}

/** Minutes outside standard hours among the marked minutes of a range starting at `from`. */
export function outsideMinutes(marked: Uint8Array, from: number, week: Uint8Array): number {
  let n = 0;
  for (let m = 0; m < marked.length; m++) {
    if (!marked[m]) continue;
    const p = localParts(from + m * 60_000);
    if (!week[(p.weekday - 1) * 1440 + p.minute]) n++;
  }
  return n;
}

/**
 * A room's overtime for a month: minutes when any power-switchable device in the room (and below) was on outside the
 * program's standard hours, up to now. Run state comes from the device history of f00, read a day at a time (the
 * core downsamples a day to about three-minute steps); holidays are not treated specially.
 */
export async function computeOvertime(deps: { core: DeviceCore; projects: ProjectService; scope: Scope; program: ProgramRow; areaId: number; month: string; now: number }) {
  const week = standardMinutes(repo.json<ProgramSlot[]>(deps.program.slots, []));
  const standardHoursPerWeek = Math.round((week.reduce((a, b) => a + b, 0) / 60) * 10) / 10;
  const from = localMidnight(`${deps.month}-01`);
  const [y, m] = deps.month.split('-').map(Number) as [number, number];
  const nextMonth = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  const to = Math.min(localMidnight(`${nextMonth}-01`), deps.now);
  if (to <= from) return { standardHoursPerWeek, usedMinutes: 0 };
  let areaIds: number[] = [];
  try {
    const [node] = await deps.projects.tree(deps.scope, deps.areaId);
    const walk = (n: { id: number; children: unknown[] }) => {
      areaIds.push(n.id);
      for (const c of n.children) walk(c as never);
    };
    if (node) walk(node);
  } catch {
    areaIds = [];
  }
  if (!areaIds.length) return { standardHoursPerWeek, usedMinutes: 0 };
  const devices = await deps.core.devices.scopedDevices(deps.scope).selectAll().where('area_id', 'in', areaIds).execute();
  const marked = new Uint8Array(Math.ceil((to - from) / 60_000));
  for (const d of devices) {
    const type = DEVICE_TYPE_BY_CODE.get(d.device_type);
    if (!type?.fields.some((f) => f.code === 'f00')) continue;
    const points: [number, number][] = [];
    for (let day = from; day < to; day += DAY_MS) {
      const h = await deps.core.telemetry.history({ id: d.id, type }, { from: day, to: Math.min(day + DAY_MS, to), fields: 'f00' });
      points.push(...(h.series[0]?.points ?? []));
    }
    onMinutes(points, from, to, marked);
  }
  return { standardHoursPerWeek, usedMinutes: outsideMinutes(marked, from, week) };
}
