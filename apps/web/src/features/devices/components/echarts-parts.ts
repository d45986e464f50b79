import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

/** The ECharts parts the history chart registers, loaded beside echarts/core (two chunks within the size budget). */
export const parts = [LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer];
