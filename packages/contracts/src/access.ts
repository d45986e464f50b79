import { MENUS, MENU_BY_CODE, type MenuDef, type ReportGroup } from './menus.ts';

/**
 * What a user sees (design §6): menu code granted ∧ project-type rules ∧ projectType2 rules ∧ report-form rules of
 * spec §6, for the selected project. Pure, so the web and the server answer the same and tests check it row by row.
 */
export interface ProjectContext {
  projectType?: string | null;
  projectType2?: number | null;
  billingScheme?: number | null;
  /**
   * The device types the project holds or its type plans (devicetypebyproject): the per-project menu check of spec §6
   * for the device-type pages. Left out (undefined), the check is not applied.
   */
  deviceTypes?: readonly string[] | null;
}

/** The directory of the device-type pages; each page's code is its device type's code. */
export const DEVICE_TYPE_PAGES_DIR = 'deviceTypes';

/** Billing scheme paraValue → report groups (spec §4): 1–6 and 21 report1, 7–8 report2, 9–20 report3, odd 1–19 report4. */
export function reportGroupsOf(paraValue: number | null | undefined): Set<ReportGroup> {
  const groups = new Set<ReportGroup>();
  if (paraValue === null || paraValue === undefined || !Number.isInteger(paraValue)) return groups;
  if ((paraValue >= 1 && paraValue <= 6) || paraValue === 21) groups.add('report1');
  if (paraValue === 7 || paraValue === 8) groups.add('report2');
  if (paraValue >= 9 && paraValue <= 20) groups.add('report3');
  if (paraValue >= 1 && paraValue <= 19 && paraValue % 2 === 1) groups.add('report4');
  return groups;
}

/** The project-dependent rules of one menu entry (its own code grant is checked separately). */
export function menuFitsProject(menu: Pick<MenuDef, 'code' | 'parent' | 'projectTypes' | 'projectType2' | 'reportGroups'>, ctx: ProjectContext): boolean {
  if (ctx.deviceTypes !== undefined && menu.parent === DEVICE_TYPE_PAGES_DIR && !ctx.deviceTypes?.includes(menu.code)) return false;
  if (menu.projectTypes && !(ctx.projectType && menu.projectTypes.includes(ctx.projectType))) return false;
  if (menu.projectType2 && !(ctx.projectType2 != null && menu.projectType2.includes(ctx.projectType2))) return false;
  if (menu.reportGroups) {
    const groups = reportGroupsOf(ctx.billingScheme);
    if (!menu.reportGroups.some((g) => groups.has(g))) return false;
  }
  return true;
}

/**
 * Codes of the menus (directories and screens) the user may open for the project. A directory is visible when its
 * code is granted and at least one child is; hidden screens stay routable but are never listed by `sidebar` callers.
 */
export function visibleMenuCodes(granted: ReadonlySet<string> | Iterable<string>, ctx: ProjectContext, menus: readonly MenuDef[] = MENUS): Set<string> {
  const have = granted instanceof Set ? (granted as ReadonlySet<string>) : new Set(granted);
  const visible = new Set<string>();
  for (const m of menus) {
    if (m.type !== 'dirt' && have.has(m.code) && menuFitsProject(m, ctx)) visible.add(m.code);
  }
  // directories bottom-up: deepest first (children come after their parent in MENUS)
  for (const m of [...menus].reverse()) {
    if (m.type === 'dirt' && have.has(m.code) && menus.some((c) => c.parent === m.code && visible.has(c.code))) visible.add(m.code);
  }
  return visible;
}

/** Whether a single route may be opened: its code is visible under the rules above. */
export function canOpen(code: string, granted: ReadonlySet<string>, ctx: ProjectContext): boolean {
  const m = MENU_BY_CODE.get(code);
  if (!m) return false;
  return granted.has(code) && menuFitsProject(m, ctx);
}

/** Spec §2.2: the mobile route parameter is the project id divided by 1.7891. */
export const MOBILE_PROJECT_DIVISOR = 1.7891;
export const mobileProjectParam = (projectId: number) => projectId / MOBILE_PROJECT_DIVISOR;
export const projectIdFromMobileParam = (param: number) => Math.round(param * MOBILE_PROJECT_DIVISOR);
