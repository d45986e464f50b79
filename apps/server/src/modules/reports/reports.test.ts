import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATACENTER_WORKFLOW_CODES, MENUS, REPORTS, REPORT_BY_CODE, periodRange } from '@kelvin/contracts';
import { download } from '../admin/fixtures.ts';
import { createArea, type TenantWithProject, type TestClient } from '../../test/harness.ts';
import { REPORT_QUERIES } from './queries/index.ts';
import { startReportSuite, type ReportSuite } from './test-fixtures.ts';

/** The registry and the framework (page, sort, totals, period, export, §6 visibility), on the record reports. */

let k: TestClient;
let a: TenantWithProject;
let token: string;
let get: ReportSuite['get'];
const CST = 8 * 3600_000;
/** 2026-03-01 00:00:00 CST */
const MARCH = Date.UTC(2026, 2, 1) - CST;

beforeAll(async () => {
  ({ k, a, token, get } = await startReportSuite('rpta', ['datacenter', 'operateRecord', 'operateRecord:export', 'userList_n', 'userList_n:export', 'ladderReport_n']));
  // two accounts with hand-written ledger entries: the report reads the ledger as it is
  const room1 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'room', name: '101' });
  const room2 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'room', name: '102' });
  const acc = async (name: string, room: number, balance: number) => {
    const { id } = await k.db.insertInto('account').values({
      tenant_id: a.tenantId, project_id: a.projectId, kind: 'resident', name, phone: '13800138000', id_number: null, move_in_date: null, status: 'active',
      balance_fen: balance, deposit_fen: 0, group_id: null, remark: null, created_at: MARCH,
    }).returning('id').executeTakeFirstOrThrow();
    await k.db.insertInto('account_room').values({ tenant_id: a.tenantId, account_id: id, room_id: room, active: 1, created_at: MARCH, released_at: null }).execute();
    return id;
  };
  const zhang = await acc('张三', room1, 15_000);
  const li = await acc('李四', room2, 2_000);
  const entry = (account: number, kind: string, amount: number, after: number, at: number, method: string | null = 'cash') => ({
    tenant_id: a.tenantId, project_id: a.projectId, account_id: account, book: 'balance', kind, amount_fen: amount, balance_after_fen: after, method,
    reason: null, cause_type: null, cause_id: null, actor_id: null, actor_name: '收费员', idem_key: null, created_at: at,
  });
  await k.db.insertInto('ledger_entry').values([
    entry(zhang, 'topup', 10_000, 10_000, MARCH), // 2026-03-01 00:00:00 — inside March
    entry(zhang, 'topup', 5_000, 15_000, MARCH + 31 * 86_400_000 - 1, 'bank'), // 03-31 23:59:59.999 — still March
    entry(li, 'topup', 3_000, 3_000, MARCH + 10 * 86_400_000, 'online'),
    entry(li, 'refund', -1_000, 2_000, MARCH + 11 * 86_400_000, null),
    entry(li, 'charge', -500, 1_500, MARCH + 12 * 86_400_000, null), // a charge is not a top-up record
    entry(zhang, 'topup', 7_000, 22_000, MARCH + 31 * 86_400_000), // 04-01 00:00:00 — April
  ]).execute();
});
afterAll(() => k?.close());

