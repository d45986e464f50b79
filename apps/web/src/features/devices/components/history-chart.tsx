import { useEffect, useState } from 'react';
import * as echarts from 'echarts/core';
import type { HistorySeries } from '@kelvin/contracts/device';
import { useChart } from '../../../components/use-chart';

let registered: Promise<void> | null = null;
const ready = () => (registered ??= import('./echarts-parts').then(({ parts }) => echarts.use(parts)));

/** History of a device's numeric fields (downsampled by the server) over [from, to]; one y axis per unit. */
export default function HistoryChart({ series, from, to }: { series: HistorySeries[]; from: number; to: number }) {
  const points = series.reduce((n, s) => n + s.points.length, 0);

  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    void ready().then(() => setLoaded(true));
  }, []);

  const ref = useChart(() => {
    if (!loaded) return null;
    // axes alternate left and right, moving outward when there are more than two units
    const units = [...new Set(series.map((s) => s.unit))];
    const side = (i: number) => ({ position: i % 2 ? 'right' : 'left', offset: Math.floor(i / 2) * 56 });
    const margin = (left: boolean) => 56 + Math.floor((units.length - (left ? 1 : 2)) / 2) * 56;
    return {
      animation: false,
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? String(v) : '') },
      legend: { top: 0 },
      grid: { left: margin(true), right: units.length > 1 ? margin(false) : 24, top: 40, bottom: 32 },
      xAxis: { type: 'time', min: from, max: to },
      yAxis: units.map((u, i) => ({ type: 'value', name: u, scale: true, ...side(i) })),
      series: series.map((s) => ({
        name: s.unit ? `${s.label}（${s.unit}）` : s.label,
        type: 'line',
        showSymbol: s.points.length < 60,
        yAxisIndex: Math.max(0, units.indexOf(s.unit)),
        data: s.points,
      })),
    };
  }, [series, loaded, from, to]);

  return <div ref={ref} style={{ height: 340, width: '100%' }} data-testid="history-chart" data-points={points} />;
}
