import type { Db } from '../index.ts';
import { hashPassword, randomPassword } from '../../modules/auth/index.ts';

export const PLATFORM_TENANT_ID = 0;

/** Tenant 0 and the platform administrator. Returns the password only when it was generated now. */
export async function seedPlatform(db: Db, adminPassword?: string): Promise<{ username: string; password: string; generated: boolean } | null> {
  const now = Date.now();
  const tenant = await db.selectFrom('tenant').select('id').where('id', '=', PLATFORM_TENANT_ID).executeTakeFirst();
  if (!tenant) {
    await db.insertInto('tenant').values({
      id: PLATFORM_TENANT_ID as never,
      code: 'platform',
      name: '平台运营',
      contact: null,
      phone: null,
      brand: 'Kelvin',
      filing_no: null,
      enabled: 1,
      created_at: now,
    }).execute();
  }
  const admin = await db.selectFrom('app_user').select('id').where('username', '=', 'admin').executeTakeFirst();
  if (admin) return null;
  const password = adminPassword ?? randomPassword();
  await db.insertInto('app_user').values({
    tenant_id: PLATFORM_TENANT_ID,
    username: 'admin',
    password_hash: await hashPassword(password),
    name: '平台管理员',
    phone: null,
    description: '平台管理员，管理全部租户',
    enabled: 1,
    all_projects: 1,
    is_platform: 1,
    created_at: now,
  }).execute();
  return { username: 'admin', password, generated: !adminPassword };
}