describe('报表注册表', () => {
  it('every /datacenter screen is a report of the registry or a workflow screen, and every report has its query', () => {
    const codes = MENUS.filter((m) => m.parent === 'datacenter' && m.type === 'menu').map((m) => m.code);
    const missing = codes.filter((c) => !REPORT_BY_CODE.has(c) && !(DATACENTER_WORKFLOW_CODES as readonly string[]).includes(c));
    expect(missing, 'datacenter codes with neither a report entry nor a page of their own').toEqual([]);
    expect(REPORTS.filter((r) => !REPORT_QUERIES.has(r.code)).map((r) => r.code), 'reports without a query').toEqual([]);
    for (const r of REPORTS) {
      expect(r.columns.some((c) => c.key === r.rowKey) || ['deviceId', 'accountId', 'groupId', 'teamId', 'key', 'id'].includes(r.rowKey), r.code).toBe(true);
      if (r.tabOf) expect(REPORT_BY_CODE.has(r.tabOf), r.code).toBe(true);
    }
  });

  it('a period preset is [start, end) in China Standard Time', () => {
    // 2026-11-25 10:00 CST, a Wednesday
    const now = Date.UTC(2026, 10, 25, 2);
    expect(periodRange('today', now)).toEqual([Date.UTC(2026, 10, 24, 16), Date.UTC(2026, 10, 25, 16)]);
    expect(periodRange('week', now)).toEqual([Date.UTC(2026, 10, 22, 16), Date.UTC(2026, 10, 29, 16)]);
    expect(periodRange('month', now)).toEqual([Date.UTC(2026, 9, 31, 16), Date.UTC(2026, 10, 30, 16)]);
    expect(periodRange('year', now)).toEqual([Date.UTC(2025, 11, 31, 16), Date.UTC(2026, 11, 31, 16)]);
  });
});

describe('充值记录 operateRecord', () => {
  const march = () => `projectId=${a.projectId}&from=${MARCH}&to=${MARCH + 31 * 86_400_000}`;

  it('lists March top-ups and refunds with the month edges, totals over the whole selection, rooms', async () => {
    const page = await get(`/api/v1/datacenter/operateRecord?${march()}&pageSize=2`);
    // 100.00 + 50.00 + 30.00 − 10.00 = 170.00: the 04-01 00:00 top-up and the charge are not in it
    expect(page.total).toBe(4);
    expect(page.totals).toEqual({ amountFen: 17_000 });
    expect(page.rows).toHaveLength(2);
    expect(page.rows.map((r: { amountFen: number }) => r.amountFen)).toEqual([5_000, -1_000]); // newest first
    expect(page.rows[0]).toMatchObject({ accountName: '张三', kind: '充值', method: '银行转账', rooms: '1号楼 / 101', operator: '收费员' });
    expect(page.applied).toEqual([{ label: '时间', value: '2026-03-01 至 2026-03-31' }]);
    // the ledger itself: the same filter summed in SQL
    const ledger = await k.db.selectFrom('ledger_entry').select((eb) => eb.fn.sum<number>('amount_fen').as('s')).where('project_id', '=', a.projectId)
      .where('kind', 'in', ['topup', 'refund']).where('created_at', '>=', MARCH).where('created_at', '<', MARCH + 31 * 86_400_000).executeTakeFirst();
    expect(Number(ledger?.s)).toBe(page.totals.amountFen);
  });

  it('filters by method and keyword, sorts by a sortable column, refuses another', async () => {
    expect((await get(`/api/v1/datacenter/operateRecord?${march()}&method=cash`)).totals).toEqual({ amountFen: 10_000 });
    expect((await get(`/api/v1/datacenter/operateRecord?${march()}&keyword=102`)).totals).toEqual({ amountFen: 2_000 });
    const asc = await get(`/api/v1/datacenter/operateRecord?${march()}&sortBy=amountFen&sortOrder=asc`);
    expect(asc.rows.map((r: { amountFen: number }) => r.amountFen)).toEqual([-1_000, 3_000, 5_000, 10_000]);
    const bad = await k.call('GET', `/api/v1/datacenter/operateRecord?${march()}&sortBy=reason`, { token });
    expect(bad.body.code).toBe(40000);
    expect(bad.body.msg).toContain('不能按「备注」排序');
    const backwards = await k.call('GET', `/api/v1/datacenter/operateRecord?projectId=${a.projectId}&from=${MARCH}&to=${MARCH}`, { token });
    expect(backwards.body.msg).toBe('结束时间必须晚于开始时间');
  });

  it('exports exactly the selection: title, filters, time, header, every row, the total', async () => {
    const res = await download(k, `/api/v1/datacenter/operateRecord/export?${march()}`, token);
    expect(res.status).toBe(200);
    expect(res.headers['x-report-rows']).toBe('4');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0][0]).toBe('rpta项目 · 充值记录');
    expect(rows[1][0]).toBe('时间：2026-03-01 至 2026-03-31');
    expect(String(rows[2][0])).toMatch(/^生成时间：\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(rows[3]).toEqual(['时间', '账户', '房间', '类型', '金额（元）', '余额（元）', '方式', '操作人', '备注']);
    const data = rows.slice(4, -1);
    const page = await get(`/api/v1/datacenter/operateRecord?${march()}`);
    expect(data.map((r) => [r[1], r[4]])).toEqual(page.rows.map((r: { accountName: string; amountFen: number }) => [r.accountName, r.amountFen / 100]));
    expect((data[0][0] as Date).toISOString()).toBe('2026-03-31T23:59:59.999Z'); // the CST wall clock, as Excel has no zones
    expect(rows.at(-1)![0]).toBe('合计（4 条）');
    expect(rows.at(-1)![4]).toBe(170);
  });
});

