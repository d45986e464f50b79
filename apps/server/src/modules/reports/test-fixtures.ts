import { expect } from 'vitest';
import { createTenantWithProject, startTestKelvin, type TenantWithProject, type TestClient } from '../../test/harness.ts';

/** Test fixtures of the report suites (imported by *.test.ts only). */

/** A wall-clock time in Shanghai, where the reports' days and months begin: cst('2025-04-01T09:30:00'). */
export const cst = (iso: string) => Date.parse(`${iso}+08:00`);

export interface ReportSuite {
  k: TestClient;
  a: TenantWithProject;
  token: string;
  /** A GET as the suite's user that must answer code 200: its data. */
  get(url: string): Promise<any>;
}

/** What every report suite starts from: a server, a tenant with a project, and its user holding `codes`, signed in. */
export async function startReportSuite(code: string, codes: string[]): Promise<ReportSuite> {
  const k = await startTestKelvin();
  const a = await createTenantWithProject(k.db, code, codes);
  const token = await k.login(a.username, a.password);
  const get = async (url: string) => {
    const res = await k.call('GET', url, { token });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  return { k, a, token, get };
}
