import { Link, useLocation } from 'react-router';
import { ancestorsOf } from '../lib/sidebar';
import { useSession } from '../stores/session';
import { routeOfPath } from '../app/routes';
import { useAppRoutes } from './use-app-routes';

export interface Crumb {
  title: string;
  path: string | null;
}

/** Spec §2.2: crumbs from the matched route; 首页 prepended unless the first crumb is already home at the root path. */
export function buildCrumbs(matched: Crumb[]): Crumb[] {
  if (matched[0]?.title === '首页' && matched[0].path === '/') return matched;
  return [{ title: '首页', path: '/' }, ...matched];
}

export function AppBreadcrumb() {
  const routes = useAppRoutes();
  const menuList = useSession((s) => s.menuList);
  const location = useLocation();
  const route = routeOfPath(routes, location.pathname);
  const byCode = new Map(menuList.map((m) => [m.code, m]));
  const matched: Crumb[] = route
    ? [...ancestorsOf(menuList, route.code).map((c) => ({ title: byCode.get(c)?.title ?? c, path: null })), { title: route.title, path: null }]
    : [];
  const crumbs = buildCrumbs(matched);
  return (
    <nav data-testid="breadcrumb" aria-label="面包屑" style={{ fontSize: 14, color: 'rgba(0,0,0,0.45)', whiteSpace: 'nowrap', overflow: 'hidden' }}>
      {crumbs.map((c, i) => (
        <span key={`${i}-${c.title}`}>
          {i > 0 && <span style={{ margin: '0 8px' }}>/</span>}
          {c.path ? <Link to={c.path} style={{ color: 'rgba(0,0,0,0.45)' }}>{c.title}</Link>
            : <span style={{ color: i === crumbs.length - 1 ? 'rgba(0,0,0,0.88)' : undefined }}>{c.title}</span>}
        </span>
      ))}
    </nav>
  );
}
