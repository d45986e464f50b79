import { useEffect, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, isRouteErrorResponse, Navigate, useRouteError, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/login-page';
import { AuthGate } from '../layout/auth-gate';
import { ErrorScreen } from '../layout/error-screen';
import { handleChunkLoadError, isChunkLoadError } from '../lib/chunk-reload';
import { useErrorLog } from '../lib/error-log';
import { getStored } from '../lib/storage';

/** Spec §2.1 public paths; everything else goes through the guard, whose routes are generated from the menu codes. */
export const PUBLIC_PATHS = ['/login', '/authredirect', '/reg', '/success', '/dataviews', '/404', '/401', '/introduction/index', '/judge', '/demo', '/addDevice', '/layoutMobile'] as const;

function LoginRoute() {
  // a logged-in user opening /login goes to /
  return getStored('token') ? <Navigate to="/" replace /> : <LoginPage />;
}

type StatusModule = typeof import('../features/common/status-pages');
/** Public status pages load lazily (they are rarely seen and stay out of the shell bundle). */
function statusRoute(path: string, render: (m: StatusModule) => ReactNode): RouteObject {
  return { path, lazy: async () => { const m = await import('../features/common/status-pages'); return { element: render(m) }; } };
}

/** A visitor page outside the main layout: lazily loaded, inside the TanStack Query provider the layout otherwise brings. */
function visitorRoute(path: string, load: () => Promise<{ default: ComponentType }>): RouteObject {
  return {
    path,
    lazy: async () => {
      const [{ default: Page }, { default: QueryProvider }] = await Promise.all([load(), import('./query-provider')]);
      return { element: <QueryProvider><Page /></QueryProvider> };
    },
  };
}

/** Whatever escapes the screens' own boundaries: a Chinese error screen with a way back, never the router's default. */
function RouterError() {
  const error = useRouteError();
  useEffect(() => {
    if (isChunkLoadError(error)) handleChunkLoadError(error);
    else if (!isRouteErrorResponse(error)) useErrorLog.getState().add(error);
  }, [error]);
  if (isRouteErrorResponse(error) && error.status === 404) return <Navigate to="/404" replace />;
  return <ErrorScreen error={error} fullPage />;
}

export function createAppRouter() {
  return createBrowserRouter([{ errorElement: <RouterError />, children: [
    { path: '/login', element: <LoginRoute /> },
    ...(['authredirect'] as const).map((page) => statusRoute(`/${page}`, (m) => <m.PublicNotice page={page} />)),
    // the visitor pages (features/public), each its own chunk, with the query cache the screens use
    visitorRoute('/reg', () => import('../features/public/pages/register')),
    visitorRoute('/success', () => import('../features/public/pages/success')),
    visitorRoute('/introduction/index', () => import('../features/public/pages/introduction')),
    visitorRoute('/demo', () => import('../features/public/pages/demo')),
    visitorRoute('/addDevice', () => import('../features/public/pages/add-device')),
    // a shared project big screen, read-only without login
    visitorRoute('/dataviews', () => import('../features/bigscreen/pages/dataviews')),
    statusRoute('/layoutMobile', (m) => <m.LayoutMobileRedirect />),
    statusRoute('/404', (m) => <m.NotFoundPage />),
    statusRoute('/401', (m) => <m.UnauthorizedPage />),
    { path: '*', element: <AuthGate /> },
  ] }]);
}
