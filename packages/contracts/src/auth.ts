import { z } from 'zod';

export const loginRequest = z.object({
  username: z.string({ error: '请输入账号' }).trim().min(1, '请输入账号').max(64, '账号最多 64 个字符'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码最多 128 个字符'),
  // asked for after a few failed logins of the account (code 40002)
  captchaId: z.string().max(200).optional(),
  captchaCode: z.string().trim().max(10, '验证码最多 10 个字符').optional(),
});

export interface CaptchaChallenge {
  captchaId: string;
  /** data:image/svg+xml URL */
  image: string;
}
export type LoginRequest = z.infer<typeof loginRequest>;

export interface UserInfo {
  id: number;
  username: string;
  name: string;
  description: string | null;
  tenantId: number;
  tenantName: string;
  brand: string | null;
  /** whether the tenant uploaded a logo (served by /api/v1/tenant/logo?tenantId=) */
  hasLogo: boolean;
  filingNo: string | null;
  isPlatform: boolean;
  menus: { code: string }[];
  elements: { code: string }[];
}

export interface MenuRow {
  code: string;
  title: string;
  icon: string | null;
  parentCode: string | null;
  type: 'dirt' | 'menu';
  path: string;
  href: string | null;
  orderNo: number;
  hidden: boolean;
}
