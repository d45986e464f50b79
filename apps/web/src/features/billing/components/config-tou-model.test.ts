import { describe, expect, it } from 'vitest';
import { DEFAULT_TARIFF } from '@kelvin/contracts';
import { rangesOf, touProblems, touSegments, touSummary } from './config-tou-model';

describe('TOU periods of a day', () => {
  it('the default periods cover the day once, the valley across midnight', () => {
    const periods = DEFAULT_TARIFF.tou.periods;
    expect(touProblems(periods, true)).toEqual([]);
    expect(touSegments(periods).map((s) => [s.from, s.to, s.kind])).toEqual([
      [0, 480, 'valley'], [480, 660, 'peak'], [660, 1080, 'flat'], [1080, 1320, 'peak'], [1320, 1440, 'valley'],
    ]);
  });

  it('a period ending at 00:00 runs to midnight; one ending before its start wraps', () => {
    expect(rangesOf({ start: '22:00', end: '00:00' })).toEqual([[1320, 1440]]);
    expect(rangesOf({ start: '22:00', end: '06:00' })).toEqual([[1320, 1440], [0, 360]]);
    expect(rangesOf({ start: '08:00', end: '08:00' })).toEqual([]);
  });

  it('names overlaps and gaps; gaps matter only when TOU is enabled', () => {
    const periods = [
      { start: '00:00', end: '12:00', kind: 'flat' as const },
      { start: '11:00', end: '20:00', kind: 'peak' as const },
    ];
    expect(touProblems(periods, true)).toEqual(['第 1 段与第 2 段在 11:00–12:00 重叠', '20:00–24:00 没有设置时段，时段须覆盖全天 24 小时']);
    expect(touProblems(periods, false)).toEqual(['第 1 段与第 2 段在 11:00–12:00 重叠']);
  });

  it('names an unfinished period', () => {
    expect(touProblems([{ start: '08:00', end: '08:00', kind: 'peak' }, { start: '09:00' }], false)).toEqual([
      '第 1 段：开始与结束时间不能相同', '第 2 段：请填写结束时间', '第 2 段：请选择峰、平或谷',
    ]);
    expect(touProblems([], true)).toEqual(['启用分时计价时请至少添加一个时段']);
  });

  it('summarises periods for the history', () => {
    expect(touSummary([{ start: '22:00', end: '06:00', kind: 'valley' }])).toBe('谷 22:00–06:00');
  });
});
