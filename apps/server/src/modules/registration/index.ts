import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { AdminServices } from '../admin/index.ts';
import type { SystemServices } from '../system/index.ts';
import { registrationRoutes } from './routes.ts';
import { createRegistrationService } from './service.ts';

export type { RegistrationService } from './service.ts';

/**
 * 入驻申请 (/reg, /success): operator companies apply with an SMS-proved phone; the platform administrator approves
 * (a tenant with its first administrator, through the admin module's tenant creation) or rejects, in the tenant manager.
 */
export function createRegistration(deps: { db: Db; checkCaptcha: (id: string, answer: string) => boolean; sms: SystemServices['sms']; tenants: AdminServices['tenants'] }) {
  const registration = createRegistrationService(deps);
  return {
    registration,
    async routes(app: FastifyInstance) {
      await app.register(registrationRoutes, { registration });
    },
  };
}
