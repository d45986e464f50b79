import type { SmsConfig } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createHolidayService } from './holidays.ts';
import { createSystemParamService } from './params.ts';
import type { SystemServices } from './routes.ts';
import { createSmsService } from './sms.ts';
import { smsProviderFromConfig, type SmsProvider } from './sms-provider.ts';

/** `provider` overrides the configured SMS provider (tests plug a fake one in). */
/** A deleted tenant's settings go with it: SMS templates and settings, parameters, holidays. */
export async function removeTenantSettings(trx: Db, tenantId: number) {
  for (const table of ['sms_template', 'sms_setting', 'system_param', 'holiday'] as const) await trx.deleteFrom(table).where('tenant_id', '=', tenantId).execute();
}

export function createSystemServices(db: Db, projects: ProjectService, sms: SmsConfig | undefined, provider?: SmsProvider): SystemServices {
  return {
    params: createSystemParamService(db),
    holidays: createHolidayService(db, projects),
    sms: createSmsService(db, provider ?? smsProviderFromConfig(sms)),
  };
}
