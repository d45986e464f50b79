import {
  STRATEGY_OPERATORS, periodicRule, type PeriodicEvery, type PeriodicRule, type StrategyOperator, type StrategySource,
} from '@kelvin/contracts/automation';
import { fieldDisplay, fieldOf } from '@kelvin/contracts/device-registry';
import type { Dayjs } from 'dayjs';

/** Pure pieces of the task dialog: the periodic rule it describes and the sentence of a strategy. */

export interface RuleDraft {
  every?: PeriodicEvery;
  at?: Dayjs | null;
  weekdays?: number[];
  days?: number[];
  cron?: string;
}

/** The periodic rule the form describes, or null while incomplete or invalid. */
export function ruleOf(v: RuleDraft): PeriodicRule | null {
  const at = v.at ? v.at.format('HH:mm') : '';
  const raw = v.every === 'daily' ? { every: 'daily', at }
    : v.every === 'weekly' ? { every: 'weekly', weekdays: v.weekdays ?? [], at }
      : v.every === 'monthly' ? { every: 'monthly', days: v.days ?? [], at }
        : { every: 'cron', cron: v.cron ?? '' };
  const r = periodicRule.safeParse(raw);
  return r.success ? r.data : null;
}

/** The Chinese sentence of a strategy: 当 室内温度 低于 16 °C 持续 20 分钟 → 写入 …；冷却 30 分钟. */
export function strategyText(deviceType: string | undefined, fieldCode: string | undefined, operator: StrategyOperator | undefined, threshold: number | undefined, forMinutes: number | undefined, cooldown: number | undefined, source: StrategySource = 'device'): string {
  if (!fieldCode || !operator || threshold === undefined || threshold === null) return '';
  const field = deviceType ? fieldOf(deviceType, fieldCode) : undefined;
  const value = deviceType && field ? fieldDisplay(deviceType, fieldCode, threshold) : String(threshold);
  const who = source === 'sensor' ? '传感器的' : '设备的';
  return `当${who}${field?.label ?? fieldCode}${STRATEGY_OPERATORS[operator]} ${value}${forMinutes ? ` 持续 ${forMinutes} 分钟` : ''}时执行${cooldown ? `，之后 ${cooldown} 分钟内不重复触发` : ''}`;
}

