/** Types of rollup.mjs (plain JavaScript so the SQLite writer's worker thread loads it as is). */
export type Reading = [deviceId: number, fieldCode: string, ts: number, num: number | null];

export interface Grain {
  table: 'device_rollup_hour' | 'device_rollup_day';
  span: number;
  bucketOf(ts: number): number;
}

export const HOUR: number;
export const DAY: number;
export const CST: number;
export const GRAINS: readonly [Grain, Grain];
export const ROLLUP_COLUMNS: readonly string[];
export const ROLLUP_WIDTH: number;

export function aggregate(readings: Reading[], grains?: readonly Grain[]): unknown[][];
export function upsertSql(dialect: 'sqlite' | 'postgres', table: Grain['table'], mode: 'merge' | 'replace', rows: number): string;
export function lateBuckets(grain: Grain, returned: [deviceId: number, fieldCode: string, bucket: number, delta: number][]): [number, string, number, number][];
