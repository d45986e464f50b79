import { DEPARTMENT_COUNTERS } from '@kelvin/contracts';
import type { FilterField } from '../../../components/data-table';
import { dayjs } from '../../../lib/time';

/** 统计粒度 (the days of a month or the months of a year), the month, the year, the energy kind. */
export const periodFilters = (): FilterField[] => [
  { name: 'grain', label: '统计粒度', kind: 'select', required: true, initial: 'day', width: 110, options: [{ value: 'day', label: '按日' }, { value: 'month', label: '按月' }] },
  { name: 'month', label: '月份（按日）', kind: 'month', required: true, initial: dayjs().startOf('month') },
  { name: 'year', label: '年份（按月）', kind: 'year', required: true, initial: dayjs().startOf('year') },
  { name: 'counter', label: '能源类型', kind: 'select', required: true, initial: 'f70', width: 140, options: Object.entries(DEPARTMENT_COUNTERS).map(([value, c]) => ({ value, label: `${c.label}（${c.unit}）` })) },
];
