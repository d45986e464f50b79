import type { RuleRow } from './repository.ts';

/**
 * The value rules of one device type and field, sorted so that a reading finds the rules it may break by binary
 * search instead of checking every rule: with a thousand rules on a field, a report that breaks none of them costs a
 * few comparisons. Candidates are re-checked exactly by `breaks()`; equality rules (eq, ne) are always candidates.
 */
export interface FieldRules {
  /** gt, gte by threshold ascending: broken by the rules whose threshold is at most the value */
  up: RuleRow[];
  /** lt, lte by threshold descending: broken by the rules whose threshold is at least the value */
  down: RuleRow[];
  /** outside by lower end descending (broken below it) */
  low: RuleRow[];
  /** outside by upper end ascending (broken above it) */
  high: RuleRow[];
  /** delta by threshold ascending: broken by the rules whose threshold is below the change */
  delta: RuleRow[];
  /** eq, ne */
  other: RuleRow[];
}

export function indexRules(rules: RuleRow[]): Map<string, Map<string, FieldRules>> {
  const byType = new Map<string, Map<string, FieldRules>>();
  for (const r of rules) {
    if (r.operator === 'offline') continue;
    let byField = byType.get(r.device_type);
    if (!byField) byType.set(r.device_type, (byField = new Map()));
    let f = byField.get(r.field_code);
    if (!f) byField.set(r.field_code, (f = { up: [], down: [], low: [], high: [], delta: [], other: [] }));
    switch (r.operator) {
      case 'gt': case 'gte': f.up.push(r); break;
      case 'lt': case 'lte': f.down.push(r); break;
      case 'outside': f.low.push(r); f.high.push(r); break;
      case 'delta': f.delta.push(r); break;
      default: f.other.push(r);
    }
  }
  for (const byField of byType.values()) {
    for (const f of byField.values()) {
      f.up.sort((a, b) => a.threshold - b.threshold);
      f.down.sort((a, b) => b.threshold - a.threshold);
      f.low.sort((a, b) => b.threshold - a.threshold);
      f.high.sort((a, b) => (a.threshold_high ?? Infinity) - (b.threshold_high ?? Infinity));
      f.delta.sort((a, b) => a.threshold - b.threshold);
    }
  }
  return byType;
}

const EPS = 1e-9;

/** Rules of a field that a value (and its change since the previous reading) may break; a superset, never missing one. */
export function candidates(f: FieldRules, value: number, previous: number | undefined, into: RuleRow[]): RuleRow[] {
  for (const r of f.up) { if (r.threshold > value + EPS) break; into.push(r); }
  for (const r of f.down) { if (r.threshold < value - EPS) break; into.push(r); }
  for (const r of f.low) { if (r.threshold < value - EPS) break; into.push(r); }
  for (const r of f.high) { if ((r.threshold_high ?? Infinity) > value + EPS) break; into.push(r); }
  if (previous !== undefined) {
    const change = Math.abs(value - previous);
    for (const r of f.delta) { if (r.threshold > change + EPS) break; into.push(r); }
  }
  for (const r of f.other) into.push(r);
  return into;
}
