import { uniq, w, type Row } from './endpoint-rules.ts';

/** 数据字典 (dict): the registries as dictionaries and each tenant's own display names. */

const MARK = 'A字典标记';
const labels = '/api/v1/dict/labels';

export async function prepareDictionary() {
  await w.ok('PUT', '/api/v1/dict/alarmSeverity/override', w.A.token, { value: 'critical', label: MARK });
}

export const DICTIONARY_ROWS: Row[] = [
  { method: 'GET', path: '/api/v1/dict', code: 'dict', kind: 'own', aView: labels },
  { method: 'GET', path: '/api/v1/dict/labels', code: 'login', kind: 'list', marker: MARK },
  { method: 'GET', path: '/api/v1/dict/export', code: 'dict:export', kind: 'list', marker: MARK },
  { method: 'GET', path: '/api/v1/dict/{code}', code: 'dict', kind: 'list', marker: MARK, url: () => '/api/v1/dict/alarmSeverity' },
  { method: 'PUT', path: '/api/v1/dict/{code}/override', code: 'dict:btn_edit', kind: 'own', aView: labels, url: () => '/api/v1/dict/alarmSeverity/override', body: () => ({ value: 'minor', label: uniq('次要') }) },
  { method: 'POST', path: '/api/v1/dict/{code}/reset', code: 'dict:btn_edit', kind: 'own', aView: labels, url: () => '/api/v1/dict/alarmSeverity/reset', body: () => ({ value: 'minor' }) },
];
