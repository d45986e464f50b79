import { Component, lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { menuFitsProject } from '@kelvin/contracts/access';
import { PAGES } from '../app/pages';
import type { AppRoute } from '../app/routes';
import { useErrorLog } from '../lib/error-log';
import { Spinner } from './bits';
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

/** Render failures and chunk load failures of one screen land in the bug日志 and show a retry, not a blank page. */
class ScreenBoundary extends Component<{ children: ReactNode; title: string }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    useErrorLog.getState().add(error);
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return <Suspense fallback={null}><Notice kind="failed" title={this.props.title} /></Suspense>;
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
