import type { SmsConfig } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createHolidayService } from './holidays.ts';
import { createSystemParamService } from './params.ts';
import type { SystemServices } from './routes.ts';
import { createSmsService } from './sms.ts';
import { smsProviderFromConfig, type SmsProvider } from './sms-provider.ts';

/** `provider` overrides the configured SMS provider (tests plug a fake one in). */
export function createSystemServices(db: Db, projects: ProjectService, sms: SmsConfig | undefined, provider?: SmsProvider): SystemServices {
  return {
    params: createSystemParamService(db),
    holidays: createHolidayService(db, projects),
    sms: createSmsService(db, provider ?? smsProviderFromConfig(sms)),
  };
}
