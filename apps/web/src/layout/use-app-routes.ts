import { useMemo } from 'react';
import { menuFitsProject, mobileProjectParam, visibleMenuCodes } from '@kelvin/contracts/access';
import { useLocation, useNavigate } from 'react-router';
import { buildRoutes, HOME_PATH, routeOfPath, type AppRoute } from '../app/routes';
import { toastError } from '../lib/feedback';
import { grantedCodes, useSession } from '../stores/session';
import { projectContext, useProject } from '../stores/project';
import { useLayout } from '../stores/layout';

/** Routes the user holds (every screen code granted), regardless of the project rules. */
export function useAppRoutes(): AppRoute[] {
  const menus = useSession((s) => s.menus);
  const elements = useSession((s) => s.elements);
  const menuList = useSession((s) => s.menuList);
  return useMemo(() => buildRoutes(grantedCodes({ menus, elements }), menuList), [menus, elements, menuList]);
}

/** Codes visible for the selected project: grant ∧ project type ∧ projectType2 ∧ report form ∧ device types (spec §6). */
export function useVisibleCodes(): Set<string> {
  const menus = useSession((s) => s.menus);
  const elements = useSession((s) => s.elements);
  const projectType = useProject((s) => s.projectType);
  const projectType2 = useProject((s) => s.projectType2);
  const billingScheme = useProject((s) => s.billingScheme);
  const deviceTypes = useProject((s) => s.deviceTypes);
  return useMemo(
    () => visibleMenuCodes(grantedCodes({ menus, elements }), projectContext({ projectType, projectType2, billingScheme, deviceTypes })),
    [menus, elements, projectType, projectType2, billingScheme, deviceTypes],
  );
}

/**
 * Switching project: fetch its types, clear the open-tab history, recreate the root view and stay on the current
 * path when the new project shows that screen; otherwise go to the project view. On mobile the route parameter
 * projectId is the project id ÷ 1.7891 (spec §2.2).
 */
export function useSwitchProject() {
  const routes = useAppRoutes();
  const navigate = useNavigate();
  const location = useLocation();
  return async (id: number, opts: { mobile?: boolean } = {}) => {
    const before = useProject.getState().current;
    try {
      await useProject.getState().choose(id);
    } catch {
      // the HTTP client showed why; the switch is all or nothing, so the old project stays
      toastError(before ? `切换项目失败，仍为「${before.label}」` : '切换项目失败，请稍后重试');
      return;
    }
    useLayout.getState().clearViews();
    useLayout.getState().refresh();
    const route = routeOfPath(routes, location.pathname);
    const ctx = projectContext(useProject.getState());
    if (!route || !menuFitsProject(route.menu, ctx)) {
      navigate(HOME_PATH);
    } else if (opts.mobile && route.menu.param) {
      navigate(`${route.path}/${mobileProjectParam(id)}`);
    } else {
      navigate(location.pathname);
    }
  };
}
