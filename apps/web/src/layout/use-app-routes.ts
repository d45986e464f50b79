import { useMemo } from 'react';
import { menuFitsProject, mobileProjectParam, visibleMenuCodes } from '@kelvin/contracts/access';
import { useLocation, useNavigate } from 'react-router';
import { buildRoutes, HOME_PATH, routeOfPath, type AppRoute } from '../app/routes';
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

/** Codes visible for the selected project: grant ∧ project type ∧ projectType2 ∧ report form (spec §6). */
export function useVisibleCodes(): Set<string> {
  const menus = useSession((s) => s.menus);
  const elements = useSession((s) => s.elements);
  const projectType = useProject((s) => s.projectType);
  const projectType2 = useProject((s) => s.projectType2);
  const billingScheme = useProject((s) => s.billingScheme);
  return useMemo(
    () => visibleMenuCodes(grantedCodes({ menus, elements }), { projectType, projectType2, billingScheme }),
    [menus, elements, projectType, projectType2, billingScheme],
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
    try {
      await useProject.getState().choose(id);
    } catch {
      return; // the HTTP client showed why; stay where we are
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
