import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts/device-registry';
import { dataRange, fitToData, historyOption, type ChartSeries } from './history-option';

const HOUR = 3_600_000;
const now = Date.UTC(2026, 10, 23, 12);
const def = DEVICE_TYPE_BY_CODE.get('device20020')!;

describe('device history chart', () => {
  it('opens on the range that has data: a fresh install\'s minutes fill the chart', () => {
    expect(dataRange({ createdAt: now - 20 * 60_000, lastReportAt: now - 5_000 }, now)).toEqual([now - 20 * 60_000, now]);
    // at least a quarter of an hour, even right after registration
    expect(dataRange({ createdAt: now - 60_000, lastReportAt: now }, now)).toEqual([now - 15 * 60_000, now]);
  });

  it('the chart of that range starts just before the first point', () => {
    const from = now - 15 * 60_000;
    const series = [{ field: 'f03', label: '室内温度', unit: '°C', points: [[now - 2 * 60_000, 20], [now, 21]] as [number, number][] }];
    expect(fitToData({ from, to: now, series })).toEqual([now - 3 * 60_000, now]);
    expect(fitToData({ from, to: now, series: [{ ...series[0], points: [] }] })).toEqual([from, now]);
    expect(fitToData({ from, to: now, series: [{ ...series[0], points: [[from + 1000, 20]] }] })).toEqual([from, now]);
  });

  it('an older device shows its last day; one that went quiet shows the day before its last report', () => {
    expect(dataRange({ createdAt: now - 90 * 24 * HOUR, lastReportAt: now - 1000 }, now)).toEqual([now - 24 * HOUR, now]);
    const last = now - 5 * 24 * HOUR;
    expect(dataRange({ createdAt: now - 90 * 24 * HOUR, lastReportAt: last }, now)).toEqual([last + 60_000 - 24 * HOUR, last + 60_000]);
    expect(dataRange({ createdAt: now - 2 * HOUR, lastReportAt: null }, now)).toEqual([now - 2 * HOUR, now]);
  });

  it('set points are steps (the last value holds), measured values lines', () => {
    const series: ChartSeries[] = [
      { field: 'f03', label: '室内温度', unit: '°C', points: [[now - HOUR, 20.1], [now, 21.4]] },
      { field: 'f04', label: '设定温度', unit: '°C', points: [[now - HOUR, 22], [now, 26]] },
    ];
    const option = historyOption(def, series, now - 2 * HOUR, now);
    const [room, set] = option.series;
    expect(room).toMatchObject({ name: '室内温度（°C）', type: 'line' });
    expect(room.step).toBeUndefined();
    expect(set).toMatchObject({ name: '设定温度（°C）', type: 'line', step: 'end' });
    expect(option.yAxis).toHaveLength(1);
  });

  it('aggregated measured values carry a min/max band when the answer has one', () => {
    const series: ChartSeries[] = [{
      field: 'f03', label: '室内温度', unit: '°C', points: [[now - HOUR, 20], [now, 21]], bands: [[now - HOUR, 19, 21], [now, 20.5, 22]],
    }];
    const option = historyOption(def, series, now - 2 * HOUR, now);
    expect(option.series).toHaveLength(3);
    expect(option.series[0]).toMatchObject({ stack: 'band-f03', data: [[now - HOUR, 19], [now, 20.5]] });
    expect(option.series[1]).toMatchObject({ stack: 'band-f03', data: [[now - HOUR, 2], [now, 1.5]], areaStyle: { opacity: 0.15 } });
    expect(option.legend.data).toEqual(['室内温度（°C）']);
  });
});