describe('导出按键集分片', () => {
  it('exports 4,500 rows whose times tie at the slice edges: every row once, in the order of the pages', async () => {
    const MAY = MARCH + 61 * 86_400_000;
    const account = (await k.db.selectFrom('account').select('id').where('tenant_id', '=', a.tenantId).executeTakeFirstOrThrow()).id;
    const rows = Array.from({ length: 4_500 }, (_, i) => ({
      tenant_id: a.tenantId, project_id: a.projectId, account_id: account, book: 'balance', kind: 'topup', amount_fen: i + 1, balance_after_fen: 0, method: 'cash',
      reason: null, cause_type: null, cause_id: null, actor_id: null, actor_name: '批量', idem_key: null, created_at: MAY + Math.floor(i / 3) * 1000,
    }));
    for (let i = 0; i < rows.length; i += 500) await k.db.insertInto('ledger_entry').values(rows.slice(i, i + 500)).execute();
    const q = `projectId=${a.projectId}&from=${MAY}&to=${MAY + 86_400_000}`;
    const res = await download(k, `/api/v1/datacenter/operateRecord/export?${q}`, token);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const amounts: number[] = [];
    wb.worksheets[0].eachRow((row, n) => {
      if (n > 4 && typeof row.getCell(5).value === 'number' && row.getCell(1).value instanceof Date) amounts.push(Math.round((row.getCell(5).value as number) * 100));
    });
    // newest first, ties by id descending: 4500, 4499, 4498, 4497 …
    expect(amounts).toHaveLength(4_500);
    expect(amounts).toEqual(Array.from({ length: 4_500 }, (_, i) => 4_500 - i));
    const lastPage = await get(`/api/v1/datacenter/operateRecord?${q}&pageNo=23&pageSize=200`);
    expect(lastPage.rows.map((r: { amountFen: number }) => r.amountFen)).toEqual(amounts.slice(4_400));
  });
});

describe('用户列表与可见性', () => {
  it('lists accounts with their rooms and area; a report the project\'s scheme does not show is refused', async () => {
    await k.db.updateTable('area').set({ floor_area: 88.5 }).where('name', '=', '101').where('tenant_id', '=', a.tenantId).execute();
    const page = await get(`/api/v1/datacenter/userList_n?projectId=${a.projectId}&sortBy=accountName&sortOrder=asc`);
    expect(page.total).toBe(2);
    expect(page.totals).toEqual({ area: 88.5, balanceFen: 17_000, depositFen: 0 });
    // scheme 1 (report1 + report4): the ladder report (report2) is not this project's
    const refused = await k.call('GET', `/api/v1/datacenter/ladderReport_n?projectId=${a.projectId}`, { token });
    expect(refused.body.code).toBe(40300);
    expect(refused.body.msg).toContain('不提供阶梯电价报表');
  });
});
