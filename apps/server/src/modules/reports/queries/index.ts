import type { ReportQueryFn } from '../source.ts';
import { DEVICE_QUERIES } from './devices.ts';
import { ELECTRIC_QUERIES } from './electric.ts';
import { ENERGY_QUERIES } from './energy.ts';
import { MONEY_QUERIES } from './money.ts';
import { RECORD_QUERIES } from './records.ts';

/** Every report's query by code (a test holds it equal to the registry). */
export const REPORT_QUERIES: ReadonlyMap<string, ReportQueryFn> = new Map(Object.entries({
  ...RECORD_QUERIES,
  ...ENERGY_QUERIES,
  ...MONEY_QUERIES,
  ...DEVICE_QUERIES,
  ...ELECTRIC_QUERIES,
}));
