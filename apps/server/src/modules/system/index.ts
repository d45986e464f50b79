/** System settings: parameters, holidays, SMS (templates, records, provider). */
export { createSystemServices, removeTenantSettings } from './service.ts';
export { systemRoutes, type SystemServices } from './routes.ts';
