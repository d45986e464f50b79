import { isStepField } from '@kelvin/contracts/device-registry';
import type { DeviceTypeDef } from '@kelvin/contracts/device-types';
import type { DeviceDetail, HistoryAnswer, HistorySeries } from '@kelvin/contracts/device';

const DAY_MS = 86_400_000;
const MIN_SPAN_MS = 15 * 60_000;

/**
 * The range a device's history opens on: the last day that has data — ending at its latest report (a device that
 * went quiet shows its last day, not an empty one) and starting no earlier than its registration (a fresh install's
 * few minutes fill the chart instead of sitting at the right edge of a day).
 */
export function dataRange(d: Pick<DeviceDetail, 'createdAt' | 'lastReportAt'>, now: number): [number, number] {
  const end = d.lastReportAt === null ? now : Math.min(now, d.lastReportAt + 60_000);
  const start = Math.max(end - DAY_MS, Math.min(d.createdAt, end - MIN_SPAN_MS));
  return [start, end];
}

/** The x axis of the data range: from just before the first point, so a few minutes of data are not a sliver. */
export function fitToData(a: Pick<HistoryAnswer, 'from' | 'to' | 'series'>): [number, number] {
  const first = Math.min(...a.series.filter((s) => s.points.length).map((s) => s.points[0][0]));
  if (!Number.isFinite(first)) return [a.from, a.to];
  return [Math.max(a.from, first - Math.max(60_000, (a.to - first) * 0.05)), a.to];
}

/** A series as the chart takes it; `bands` ([time, min, max] per bucket) draws the spread of aggregated points. */
export type ChartSeries = HistorySeries;

export { isStepField };

/** The ECharts option of a device's history: one y axis per unit, steps for set points and states, min/max bands. */
export function historyOption(def: DeviceTypeDef, series: ChartSeries[], from: number, to: number) {
  // axes alternate left and right, moving outward when there are more than two units
  const units = [...new Set(series.map((s) => s.unit))];
  const side = (i: number) => ({ position: i % 2 ? 'right' : 'left', offset: Math.floor(i / 2) * 56 });
  const margin = (left: boolean) => 56 + Math.floor((units.length - (left ? 1 : 2)) / 2) * 56;
  const chartSeries: Record<string, unknown>[] = [];
  for (const s of series) {
    const name = s.unit ? `${s.label}（${s.unit}）` : s.label;
    const yAxisIndex = Math.max(0, units.indexOf(s.unit));
    const field = def.fields.find((f) => f.code === s.field);
    if (s.bands?.length && !isStepField(field)) {
      // the band is a transparent base at the minimum with the spread stacked on it
      const stack = `band-${s.field}`;
      const common = { type: 'line', stack, yAxisIndex, symbol: 'none', silent: true, lineStyle: { opacity: 0 }, tooltip: { show: false } };
      chartSeries.push({ ...common, name: `${name}·最小`, data: s.bands.map(([t, min]) => [t, min]) });
      chartSeries.push({ ...common, name: `${name}·范围`, data: s.bands.map(([t, min, max]) => [t, max - min]), areaStyle: { opacity: 0.15 } });
    }
    chartSeries.push({
      name,
      type: 'line',
      ...(isStepField(field) && { step: 'end' }),
      showSymbol: s.points.length < 60,
      yAxisIndex,
      data: s.points,
    });
  }
  return {
    animation: false,
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? String(v) : '') },
    legend: { top: 0, data: series.map((s) => (s.unit ? `${s.label}（${s.unit}）` : s.label)) },
    grid: { left: margin(true), right: units.length > 1 ? margin(false) : 24, top: 40, bottom: 32 },
    xAxis: { type: 'time', min: from, max: to },
    yAxis: units.map((u, i) => ({ type: 'value', name: u, scale: true, ...side(i) })),
    series: chartSeries,
  };
}
