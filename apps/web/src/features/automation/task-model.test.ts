import { describe, expect, it } from 'vitest';
import { dayjs } from '../../lib/time';
import { ruleOf, strategyText } from './task-model';

const at = dayjs().hour(7).minute(30);

describe('periodic rule of the task dialog', () => {
  it('builds each kind of rule, and nothing while it is incomplete', () => {
    expect(ruleOf({ every: 'daily', at })).toEqual({ every: 'daily', at: '07:30' });
    expect(ruleOf({ every: 'weekly', at, weekdays: [1, 2, 3, 4, 5] })).toEqual({ every: 'weekly', weekdays: [1, 2, 3, 4, 5], at: '07:30' });
    expect(ruleOf({ every: 'weekly', at, weekdays: [] })).toBeNull();
    expect(ruleOf({ every: 'monthly', at, days: [1, 15] })).toEqual({ every: 'monthly', days: [1, 15], at: '07:30' });
    expect(ruleOf({ every: 'daily', at: null })).toBeNull();
    expect(ruleOf({ every: 'cron', cron: '30 7 * * 1-5' })).toEqual({ every: 'cron', cron: '30 7 * * 1-5' });
    expect(ruleOf({ every: 'cron', cron: '30 7 * *' })).toBeNull();
  });
});

describe('strategy sentence', () => {
  it('reads the condition with the field\'s label and unit, the duration and the cool-down', () => {
    expect(strategyText('device20020', 'f03', 'lt', 16, 20, 30)).toBe('当设备的室内温度低于 16.0 °C 持续 20 分钟时执行，之后 30 分钟内不重复触发');
    expect(strategyText('device20050', 'f44', 'gte', -5, 0, 0, 'sensor')).toBe('当传感器的环境温度不低于 -5.0 °C时执行');
    expect(strategyText('device20020', undefined, 'lt', 16, 20, 30)).toBe('');
  });
});
