import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CloseOutlined } from '@ant-design/icons';
import { feedback } from '../lib/feedback';
import { isPrimaryClick, nextAfterClose, type VisitedView } from '../lib/tags';
import { useLayout } from '../stores/layout';
import { HOME_PATH, PINNED_ROUTE, routeOfPath } from '../app/routes';
import { useAppRoutes } from './use-app-routes';
import { PopMenu } from './pop-menu';

const TOO_MANY_TABS_KEY = 'too-many-tabs';

/** Affixed tabs: the pinned project view, when the user holds it. */
export function useAffixTabs() {
  const routes = useAppRoutes();
  const views = useLayout((s) => s.views);
  useEffect(() => {
    const pinned = routes.find((r) => r.code === PINNED_ROUTE);
    if (pinned && !views.some((v) => v.name === PINNED_ROUTE)) {
      useLayout.setState((s) => ({
        views: [{ fullPath: pinned.path, path: pinned.path, name: pinned.code, title: pinned.title, query: {}, affix: true }, ...s.views],
      }));
    }
  }, [routes, views]);
}

/** The tag bar of visited views with its context menu (关闭 / 关闭其他 / 关闭所有 / 刷新). */
export function TagsView() {
  const views = useLayout((s) => s.views);
  const rootKey = useLayout((s) => s.rootKey);
  const routes = useAppRoutes();
  const location = useLocation();
  const navigate = useNavigate();
  useAffixTabs();

  // every navigation to a screen is a visit
  useEffect(() => {
    const route = routeOfPath(routes, location.pathname);
    if (!route) return;
    const query = Object.fromEntries(new URLSearchParams(location.search));
    const warning = useLayout.getState().visit({
      fullPath: location.pathname + location.search,
      path: location.pathname,
      name: route.code,
      title: route.title,
      query,
      affix: route.code === PINNED_ROUTE || undefined,
    });
    // one warning at a time: a run of openings replaces the shown warning instead of stacking copies
    if (warning) feedback.message?.warning({ key: TOO_MANY_TABS_KEY, content: warning, duration: 5 });
    // rootKey: after a project switch cleared the tabs, the current screen is visited again
  }, [location.pathname, location.search, routes, rootKey]);

  const closeTab = (v: VisitedView) => {
    if (v.affix) return;
    useLayout.getState().close(v.path);
    if (v.path === location.pathname) navigate(nextAfterClose(useLayout.getState().views, HOME_PATH));
  };

  return (
    <div
      data-testid="tags-view"
      style={{ display: 'flex', gap: 4, padding: '6px 12px', background: '#fff', borderBottom: '1px solid #f0f0f0', overflowX: 'auto', whiteSpace: 'nowrap' }}
    >
      {views.map((v) => {
        const active = v.path === location.pathname;
        return (
          <PopMenu
            key={v.path}
            trigger="contextMenu"
            placement="bottomLeft"
            testId="tag-context-menu"
            items={[
              { key: 'refresh', label: '刷新' },
              { key: 'close', label: '关闭', disabled: v.affix },
              { key: 'others', label: '关闭其他' },
              { key: 'all', label: '关闭所有' },
            ]}
            onClick={(key) => {
                const s = useLayout.getState();
                if (key === 'refresh') navigate(`${v.path}?_t=${Date.now()}`);
                if (key === 'close') closeTab(v);
                if (key === 'others') {
                  s.closeOthers(v.path);
                  if (!active) navigate(v.fullPath);
                }
                if (key === 'all') {
                  s.closeAll();
                  navigate(nextAfterClose(useLayout.getState().views, HOME_PATH));
                }
            }}
          >
            <span
              role="tab"
              aria-selected={active}
              data-testid="tag"
              data-path={v.path}
              className={`kv-tag${active ? ' is-active' : ''}`}
              onMouseUp={(e) => {
                if (!isPrimaryClick(e)) e.preventDefault();
              }}
              onClick={(e) => {
                if (!isPrimaryClick(e) || active) return;
                navigate(v.fullPath);
              }}
            >
              {v.title}
              {!v.affix && (
                <CloseOutlined
                  className="kv-tag-close"
                  aria-label={`关闭${v.title}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    if (isPrimaryClick(e)) closeTab(v);
                  }}
                />
              )}
            </span>
          </PopMenu>
        );
      })}
    </div>
  );
}
