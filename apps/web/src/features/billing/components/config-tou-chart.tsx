import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { Space, Typography } from 'antd';
import { TOU_KINDS, type TouKind } from '@kelvin/contracts';
import { useChart } from '../../../components/use-chart';
import { TOU_COLORS, hhmmOf, touSegments, type TouPeriod } from './config-tou-model';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

/**
 * The day 00:00–24:00 as one bar coloured by the kind billed (峰 / 平 / 谷); grey where no period covers the time,
 * purple where periods overlap. Drawn from the periods being edited.
 */
export function TouChart({ periods, prices }: { periods: Partial<TouPeriod>[]; prices?: Partial<Record<TouKind, string>> }) {
  const segments = touSegments(periods);
  const key = JSON.stringify([periods, prices]);
  const ref = useChart(() => ({
    animation: false,
    grid: { left: 8, right: 16, top: 8, bottom: 28, containLabel: false },
    tooltip: { trigger: 'item' },
    xAxis: {
      type: 'value', min: 0, max: 24, interval: 2,
      axisLabel: { formatter: (h: number) => `${String(h).padStart(2, '0')}:00` },
      splitLine: { lineStyle: { type: 'dashed' } },
    },
    yAxis: { type: 'category', data: ['全天'], show: false },
    series: segments.map((s) => {
      const name = s.periods.length === 0 ? '未设置' : s.periods.length > 1 ? '重叠' : TOU_KINDS[s.kind as TouKind] ?? '未设置';
      const color = s.periods.length === 0 ? TOU_COLORS.gap : s.periods.length > 1 ? TOU_COLORS.overlap : TOU_COLORS[s.kind ?? 'gap'];
      const price = s.kind && s.periods.length === 1 ? prices?.[s.kind] : undefined;
      return {
        type: 'bar', stack: 'day', barWidth: 36, name,
        data: [(s.to - s.from) / 60],
        itemStyle: { color, borderColor: '#fff', borderWidth: 1 },
        label: { show: s.to - s.from >= 90, formatter: name, color: 'rgba(0,0,0,0.75)' },
        tooltip: { formatter: `${hhmmOf(s.from)}–${hhmmOf(s.to)} · ${name}${price ? ` · ${price} 元` : ''}` },
      };
    }),
  }), [key]);
  return (
    <div>
      <div ref={ref} style={{ height: 84, width: '100%' }} data-testid="tou-chart" data-segments={segments.map((s) => `${hhmmOf(s.from)}-${hhmmOf(s.to)}:${s.periods.length > 1 ? 'overlap' : s.kind ?? 'gap'}`).join(',')} />
      <Space size={16} wrap style={{ fontSize: 12 }}>
        {(['peak', 'flat', 'valley'] as const).map((k) => <Legend key={k} color={TOU_COLORS[k]} text={`${TOU_KINDS[k]}${prices?.[k] ? ` ${prices[k]} 元` : ''}`} />)}
        <Legend color={TOU_COLORS.gap} text="未设置" />
        <Legend color={TOU_COLORS.overlap} text="重叠" />
      </Space>
    </div>
  );
}

function Legend({ color, text }: { color: string; text: string }) {
  return (
    <Space size={4}>
      <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 2, background: color }} />
      <Typography.Text style={{ fontSize: 12 }}>{text}</Typography.Text>
    </Space>
  );
}
