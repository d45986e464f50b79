import ExcelJS from 'exceljs';
import { uniq, w, type Row } from './endpoint-rules.ts';

/** Areas and projects, project files, and the project imports and exports. */

const A = () => w.A;
const newArea = async (parentId = A().buildingId, level = 'floor') =>
  (await w.ok('POST', '/api/v1/area/create/1', A().token, { parentId, level, name: uniq('A标记楼层') }))[0] as number;
const projectBody = (name: string) => ({ regionId: A().regionId, name, projectType: 'PT1011', projectType2: 101, billingScheme: 1 });
const newProject = async () => (await w.ok('POST', '/api/v1/area/project', A().token, projectBody(uniq('A标记新项目')))).id as number;

const pdf = () => {
  const form = new FormData();
  form.append('file', new Blob(['%PDF-1.4 A标记文件'], { type: 'application/pdf' }), 'A标记文件.pdf');
  return form;
};
const newFile = async () => (await w.ok('POST', `/api/v1/static/uploadProjectFile?projectId=${A().projectId}`, A().token, pdf())).id as number;

let projectSheet: Buffer;
const xlsxForm = (file: Buffer) => {
  const form = new FormData();
  form.append('file', new Blob([file]), 'import.xlsx');
  return form;
};

export async function prepareProjects() {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('数据');
  ws.addRow(['区域*', '项目*', '项目类型', '楼栋', '楼层', '房间', '面积(m²)', '项目地址', '经度', '纬度']);
  ws.addRow(['导入区域', '导入项目', 'PT1011', '1号楼', '1层', '101', 50]);
  projectSheet = Buffer.from(await wb.xlsx.writeBuffer());
  await w.ok('POST', `/api/v1/project/setProjectAlias?projectId=${A().projectId}`, A().token, { alias: 'A标记别名' });
  await newFile();
}

const IMPORT_LISTS = ['projectlist', 'gatewaylist', 'areadevicelist', 'fpxhlist', 'sdxslist', 'mxxslist'];

