import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';

/**
 * An ECharts instance on a div, drawn from `build()` again only when `deps` change (not on every render of the page),
 * resized with its box. Callers register the chart parts they use with `echarts.use`.
 */
export function useChart(build: () => echarts.EChartsCoreOption, deps: unknown[]) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = echarts.init(ref.current!);
    chart.setOption(build());
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(ref.current!);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- build reads exactly deps
  }, deps);
  return ref;
}
