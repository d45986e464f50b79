import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';

/**
 * An ECharts instance on a div, drawn from `build()` again only when `deps` change (not on every render of the page),
 * resized with its box. Callers register the chart parts they use with `echarts.use`; `build` returns null while
 * they are not loaded yet.
 */
export function useChart(build: () => echarts.EChartsCoreOption | null, deps: unknown[]) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const option = build();
    if (!option) return;
    const chart = echarts.init(ref.current!);
    chart.setOption(option);
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
