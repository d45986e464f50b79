/** Tenants, users, roles and role types, menus and elements, the gate log; the rules that keep administrators inside their rights. */
export { createAdminServices } from './service.ts';
export { adminRoutes, type AdminServices } from './routes.ts';
export { registerCrud } from './crud.ts';
export { assertVisible, denied, flag, listTenant, uniqueOr } from './actor.ts';
