import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { OnlineHistory, OnlineNowRow } from '@kelvin/contracts';
import { useChart } from '../../../components/use-chart';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

/** Online and offline devices per type, stacked. */
export function OnlineByTypeChart({ rows }: { rows: OnlineNowRow[] }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0 },
    grid: { left: 48, right: 16, top: 36, bottom: 64 },
    xAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { interval: 0, rotate: rows.length > 6 ? 30 : 0 } },
    yAxis: { type: 'value', name: '台', minInterval: 1 },
    series: [
      { name: '在线', type: 'bar', stack: 'n', data: rows.map((r) => r.online), itemStyle: { color: '#52c41a' } },
      { name: '离线', type: 'bar', stack: 'n', data: rows.map((r) => r.offline), itemStyle: { color: '#bfbfbf' } },
    ],
  }), [rows]);
  return <div ref={ref} style={{ height: 300, width: '100%' }} data-testid="online-by-type-chart" />;
}

/** Devices that reported within each hour, against the devices registered by then; one line per type on request. */
export function OnlineHistoryChart({ data, byType }: { data: OnlineHistory; byType: boolean }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 48, right: 16, top: 40, bottom: 56 },
    xAxis: { type: 'time', min: data.points[0]?.t, max: data.to },
    yAxis: { type: 'value', name: '台', minInterval: 1 },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
    series: [
      { name: '在线设备', type: 'line', step: 'end', showSymbol: false, areaStyle: { opacity: 0.15 }, data: data.points.map((p) => [p.t, p.online]), itemStyle: { color: '#1677ff' } },
      { name: '设备总数', type: 'line', step: 'end', showSymbol: false, lineStyle: { type: 'dashed' }, data: data.points.map((p) => [p.t, p.devices]), itemStyle: { color: '#8c8c8c' } },
      ...(byType ? data.types.map((t) => ({
        name: t.name, type: 'line', showSymbol: false, data: data.points.map((p) => [p.t, p.byType[t.code] ?? 0]),
      })) : []),
    ],
  }), [data, byType]);
  return <div ref={ref} style={{ height: 340, width: '100%' }} data-testid="online-history-chart" data-points={data.points.length} />;
}
