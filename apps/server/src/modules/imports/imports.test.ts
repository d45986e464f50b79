import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MODEL_TYPES } from '@kelvin/contracts';
import { createTenantWithProject, createUser, startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';

let k: TestClient;
let a: TenantWithProject, b: TenantWithProject, tokenA: string, tokenB: string;
const CODES = ['area', 'area:btn_add', 'area:export', 'projectlist', 'projectlist:export'];
const HEADER = ['区域*', '项目*', '项目类型', '楼栋', '楼层', '房间', '面积(m²)', '项目地址', '经度', '纬度'];
type Cell = string | number | null;

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'imp', CODES, ['PT2010', 'PT1011']));
});
afterAll(() => k?.close());

async function xlsx(header: string[], rows: Cell[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('数据');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
function post(token: string, url: string, file: Buffer, name = 'import.xlsx') {
  const form = new FormData();
  form.append('file', new Blob([file]), name);
  return k.call('POST', url, { token, body: form });
}
const importTree = (token: string, file: Buffer) => post(token, '/api/v1/area/projectimport', file);
async function get(token: string, url: string) {
  const res = await k.kelvin.app.inject({ method: 'GET', url, headers: { authorization: token } });
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, json: () => res.json() };
}
async function readBack(raw: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as unknown as ArrayBuffer);
  return wb;
}
const countAreas = async (tenantId: number) => Number((await k.db.selectFrom('area').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow()).n);

/** 2 buildings × 3 floors × 10 rooms of a new project in a new region. */
function projectRows(region: string, project: string): Cell[][] {
  const rows: Cell[][] = [];
  for (let bld = 1; bld <= 2; bld++) {
    for (let f = 1; f <= 3; f++) {
      for (let r = 1; r <= 10; r++) {
        const first = rows.length === 0;
        rows.push([region, project, first ? 'PT2010' : null, `${bld}号楼`, `${f}层`, `${f}${String(r).padStart(2, '0')}`, 80 + r, first ? '上海市徐汇区 1 号' : null, first ? 121.44 : null, first ? 31.19 : null]);
      }
    }
  }
  return rows;
}

describe('导入模板', () => {
  it('every modelType downloads as an .xlsx whose first row is the template columns, with a 说明 sheet', async () => {
    for (const modelType of IMPORT_MODEL_TYPES) {
      const res = await get(tokenA, `/api/v1/area/downloadImportModel?modelType=${modelType}`);
      expect(res.status, modelType).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(res.headers['content-disposition']).toContain("filename*=UTF-8''");
      const wb = await readBack(res.raw);
      const list = await k.call('GET', `/api/v1/area/importmodel_${modelType.toLowerCase()}list`, { token: tokenA });
      const model = list.body.data[0];
      expect(model.modelType).toBe(modelType);
      const header = (wb.worksheets[0].getRow(1).values as string[]).slice(1);
      expect(header).toEqual(model.columns.map((c: { title: string; required: boolean }) => (c.required ? `${c.title}*` : c.title)));
      expect(wb.getWorksheet('说明')).toBeTruthy();
      expect(wb.worksheets[0].actualRowCount).toBe(1);
    }
    expect((await k.call('GET', '/api/v1/area/downloadImportModel?modelType=nope', { token: tokenA })).body).toMatchObject({ code: 40000, msg: '模板类型不存在' });
  });

  it('the project template offers the project types as a dropdown', async () => {
    const wb = await readBack((await get(tokenA, '/api/v1/area/downloadImportModel?modelType=project')).raw);
    expect(wb.worksheets[0].getCell('C2').dataValidation).toMatchObject({ type: 'list' });
  });
});

