import { Navigate } from 'react-router';
import { getStored } from '../lib/storage';
import { HOME_PATH, PINNED_ROUTE } from '../app/routes';
import { useAppRoutes, useVisibleCodes } from './use-app-routes';
import { useProject } from '../stores/project';
import { Spinner } from './bits';

/** /judge: where a signed-in user lands — the stored home page, the project view, or the first screen they may open. */
export function Judge() {
  const routes = useAppRoutes();
  const visible = useVisibleCodes();
  const loaded = useProject((s) => s.loaded);
  const typed = useProject((s) => s.projectType !== null || (s.loaded && s.projects.length === 0));
  const home = getStored('homePage');
  if (home && routes.some((r) => r.path === home)) return <Navigate to={home} replace />;
  if (routes.some((r) => r.code === PINNED_ROUTE)) return <Navigate to={HOME_PATH} replace />;
  if (!loaded || !typed) return <Spinner />;
  const first = routes.find((r) => visible.has(r.code) && !r.hidden);
  return <Navigate to={first ? first.path : '/401'} replace />;
}
