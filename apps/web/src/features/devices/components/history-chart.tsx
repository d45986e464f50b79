import { useEffect, useState } from 'react';
import * as echarts from 'echarts/core';
import type { DeviceTypeDef } from '@kelvin/contracts/device-types';
import { useChart } from '../../../components/use-chart';
import { historyOption, type ChartSeries } from './history-option';

let registered: Promise<void> | null = null;
const ready = () => (registered ??= import('./echarts-parts').then(({ parts }) => echarts.use(parts)));

/** History of a device's numeric fields (downsampled by the server), the x axis over `range`. */
export default function HistoryChart({ def, series, range: [from, to] }: { def: DeviceTypeDef; series: ChartSeries[]; range: [number, number] }) {
  const points = series.reduce((n, s) => n + s.points.length, 0);

  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    void ready().then(() => setLoaded(true));
  }, []);

  const ref = useChart(() => (loaded ? historyOption(def, series, from, to) : null), [def, series, loaded, from, to]);

  return <div ref={ref} style={{ height: 340, width: '100%' }} data-testid="history-chart" data-points={points} />;
}