describe('项目楼宇导入', () => {
  it('imports a new region, project and 2 × 3 × 10 rooms with areas; importing again changes nothing', async () => {
    const file = await xlsx(HEADER, projectRows('华东区域', '徐汇大厦'));
    const res = await importTree(tokenA, file);
    expect(res.body.code).toBe(200);
    expect(res.body.data).toEqual({ rows: 60, created: { region: 1, project: 1, building: 2, floor: 6, room: 60 }, updated: 0 });
    const project = await k.db.selectFrom('area').selectAll().where('tenant_id', '=', a.tenantId).where('name', '=', '徐汇大厦').executeTakeFirstOrThrow();
    expect(project).toMatchObject({ level: 'project', project_type: 'PT2010', address: '上海市徐汇区 1 号', lng: 121.44, lat: 31.19 });
    const detail = await k.call('GET', `/api/v1/area/index/getProjectIndexMessage?projectId=${project.id}`, { token: tokenA });
    expect(detail.body.data.counts).toMatchObject({ buildings: 2, floors: 6, rooms: 60, floorArea: 6 * (80 * 10 + 55) });
    const again = await importTree(tokenA, file);
    expect(again.body.data).toEqual({ rows: 60, created: {}, updated: 0 });
  });

  it('adds to an existing project and updates a room area that changed', async () => {
    await importTree(tokenA, await xlsx(HEADER, [['impa区域', 'impa项目', null, '1号楼', '9层', '901', 50]]));
    const res = await importTree(tokenA, await xlsx(HEADER, [
      ['impa区域', 'impa项目', 'PT2010', '1号楼', '9层', '901', 55.5],
      ['impa区域', 'impa项目', null, '1号楼', '9层', '902', null],
    ]));
    expect(res.body.data).toEqual({ rows: 2, created: { room: 1 }, updated: 1 });
    const room = await k.db.selectFrom('area').select('floor_area').where('tenant_id', '=', a.tenantId).where('name', '=', '901').executeTakeFirstOrThrow();
    expect(room.floor_area).toBe(55.5);
  });

  it('reports every bad row with its number and reason, and imports nothing', async () => {
    const before = await countAreas(a.tenantId);
    const res = await importTree(tokenA, await xlsx(HEADER, [
      ['坏区域', '坏项目', 'PT2010', '1号楼', '1层', '101', 90],
      [null, '坏项目', null, '1号楼', '1层', '102', 90],
      ['坏区域', '坏项目', null, '1号楼', '1层', '101', null],
      ['坏区域', '坏项目', null, '1号楼', null, '103', null],
      ['坏区域', '坏项目', null, '1号楼', '1层', '104', -5],
      ['坏区域', '坏项目', 'PT9999', null, null, null, null],
      ['坏区域', '坏项目', null, null, null, null, null, null, 200, 30],
      ['坏区域', '另一个新项目', null, '1号楼', null, null, null],
      ['impa区域', 'impa项目', 'PT1011', null, null, null, null],
      ['坏区域', '坏项目', null, '1号楼', '1层', '105', 'abc'],
    ]));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40000);
    expect(res.body.msg).toMatch(/^导入失败：9 行有误，未导入任何数据。第 3 行「区域」：请填写区域$/);
    const byRow = Object.fromEntries(res.body.data.errors.map((e: { row: number; column: string; message: string }) => [e.row, `${e.column}:${e.message}`]));
    expect(byRow).toEqual({
      3: '区域:请填写区域',
      4: '房间:与第 2 行重复',
      5: '楼层:填了房间时必须填写楼层',
      6: '面积(m²):面积必须是大于 0 且不超过 1000000 的数字',
      7: '项目类型:项目类型「PT9999」不存在',
      8: '经度:经度必须是 -180～180 的数字',
      9: '项目类型:新项目「另一个新项目」需填写项目类型',
      10: '项目类型:项目「impa项目」已存在，项目类型为 PT2010，与本行不一致',
      11: '面积(m²):面积必须是大于 0 且不超过 1000000 的数字',
    });
    expect(res.body.data.totalRows).toBe(10);
    expect(await countAreas(a.tenantId)).toBe(before);
  });

  it('project details must agree between rows of the same project', async () => {
    const res = await importTree(tokenA, await xlsx(HEADER, [
      ['一致区域', '一致项目', 'PT1011', '1号楼', null, null, null, '地址甲'],
      ['一致区域', '一致项目', null, '2号楼', null, null, null, '地址乙'],
    ]));
    expect(res.body.data.errors).toEqual([{ row: 3, column: '项目地址', message: '与第 2 行填写的项目地址「地址甲」不一致' }]);
  });

  it('recognises the wrong template, a file that is not Excel, and an empty file', async () => {
    const device = await get(tokenA, '/api/v1/area/downloadImportModel?modelType=areaDevice');
    const wrong = await importTree(tokenA, device.raw);
    expect(wrong.body).toMatchObject({ code: 40000, msg: '模板不正确：缺少列「区域」「项目」，请下载「项目楼宇导入模板」重新填写' });
    const notExcel = await importTree(tokenA, Buffer.from('区域,项目\n华北,阳光'));
    expect(notExcel.body).toMatchObject({ code: 40000, msg: '文件不是有效的 Excel（.xlsx）文件' });
    const empty = await importTree(tokenA, await xlsx(HEADER, []));
    expect(empty.body).toMatchObject({ code: 40000, msg: '文件中没有数据行：请从第 2 行起每行填写一条数据（各列的填写示例见「说明」工作表）' });
    // the template as downloaded says where to write, not just that it is empty
    const untouched = await importTree(tokenA, (await get(tokenA, '/api/v1/area/downloadImportModel?modelType=project')).raw);
    expect(untouched.body.msg).toContain('请从第 2 行起每行填写一条数据');
    const noFile = await k.call('POST', '/api/v1/area/projectimport', { token: tokenA, body: {} });
    expect(noFile.body.code).toBe(40000);
  });

  it('imports 10,000 rooms in under 10 s', async () => {
    const rows: Cell[][] = [];
    for (let bld = 1; bld <= 10; bld++) {
      for (let f = 1; f <= 20; f++) {
        for (let r = 1; r <= 50; r++) rows.push(['大批量区域', '大批量项目', rows.length ? null : 'PT1011', `${bld}号楼`, `${f}层`, `${f}-${r}`, 60 + (r % 7)]);
      }
    }
    const file = await xlsx(HEADER, rows);
    const started = performance.now();
    const res = await importTree(tokenB, file);
    const ms = performance.now() - started;
    expect(res.body.data).toEqual({ rows: 10000, created: { region: 1, project: 1, building: 10, floor: 200, room: 10000 }, updated: 0 });
    expect(ms).toBeLessThan(10_000);
    const rooms = await k.db.selectFrom('area').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', b.tenantId).where('level', '=', 'room').executeTakeFirstOrThrow();
    expect(Number(rooms.n)).toBe(10000);
  }, 30_000);
});

