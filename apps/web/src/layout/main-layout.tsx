import { lazy, Suspense, useEffect, useMemo, useRef, type ReactElement } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
import { MENUS } from '@kelvin/contracts/menus';
import { HOME_PATH, PINNED_ROUTE, routeOfPath } from '../app/routes';
import { feedback } from '../lib/feedback';
import { getStored, setStored } from '../lib/storage';
import { useIsMobile } from '../lib/ui';
import { useLayout } from '../stores/layout';
import { initialProject, parseProjectId, useProject } from '../stores/project';
import { useSession } from '../stores/session';
import { AppFooter } from './footer';
import { Judge } from './judge';
import { Navbar } from './navbar';
import { RouteView } from './route-view';
import { Sidebar } from './sidebar';
import { TenantBrand } from './tenant-brand';
import { TagsView } from './tags-view';
import { useAppRoutes } from './use-app-routes';

const QueryProvider = lazy(() => import('../app/query-provider'));
const Unauthorized = lazy(() => import('../features/common/status-pages').then((m) => ({ default: m.UnauthorizedPage })));

/** Spec §9: the first project is selected 100 ms after the list loads. */
export const PROJECT_SELECT_DELAY_MS = 100;

/**
 * Loads the project list and selects one: ?projectId= in the URL (a shared link) when visible, else the stored id,
 * else the first project (an id that is not a number > 0 falls back to the first). No list → an alert.
 */
function useProjectBootstrap() {
  const location = useLocation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fromUrl = parseProjectId(new URLSearchParams(location.search).get('projectId'));
    void useProject.getState().loadProjects().then((projects) => {
      if (!projects.length) {
        feedback.modal?.warning({ title: '提示', content: '没有获取到项目列表，请联系管理员为您分配项目', okText: '知道了' });
        return;
      }
      const visibleFromUrl = fromUrl !== null && projects.some((p) => p.id === fromUrl) ? fromUrl : null;
      const pick = initialProject(projects, visibleFromUrl ?? getStored('projectId'));
      // the delayed first pick yields to a project the user chose meanwhile
      if (pick) {
        setTimeout(() => {
          if (!useProject.getState().current) useProject.getState().choose(pick.id).catch(() => undefined);
        }, PROJECT_SELECT_DELAY_MS);
      }
    }).catch(() => undefined);
  }, [location.search]);

  // a link inside the console may carry ?projectId= too: select it when the user may see it
  const loaded = useProject((s) => s.loaded);
  useEffect(() => {
    const wanted = parseProjectId(new URLSearchParams(location.search).get('projectId'));
    const s = useProject.getState();
    if (!loaded || wanted === null || wanted === s.current?.id || !s.projects.some((p) => p.id === wanted)) return;
    s.choose(wanted).catch(() => undefined);
  }, [location.search, loaded]);
}

/** Views cached by name, keyed by full path (a new `_t` query forces a fresh view); the pinned view is never cached. */
function CachedViews({ routes }: { routes: RouteObject[] }) {
  const element = useRoutes(routes);
  const location = useLocation();
  const appRoutes = useAppRoutes();
  const views = useLayout((s) => s.views);
  const rootKey = useLayout((s) => s.rootKey);
  const cache = useRef(new Map<string, ReactElement>());
  const key = location.pathname + location.search;
  const route = routeOfPath(appRoutes, location.pathname);
  const cacheable = route && route.code !== PINNED_ROUTE;

  const lastRoot = useRef(rootKey);
  if (lastRoot.current !== rootKey) {
    cache.current.clear(); // the refresh event removes the root view; it is recreated below
    lastRoot.current = rootKey;
  }
  if (cacheable && element && !cache.current.has(key)) cache.current.set(key, element);
  const open = new Set(views.map((v) => v.fullPath));
  for (const k of [...cache.current.keys()]) if (k !== key && !open.has(k)) cache.current.delete(k);

  return (
    <div key={rootKey} style={{ height: '100%' }}>
      {!cacheable && element}
      {[...cache.current.entries()].map(([k, el]) => (
        <div key={k} style={{ display: k === key ? 'block' : 'none', height: '100%' }}>{el}</div>
      ))}
    </div>
  );
}

export function MainLayout() {
  const mobile = useIsMobile();
  const collapsed = useLayout((s) => s.collapsed);
  const appRoutes = useAppRoutes();
  const user = useSession((s) => s.user);
  useProjectBootstrap();
  const { pathname, search } = useLocation();
  // page values (spec §3, §9): where a new browser tab or a restarted browser comes back to
  useEffect(() => {
    const route = routeOfPath(appRoutes, pathname);
    if (!route) return;
    setStored('homePage', route.path);
    setStored('currentPage', pathname + search);
  }, [appRoutes, pathname, search]);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false; // just loaded by the guard
      return;
    }
    void useSession.getState().refreshGrants();
  }, [pathname]);

  const routes = useMemo<RouteObject[]>(() => {
    const held = new Set(appRoutes.map((r) => r.code));
    return [
      { path: '/', element: <Navigate to="/judge" replace /> },
      { path: '/judge', element: <Judge /> },
      ...appRoutes.map((r) => ({ path: r.pattern, element: <RouteView route={r} /> })),
      // a known screen the user holds no code for: the 401 page inside the shell; unknown paths: 404
      ...MENUS.filter((m) => m.type === 'menu' && !held.has(m.code)).map((m) => ({
        path: m.param ? `${m.path}/${m.param}` : m.path,
        element: <Suspense fallback={null}><Unauthorized /></Suspense>,
      })),
      { path: '*', element: <Navigate to="/404" replace /> },
    ];
  }, [appRoutes]);

  const content = (
    <main style={{ flex: 1, padding: mobile ? 8 : 12, minHeight: 0, overflow: 'auto', background: '#f5f5f5', ['--kv-main-pad' as string]: mobile ? '8px' : '12px' }}>
      <Suspense fallback={null}>
        <QueryProvider>
          <CachedViews routes={routes} />
        </QueryProvider>
      </Suspense>
    </main>
  );

  if (mobile) {
    return (
      <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', background: '#f5f5f5' }} data-testid="layout-mobile">
        <Navbar mobile />
        {content}
        <AppFooter />
      </div>
    );
  }
  return (
    <div className="kv-layout" style={{ height: '100vh' }} data-testid="layout-desktop">
      <aside className="kv-sider" style={{ width: collapsed ? 64 : 220 }}>
        <div style={{ height: 56, display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#fff', fontSize: collapsed ? 18 : 17, overflow: 'hidden', padding: '2px 0' }}>
          <TenantBrand tenantId={user?.tenantId} brand={user?.brand} hasLogo={user?.hasLogo} collapsed={collapsed} />
        </div>
        <Sidebar collapsed={collapsed} />
      </aside>
      <div style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', background: '#f5f5f5' }}>
        <Navbar mobile={false} />
        <TagsView />
        {content}
        <AppFooter />
      </div>
    </div>
  );
}

export { HOME_PATH };
