import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ReportChart as ChartDef, ReportChartData } from '@kelvin/contracts';
import { useChart } from '../../../components/use-chart';

echarts.use([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

/** Money series travel as integer fen; the chart shows 元. */
const shown = (unit: string | undefined, v: number | null) => (v === null || unit !== '元' ? v : Math.round(v) / 100);

/** A report's chart over everything the filters select (the registry says which series, how drawn). */
export function ReportChart({ def, data }: { def: ChartDef; data: ReportChartData }) {
  const ref = useChart(() => {
    const units = [...new Set(def.series.map((s) => s.unit ?? ''))];
    if (def.kind === 'pie') {
      const s = def.series[0];
      return {
        animation: false,
        tooltip: { trigger: 'item', valueFormatter: (v: number) => `${v}${s.unit ?? ''}` },
        legend: { type: 'scroll', bottom: 0 },
        series: [{ name: s.label, type: 'pie', radius: ['35%', '65%'], data: data.x.map((name, i) => ({ name, value: shown(s.unit, data.series[s.key]?.[i] ?? 0) })) }],
      };
    }
    const zoom = def.zoom && data.x.length > 31;
    return {
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { top: 0, type: 'scroll' },
      grid: { left: 64, right: units.length > 1 ? 64 : 24, top: 40, bottom: zoom ? 64 : 32 },
      xAxis: { type: 'category', data: data.x, axisLabel: { hideOverlap: true } },
      yAxis: units.map((u, i) => ({ type: 'value', name: u, position: i ? 'right' : 'left', splitLine: { show: i === 0 } })),
      ...(zoom ? { dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }] } : {}),
      series: def.series.map((s) => ({
        name: s.label, type: s.kind ?? def.kind, stack: s.stack, yAxisIndex: units.indexOf(s.unit ?? ''), showSymbol: false, barMaxWidth: 28,
        data: (data.series[s.key] ?? []).map((v) => shown(s.unit, v)),
      })),
    };
  }, [def, data]);
  return <div ref={ref} style={{ height: 300, width: '100%' }} data-testid="report-chart" data-points={data.x.length} />;
}