describe('区域导出', () => {
  it('exports a project tree in the import template format, and re-importing it creates nothing', async () => {
    await importTree(tokenA, await xlsx(HEADER, projectRows('导出区域', '导出项目')));
    const project = await k.db.selectFrom('area').select('id').where('tenant_id', '=', a.tenantId).where('name', '=', '导出项目').executeTakeFirstOrThrow();
    const res = await get(tokenA, `/api/v1/area/exportArea?areaId=${project.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('导出项目-区域导出.xlsx'));
    const wb = await readBack(res.raw);
    const ws = wb.worksheets[0];
    expect((ws.getRow(1).values as string[]).slice(1)).toEqual(HEADER);
    expect(ws.rowCount).toBe(61);
    expect((ws.getRow(2).values as Cell[]).slice(1)).toEqual(['导出区域', '导出项目', 'PT2010', '1号楼', '1层', '101', 81, '上海市徐汇区 1 号', 121.44, 31.19]);
    const again = await importTree(tokenA, res.raw);
    expect(again.body.data).toEqual({ rows: 60, created: {}, updated: 0 });
  });

  it('exports the project list with its counts', async () => {
    const res = await get(tokenA, '/api/v1/area/project/export?name=导出');
    const ws = (await readBack(res.raw)).worksheets[0];
    expect(ws.getRow(2).getCell(1).value).toBe('导出项目');
    expect(ws.getRow(2).getCell(12).value).toBe(60);
  });
});

describe('导入导出的租户隔离', () => {
  it('an import lands in the caller tenant even when it names another tenant\'s region and project', async () => {
    const before = await countAreas(a.tenantId);
    const res = await importTree(tokenB, await xlsx(HEADER, [['impa区域', 'impa项目', 'PT1011', '1号楼', '1层', '101', 10]]));
    expect(res.body.data.created).toEqual({ region: 1, project: 1, building: 1, floor: 1, room: 1 });
    expect(await countAreas(a.tenantId)).toBe(before);
    const mine = await k.db.selectFrom('area').select('tenant_id').where('name', '=', 'impa项目').execute();
    expect(mine.map((r) => r.tenant_id).sort()).toEqual([a.tenantId, b.tenantId].sort());
  });

  it('another tenant\'s area cannot be exported', async () => {
    const res = await get(tokenB, `/api/v1/area/exportArea?areaId=${a.projectId}`);
    expect(res.status).toBe(404);
    expect(res.json().code).toBe(40400);
  });

  it('a user limited to granted projects may add rooms to them but not create projects', async () => {
    await createUser(k.db, { tenantId: a.tenantId, username: 'imp_limited', password: 'Limited#2026', codes: CODES, allProjects: false, projectIds: [a.projectId] });
    const token = await k.login('imp_limited', 'Limited#2026');
    const denied = await importTree(token, await xlsx(HEADER, [['impa区域', '越权项目', 'PT1011', null, null, null, null]]));
    expect(denied.body.data.errors[0].message).toBe('无权新建项目「越权项目」（只有可访问全部项目的用户才能新建）');
    const okRes = await importTree(token, await xlsx(HEADER, [['impa区域', 'impa项目', null, '1号楼', '受限层', '受限房', null]]));
    expect(okRes.body.data.created).toEqual({ floor: 1, room: 1 });
  });

  it('without the code the import is refused with 40301', async () => {
    const t = await createTenantWithProject(k.db, 'impnocode', ['area']);
    const token = await k.login(t.username, t.password);
    const res = await importTree(token, await xlsx(HEADER, [['x', 'y', 'PT1011']]));
    expect(res.body.code).toBe(40301);
    expect((await get(token, `/api/v1/area/exportArea?areaId=${t.projectId}`)).status).toBe(403);
  });
});
