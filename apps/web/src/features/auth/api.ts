import type { CaptchaChallenge } from '@kelvin/contracts/auth';
import { ApiError, http } from '../../lib/http';

/** The login page's own calls (signing in itself goes through the session store). */
export const authKeys = {
  captcha: ['auth', 'captcha'] as const,
};

export const authApi = {
  /** A new image captcha, asked for after a few failed sign-ins. */
  captcha: () => http.get<CaptchaChallenge>('/api/auth/captcha'),
  /** The brand and whether a logo exists, of the tenant whose link opened the login page. */
  brand: (tenantId: number) => http.get<{ brand: string | null; hasLogo: boolean }>('/api/v1/tenant/brand', { tenantId }),
};

export { ApiError };
