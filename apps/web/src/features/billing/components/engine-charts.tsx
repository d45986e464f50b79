import * as echarts from 'echarts/core';
import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { useChart } from '../../../components/use-chart';
import { formatFen } from '../../accounts';

echarts.use([BarChart, PieChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

/** One bar or slice: its name, the integer fen it stands for, and an optional second figure for the tooltip. */
export interface AmountItem { name: string; fen: number; note?: string }

/** a tooltip line: name, 元 through formatFen (the axis and the tooltip never print a float of money) */
const tip = (it: AmountItem | undefined) => (it ? `${it.name}<br/>${formatFen(it.fen)} 元${it.note ? `<br/>${it.note}` : ''}` : '');

/** Horizontal bars of amounts, largest on top (the top devices of a range, the rooms of a run …). */
export function AmountBarChart({ items, testId, unitLabel = '金额（元）' }: { items: AmountItem[]; testId: string; unitLabel?: string }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: (ps: { dataIndex: number }[]) => tip(items[ps[0]?.dataIndex ?? -1]) },
    grid: { left: 8, right: 72, top: 16, bottom: 32, containLabel: true },
    yAxis: { type: 'category', inverse: true, data: items.map((i) => i.name), axisLabel: { width: 140, overflow: 'truncate' } },
    // bar lengths in fen (integers); every figure shown is formatted from them
    xAxis: { type: 'value', name: unitLabel, nameLocation: 'middle', nameGap: 28, minInterval: 1, axisLabel: { formatter: (v: number) => formatFen(Math.round(v)) } },
    series: [{
      type: 'bar', data: items.map((i) => i.fen), itemStyle: { color: '#1677ff' }, barMaxWidth: 22,
      label: { show: true, position: 'right', formatter: (p: { dataIndex: number }) => formatFen(items[p.dataIndex]?.fen ?? 0) },
    }],
  }), [items]);
  return <div ref={ref} style={{ height: Math.max(160, items.length * 30 + 56), width: '100%' }} data-testid={testId} />;
}

/** Shares of a total as slices (an account's part of a run's cost). */
export function SharePieChart({ items, testId }: { items: AmountItem[]; testId: string }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: {
      trigger: 'item',
      formatter: (p: { dataIndex: number; percent: number }) => `${tip(items[p.dataIndex])}<br/>占比 ${p.percent}%`,
    },
    legend: { type: 'scroll', orient: 'vertical', right: 8, top: 16, bottom: 16 },
    series: [{
      type: 'pie', radius: ['35%', '70%'], center: ['38%', '50%'], avoidLabelOverlap: true,
      label: { formatter: '{b}\n{d}%' },
      data: items.map((i) => ({ name: i.name, value: i.fen })),
    }],
  }), [items]);
  return <div ref={ref} style={{ height: 320, width: '100%' }} data-testid={testId} />;
}
