import type { ComponentType } from 'react';

/**
 * Screen components by menu code (the route name). The route table itself comes from MENUS in
 * packages/contracts/src/menus.ts; a new screen is one entry here plus its component. Codes without an entry render
 * the plain 未开放 notice until their issue lands.
 */
export type PageModule = { default: ComponentType };
export const PAGES: Record<string, () => Promise<PageModule>> = {};

/** Several codes rendered by one component (e.g. every device-type page by the registry-driven monitor). */
export function registerPages(codes: readonly string[], load: () => Promise<PageModule>) {
  for (const code of codes) PAGES[code] = load;
}
