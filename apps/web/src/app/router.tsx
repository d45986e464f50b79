import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/login-page';
import { AuthGate } from '../layout/auth-gate';
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

export function createAppRouter() {
  return createBrowserRouter([
    { path: '/login', element: <LoginRoute /> },
    ...(['authredirect', 'reg', 'success', 'dataviews', 'demo', 'addDevice'] as const).map((page) => statusRoute(`/${page}`, (m) => <m.PublicNotice page={page} />)),
    statusRoute('/introduction/index', (m) => <m.IntroductionPage />),
    statusRoute('/layoutMobile', (m) => <m.LayoutMobileRedirect />),
    statusRoute('/404', (m) => <m.NotFoundPage />),
    statusRoute('/401', (m) => <m.UnauthorizedPage />),
    { path: '*', element: <AuthGate /> },
  ]);
}
