import type { CaptchaChallenge } from '@kelvin/contracts/auth';
import type { Page, RegApplicationDto, RegApplyBody, RegApproveAnswer, RegSmsCodeBody, ShowroomAnswer } from '@kelvin/contracts';
import type { ListParams } from '../../components/data-table';
import { http } from '../../lib/http';

/** The visitor pages' calls: the registration form, the demo tour. */
export const publicApi = {
  captcha: () => http.get<CaptchaChallenge>('/api/auth/captcha'),
  sendCode: (body: RegSmsCodeBody) => http.post<{ sent: boolean; resendAfterSeconds: number }>('/api/v1/register/sms-code', body),
  apply: (body: RegApplyBody) => http.post<{ submitted: boolean }>('/api/v1/register', body),
  showroom: () => http.get<ShowroomAnswer>('/api/v1/showroom'),
};

export const publicKeys = {
  captcha: ['public', 'captcha'] as const,
  showroom: ['public', 'showroom'] as const,
};

/** The platform administrator's review of 入驻申请 (the tenant manager's tab). */
export const reviewApi = {
  page: (q: ListParams) => http.get<Page<RegApplicationDto>>('/api/v1/register/applications', q),
  pending: () => http.get<{ pending: number }>('/api/v1/register/applications/pending', undefined, { silent: true }),
  approve: (id: number, body: { tenantCode: string; username: string }) => http.post<RegApproveAnswer>(`/api/v1/register/applications/${id}/approve`, body),
  reject: (id: number, reason: string) => http.post<RegApplicationDto>(`/api/v1/register/applications/${id}/reject`, { reason }),
};
export const reviewKeys = { all: ['registration'] as const, list: ['registration', 'list'] as const, pending: ['registration', 'pending'] as const };
