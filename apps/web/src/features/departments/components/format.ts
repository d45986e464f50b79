/** Quantities with two decimals ('—' when there is no reading), ratios as signed percentages. */
export const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(2));
export const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${v > 0 ? '+' : ''}${(v * 100).toFixed(1)}%`);
