import type { FastifyInstance } from 'fastify';
import type { BillingConfig } from './config.ts';

/** Billing configuration routes (placeholder — the config helper fills it in). */
export async function billingConfigRoutes(_app: FastifyInstance, _opts: { config: BillingConfig }) {}
