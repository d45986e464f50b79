import type { ReportQueryFn } from '../source.ts';
import { DEVICE_QUERIES } from './devices.ts';
import { RECORD_QUERIES } from './records.ts';

/** Every report's query by code (a test holds it equal to the registry). */
export const REPORT_QUERIES: ReadonlyMap<string, ReportQueryFn> = new Map(Object.entries({
  ...RECORD_QUERIES,
  ...DEVICE_QUERIES,
}));
