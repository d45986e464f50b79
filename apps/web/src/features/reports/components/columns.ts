import type { ReportColumn, ReportFormat } from '@kelvin/contracts';

/** A column's header with its unit: 用量（kWh）, 金额（元）. */
export const columnTitle = (c: ReportColumn) => (c.unit ? `${c.label}（${c.unit}）` : c.label);
/** Numbers are right-aligned on screen and on paper. */
export const isNumeric = (format: ReportFormat) => format !== 'text' && format !== 'datetime' && format !== 'date';
