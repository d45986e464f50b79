import type { MenuRow } from '@kelvin/contracts';
import { MENUS, type MenuDef } from '@kelvin/contracts/menus';

/** A screen route: path `/{group}/{code}` (+ optional param), named by its menu code. */
export interface AppRoute {
  code: string;
  path: string;
  /** react-router pattern, with the optional param */
  pattern: string;
  title: string;
  icon: string | null;
  hidden: boolean;
  menu: MenuDef;
}

/** Spec §2.2: the project view is the pinned (affixed) tab and is not cached. */
export const PINNED_ROUTE = 'projectview2';
export const HOME_PATH = '/project/projectview2';

/** Routes for every screen code the user holds; titles and icons come from the server's menu list when present. */
export function buildRoutes(granted: ReadonlySet<string>, serverMenus: MenuRow[]): AppRoute[] {
  const server = new Map(serverMenus.map((m) => [m.code, m]));
  return MENUS.filter((m) => m.type === 'menu' && granted.has(m.code)).map((m) => {
    const s = server.get(m.code);
    return {
      code: m.code,
      path: m.path,
      pattern: m.param ? `${m.path}/${m.param}` : m.path,
      title: s?.title ?? m.title,
      icon: s?.icon ?? m.icon ?? null,
      hidden: s?.hidden ?? Boolean(m.hidden),
      menu: m,
    };
  });
}

/** The route whose pattern matches a pathname (optional trailing param allowed). */
export function routeOfPath(routes: AppRoute[], pathname: string): AppRoute | undefined {
  const clean = pathname.replace(/\/+$/, '') || '/';
  return routes.find((r) => clean === r.path || (r.menu.param && clean.startsWith(`${r.path}/`) && !clean.slice(r.path.length + 1).includes('/')));
}
