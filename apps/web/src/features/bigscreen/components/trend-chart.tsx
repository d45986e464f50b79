import { memo } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { BigScreenSummary } from '@kelvin/contracts';
import { useChart } from '../../../components/use-chart';
import { formatMillis } from '../../../lib/clock';

echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

const AXIS = { axisLine: { lineStyle: { color: '#2f6db5' } }, axisLabel: { color: '#9cc3f0', fontSize: 16 }, splitLine: { lineStyle: { color: 'rgba(47,109,181,0.25)' } } };

/** The last 24 hours: electricity per hour as bars (kWh), heat as a line (GJ). */
const Trend = memo(function Trend({ trend, height }: { trend: BigScreenSummary['trend']; height: number }) {
  const has = trend.some((h) => h.electricity !== null || h.heat !== null);
  const ref = useChart(() => (has ? {
    animation: false,
    grid: { left: 64, right: 64, top: 44, bottom: 36 },
    legend: { top: 0, textStyle: { color: '#bae0ff', fontSize: 18 } },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: trend.map((h) => formatMillis(h.hour).slice(11, 16)), ...AXIS, splitLine: { show: false } },
    yAxis: [{ type: 'value', name: 'kWh', nameTextStyle: { color: '#9cc3f0', fontSize: 16 }, ...AXIS }, { type: 'value', name: 'GJ', nameTextStyle: { color: '#9cc3f0', fontSize: 16 }, ...AXIS, splitLine: { show: false } }],
    series: [
      { name: '电量（kWh）', type: 'bar', data: trend.map((h) => h.electricity), itemStyle: { color: '#1677ff' }, barMaxWidth: 18 },
      { name: '热量（GJ）', type: 'line', yAxisIndex: 1, data: trend.map((h) => h.heat), smooth: true, itemStyle: { color: '#fa8c16' }, lineStyle: { width: 3 }, connectNulls: true },
    ],
  } : null), [trend, has]);
  if (!has) return <div className="bs-empty">最近 24 小时暂无电量、热量读数</div>;
  return <div ref={ref} style={{ height }} data-testid="bs-trend" />;
});

export default Trend;
