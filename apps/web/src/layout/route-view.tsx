import { Component, lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { menuFitsProject } from '@kelvin/contracts/access';
import { PAGES } from '../app/pages';
import type { AppRoute } from '../app/routes';
import { handleChunkLoadError, isChunkLoadError } from '../lib/chunk-reload';
import { useErrorLog } from '../lib/error-log';
import { Spinner } from './bits';
import { ErrorScreen } from './error-screen';
import { projectContext, useProject } from '../stores/project';

const Notice = lazy(() => import('../features/common/notices'));

const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();
function pageOf(code: string): LazyExoticComponent<ComponentType> | null {
  const load = PAGES[code];
  if (!load) return null;
  let page = lazyPages.get(code);
  if (!page) {
    page = lazy(load);
    lazyPages.set(code, page);
  }
  return page;
}

const loading = <Spinner />;

/**
 * Render failures of one screen land in the bug日志 and show the error screen inside the shell; a chunk that cannot be
 * loaded (a redeploy replaced the build) goes to the shared chunk handler.
 */
class ScreenBoundary extends Component<{ children: ReactNode; title: string }, { error: unknown }> {
  state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('未知错误') };
  }
  componentDidCatch(error: unknown) {
    if (isChunkLoadError(error)) handleChunkLoadError(error);
    else useErrorLog.getState().add(error);
  }
  render() {
    if (this.state.error === null) return this.props.children;
    return <ErrorScreen error={this.state.error} title={this.props.title} />;
  }
}

/** One screen: checks the project rules of spec §6 and lazily loads its component. */
export function RouteView({ route }: { route: AppRoute }) {
  const fits = useProject((s) => menuFitsProject(route.menu, projectContext(s)));
  const loaded = useProject((s) => s.current !== null);
  const Page = pageOf(route.code);
  let body: ReactNode;
  if (loaded && !fits) body = <Notice kind="not-supported" title={route.title} />;
  else if (!Page) body = <Notice kind="not-ready" title={route.title} />;
  else body = <Page />;
  return (
    <ScreenBoundary title={route.title}>
      <Suspense fallback={loading}>{body}</Suspense>
    </ScreenBoundary>
  );
}
