import type { CaptchaChallenge } from '@kelvin/contracts/auth';
import type { RegApplyBody, RegSmsCodeBody, ShowroomAnswer } from '@kelvin/contracts';
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
