import { w, type Row } from './endpoint-rules.ts';

/** 大屏: the comprehensive and project screens, and the share links of a project screen. */

const A = () => w.A;
const pid = () => A().projectId;
const newLink = async () => (await w.ok('POST', '/api/v1/bigscreen/share', A().token, { projectId: pid(), days: 1 })).id as number;

export const BIGSCREEN_ROWS: Row[] = [
  { method: 'GET', path: '/api/v1/bigscreen/overview', code: 'monitoringCenterTose', kind: 'list', marker: 'rulea项目', url: () => '/api/v1/bigscreen/overview' },
  { method: 'GET', path: '/api/v1/bigscreen/project/{projectId}', code: 'monitorScreen', kind: 'object', url: () => `/api/v1/bigscreen/project/${pid()}` },
  { method: 'GET', path: '/api/v1/bigscreen/share', code: 'monitorScreen', kind: 'object', url: () => `/api/v1/bigscreen/share?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/bigscreen/share', code: 'monitorScreen:btn_add', kind: 'object', url: () => '/api/v1/bigscreen/share', body: () => ({ projectId: pid(), days: 7 }) },
  { method: 'POST', path: '/api/v1/bigscreen/share/{id}/revoke', code: 'monitorScreen:btn_del', kind: 'object', setup: newLink },
];
