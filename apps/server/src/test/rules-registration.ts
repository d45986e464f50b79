import { uniq, w, type Row } from './endpoint-rules.ts';

/** 入驻申请: the review of applications (platform administrators only; the application itself is public). */

async function newApplication() {
  const now = Date.now();
  const row = await w.k.db.insertInto('registration_application').values({
    company: uniq('规则物业'), contact: '规则联系人', phone: '13600000000', notes: null, status: 'pending', ip: '10.0.0.1', reviewer_id: null, reviewer_name: null,
    reviewed_at: null, reason: null, tenant_id: null, tenant_code: null, username: null, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export const REGISTRATION_ROWS: Row[] = [
  { method: 'GET', path: '/api/v1/register/applications', code: 'tenantManager', kind: 'platform' },
  { method: 'GET', path: '/api/v1/register/applications/pending', code: 'tenantManager', kind: 'platform' },
  {
    method: 'POST', path: '/api/v1/register/applications/{id}/approve', code: 'tenantManager:btn_add', kind: 'platform', setup: newApplication,
    body: () => { const c = uniq('regt'); return { tenantCode: c, username: `${c}_admin` }; },
  },
  { method: 'POST', path: '/api/v1/register/applications/{id}/reject', code: 'tenantManager:btn_edit', kind: 'platform', setup: newApplication, body: () => ({ reason: '资料不全' }) },
];
