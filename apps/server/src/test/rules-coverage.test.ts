import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_OPERATIONS as PUBLIC, type Row } from './endpoint-rules.ts';
import { startTestKelvin, type TestClient } from './harness.ts';
import { ACCOUNT_ROWS } from './rules-accounts.ts';
import { ADMIN_ROWS } from './rules-admin.ts';
import { AUTOMATION_ROWS } from './rules-automation.ts';
import { BILLING_ROWS } from './rules-billing.ts';
import { DEVICE_ADMIN_ROWS } from './rules-device-management.ts';
import { DEVICE_ROWS } from './rules-devices.ts';
import { MONITORING_ROWS } from './rules-monitoring.ts';
import { PROJECT_ROWS } from './rules-projects.ts';
import { DATADEMO_ROWS, REPORT_ROWS } from './rules-reports.ts';
import { REPAIR_ROWS } from './rules-repairs.ts';
import { OPS_ROWS } from './rules-ops.ts';
import { BIGSCREEN_ROWS } from './rules-bigscreen.ts';
import { DICTIONARY_ROWS } from './rules-dictionary.ts';
import { REGISTRATION_ROWS } from './rules-registration.ts';
import { DEPARTMENT_ROWS } from './rules-departments.ts';

/**
 * Every operation of the OpenAPI document has a row in the permission/tenancy table (test/rules-*.ts), or is one of
 * the few calls made before or without a tenant's data. A new endpoint without a row fails here.
 */

const ROWS: Row[] = [...ADMIN_ROWS, ...PROJECT_ROWS, ...DEVICE_ROWS, ...DEVICE_ADMIN_ROWS, ...MONITORING_ROWS, ...ACCOUNT_ROWS, ...AUTOMATION_ROWS, ...BILLING_ROWS, ...REPORT_ROWS, ...DATADEMO_ROWS, ...REPAIR_ROWS, ...OPS_ROWS, ...BIGSCREEN_ROWS, ...DICTIONARY_ROWS, ...REGISTRATION_ROWS, ...DEPARTMENT_ROWS];


let k: TestClient;
beforeAll(async () => {
  k = await startTestKelvin();
});
afterAll(() => k?.close());

describe('权限与租户隔离表覆盖全部接口', () => {
  it('every OpenAPI operation has a row (or is a listed public call), and every row names a real operation', async () => {
    const doc = (await k.call('GET', '/api/docs/json')).body as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`));
    const covered = new Set(ROWS.map((r) => `${r.method} ${r.path}`));

    const missing = operations.filter((op) => !covered.has(op) && !(op in PUBLIC));
    expect(missing, 'operations without a row in test/rules-*.ts').toEqual([]);
    expect([...covered].filter((op) => !operations.includes(op)), 'rows naming no operation').toEqual([]);
    expect(Object.keys(PUBLIC).filter((op) => !operations.includes(op)), 'public calls that no longer exist').toEqual([]);
    expect(Object.keys(PUBLIC).filter((op) => covered.has(op)), 'public calls that also have a row').toEqual([]);
    expect(operations.length).toBeGreaterThan(150);
    expect(covered.size + Object.keys(PUBLIC).length).toBe(operations.length);
  });

  it('the listed public calls really answer without a token (anything else must have a row)', async () => {
    for (const op of Object.keys(PUBLIC)) {
      const [method, path] = op.split(' ') as ['GET' | 'POST', string];
      const res = await k.call(method, path, method === 'POST' ? { body: {} } : {});
      expect(res.status, op).not.toBe(401);
    }
  });
});
