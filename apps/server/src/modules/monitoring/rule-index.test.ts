import { describe, expect, it } from 'vitest';
import { breaks, type MonitorOperator } from '@kelvin/contracts';
import type { RuleRow } from './repository.ts';
import { candidates, indexRules } from './rule-index.ts';

let id = 0;
const rule = (operator: MonitorOperator, threshold: number, high: number | null = null) => ({
  id: ++id, tenant_id: 1, project_id: 1, name: `r${id}`, device_type: 'device20020', field_code: 'f03', operator, threshold, threshold_high: high,
  for_seconds: 0, for_reports: 0, severity: 'major', notify_sms: 0, enabled: 1, active_from: null, active_to: null, updated_by: null, created_at: 0, updated_at: 0,
}) as RuleRow;

describe('rule index', () => {
  it('finds exactly the rules a reading breaks among many (worked example)', () => {
    const rules = [rule('gt', 30), rule('gte', 25), rule('gt', 40), rule('lt', 16), rule('lte', 20), rule('outside', 18, 26), rule('outside', 10, 35), rule('delta', 5), rule('delta', 2), rule('eq', 27), rule('ne', 27)];
    const f = indexRules(rules).get('device20020')!.get('f03')!;
    const broken = (v: number, prev?: number) => candidates(f, v, prev, [])
      .filter((r) => breaks(r.operator as MonitorOperator, v, r.threshold, { high: r.threshold_high, previous: prev })).map((r) => r.name).sort();
    // 27 after 21: ≥ 25; outside 18–26; change 6 > 5 and > 2; = 27
    expect(broken(27, 21)).toEqual(['r10', 'r2', 'r6', 'r8', 'r9'].sort());
    // 15 after 16: < 16, ≤ 20, outside 18–26; ≠ 27
    expect(broken(15, 16)).toEqual(['r11', 'r4', 'r5', 'r6'].sort());
  });

  it('never misses a rule: random rules and readings against checking every rule', () => {
    const ops: MonitorOperator[] = ['gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'outside', 'delta'];
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const rules = Array.from({ length: 400 }, () => {
      const op = ops[Math.floor(rnd() * ops.length)];
      const t = Math.round(rnd() * 600) / 10;
      return op === 'outside' ? rule(op, t, t + Math.round(rnd() * 200) / 10 + 0.1) : rule(op, op === 'delta' ? t / 4 : t);
    });
    const f = indexRules(rules).get('device20020')!.get('f03')!;
    for (let i = 0; i < 2000; i++) {
      const v = Math.round(rnd() * 700 - 50) / 10;
      const prev = i % 3 ? Math.round(rnd() * 600) / 10 : undefined;
      const want = rules.filter((r) => breaks(r.operator as MonitorOperator, v, r.threshold, { high: r.threshold_high, previous: prev })).map((r) => r.id).sort();
      const got = [...new Set(candidates(f, v, prev, []).filter((r) => breaks(r.operator as MonitorOperator, v, r.threshold, { high: r.threshold_high, previous: prev })).map((r) => r.id))].sort();
      expect(got).toEqual(want);
    }
  });
});