export const PROJECT_ROWS: Row[] = [
  // ---- area tree and project reads every screen needs
  { method: 'GET', path: '/api/v1/area/tree/{id}', code: 'login', kind: 'object', url: () => `/api/v1/area/tree/${A().projectId}` },
  { method: 'GET', path: '/api/v1/area/tree/{id}', code: 'login', kind: 'list', url: () => '/api/v1/area/tree/-1', marker: 'rulea项目' },
  { method: 'GET', path: '/api/v1/area/treeonlyproject/{id}', code: 'login', kind: 'object', url: () => `/api/v1/area/treeonlyproject/${A().regionId}` },
  { method: 'GET', path: '/api/v1/area/search', code: 'login', kind: 'object', url: () => `/api/v1/area/search?rootId=${A().projectId}&keyword=${encodeURIComponent('1号楼')}` },
  { method: 'GET', path: '/api/v1/area/search', code: 'login', kind: 'list', url: () => `/api/v1/area/search?rootId=-1&keyword=${encodeURIComponent('rulea项目')}`, marker: 'rulea项目' },
  { method: 'GET', path: '/api/v1/area/projecttypelist', code: 'login', kind: 'object', url: () => `/api/v1/area/projecttypelist?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/area/devicetypebyproject/{projectId}', code: 'login', kind: 'object', url: () => `/api/v1/area/devicetypebyproject/${A().projectId}` },
  { method: 'GET', path: '/api/v1/area/getproject/{id}', code: 'login', kind: 'object', url: () => `/api/v1/area/getproject/${A().projectId}` },
  // ---- areas
  { method: 'GET', path: '/api/v1/area/{id}', code: 'area', kind: 'object', url: () => `/api/v1/area/${A().buildingId}` },
  { method: 'PUT', path: '/api/v1/area/{id}', code: 'area:btn_edit', kind: 'object', setup: () => newArea(), body: () => ({ name: '改名楼层' }) },
  { method: 'POST', path: '/api/v1/area/create/{createqty}', code: 'area:btn_add', kind: 'object', url: () => '/api/v1/area/create/2', body: () => ({ parentId: A().buildingId, level: 'floor', name: uniq('新楼层') }) },
  { method: 'POST', path: '/api/v1/area/move/{id}', code: 'area:btn_edit', kind: 'object', setup: () => newArea(), url: (id) => `/api/v1/area/move/${id}`, body: () => ({ parentId: A().buildingId }) },
  { method: 'POST', path: '/api/v1/area/deletebyid/{id}', code: 'area:btn_del', kind: 'object', setup: () => newArea(), url: (id) => `/api/v1/area/deletebyid/${id}` },
  // ---- projects
  { method: 'GET', path: '/api/v1/area/project/list', code: 'projectlist', kind: 'list', marker: 'rulea项目' },
  { method: 'POST', path: '/api/v1/area/project', code: 'projectlist:btn_add', kind: 'object', body: () => projectBody(uniq('新项目')) },
  { method: 'PUT', path: '/api/v1/area/project/{id}', code: 'projectedit:btn_edit', kind: 'object', setup: newProject, body: () => projectBody(uniq('改名项目')) },
  { method: 'POST', path: '/api/v1/area/project/delete/{id}', code: 'projectlist:btn_del', kind: 'object', setup: newProject, url: (id) => `/api/v1/area/project/delete/${id}` },
  { method: 'GET', path: '/api/v1/area/index/getProjectIndexMessage', code: 'login', kind: 'object', url: () => `/api/v1/area/index/getProjectIndexMessage?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/area/projectmap', code: 'projectindex', kind: 'list', marker: 'rulea项目' },
  { method: 'GET', path: '/api/v1/project/getProjectAlias', code: 'login', kind: 'object', url: () => `/api/v1/project/getProjectAlias?projectId=${A().projectId}` },
  { method: 'POST', path: '/api/v1/project/setProjectAlias', code: 'projectedit:btn_edit', kind: 'object', url: () => `/api/v1/project/setProjectAlias?projectId=${A().projectId}`, body: () => ({ alias: '别家别名' }) },
  // ---- project files
  { method: 'POST', path: '/api/v1/static/getProjectFile', code: 'projectview', kind: 'object', body: () => ({ projectId: A().projectId }) },
  { method: 'POST', path: '/api/v1/static/uploadProjectFile', code: 'projectview:btn_edit', kind: 'object', url: () => `/api/v1/static/uploadProjectFile?projectId=${A().projectId}`, body: pdf },
  { method: 'POST', path: '/api/v1/static/removeProjectFile', code: 'projectview:btn_edit', kind: 'object', setup: newFile, body: (id) => ({ fileId: id }) },
  { method: 'GET', path: '/api/v1/static/downloadProjectFile/{fileId}', code: 'projectview', kind: 'object', setup: newFile, url: (id) => `/api/v1/static/downloadProjectFile/${id}` },
  // ---- imports and exports (templates are the same for every tenant)
  { method: 'GET', path: '/api/v1/area/downloadImportModel', code: 'login', kind: 'list', url: () => '/api/v1/area/downloadImportModel?modelType=areaDevice' },
  ...IMPORT_LISTS.map((l): Row => ({ method: 'GET', path: `/api/v1/area/importmodel_${l}`, code: 'login', kind: 'list' })),
  { method: 'POST', path: '/api/v1/area/projectimport', code: 'area:btn_add', kind: 'own', body: () => xlsxForm(projectSheet), aView: '/api/v1/area/tree/-1' },
  { method: 'GET', path: '/api/v1/area/exportArea', code: 'area:export', kind: 'object', url: () => `/api/v1/area/exportArea?areaId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/area/project/export', code: 'projectlist:export', kind: 'list', url: () => '/api/v1/area/project/export', marker: 'rulea项目' },
];
