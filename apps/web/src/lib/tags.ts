/**
 * The tag bar of visited views (spec §2.2, §4, §8) as pure functions, so the rules are unit-tested:
 * affixed tags stay; the trail resets on the route titled 项目列表; revisiting a tab trims the trail after it;
 * at most 9 tabs — the tenth removes the first non-affixed tab and warns.
 */
export interface VisitedView {
  /** full path including the query (the cache key, with `_t` forcing a fresh view) */
  fullPath: string;
  path: string;
  /** the route's name = its menu code */
  name: string;
  title: string;
  query: Record<string, string>;
  affix?: boolean;
}

export const MAX_TABS = 9;
export const TRAIL_RESET_TITLE = '项目列表';
export const TOO_MANY_TABS_WARNING = '最多同时打开 9 个页面，请关闭不用的页面';

export interface VisitResult {
  views: VisitedView[];
  /** set when a tab had to be removed to make room */
  warning: string | null;
}

export function visitView(views: VisitedView[], view: VisitedView): VisitResult {
  const affixed = views.filter((v) => v.affix);
  if (view.title === TRAIL_RESET_TITLE) {
    return { views: [...affixed.filter((v) => v.path !== view.path), { ...view, affix: view.affix || undefined }], warning: null };
  }
  const at = views.findIndex((v) => v.path === view.path);
  if (at >= 0) {
    // revisiting: keep the trail up to this tab (affixed tabs after it stay), refresh its query/fullPath
    const kept = views.slice(0, at + 1).map((v, i) => (i === at ? { ...v, fullPath: view.fullPath, query: view.query } : v));
    const laterAffixed = views.slice(at + 1).filter((v) => v.affix);
    return { views: [...kept, ...laterAffixed], warning: null };
  }
  let next = [...views, view];
  let warning: string | null = null;
  if (next.length > MAX_TABS) {
    const drop = next.findIndex((v) => !v.affix);
    next = next.filter((_, i) => i !== drop);
    warning = TOO_MANY_TABS_WARNING;
  }
  return { views: next, warning };
}

export function closeView(views: VisitedView[], path: string): VisitedView[] {
  return views.filter((v) => v.affix || v.path !== path);
}

export function closeOtherViews(views: VisitedView[], path: string): VisitedView[] {
  return views.filter((v) => v.affix || v.path === path);
}

export function closeAllViews(views: VisitedView[]): VisitedView[] {
  return views.filter((v) => v.affix);
}

/** Where to go after closing the active tab: the last remaining tab, or home. */
export function nextAfterClose(remaining: VisitedView[], home: string): string {
  return remaining.length ? remaining[remaining.length - 1].fullPath : home;
}

/** Spec §2.2: only a primary-button click acts on a tab. */
export const isPrimaryClick = (e: { button: number }) => e.button === 0;
