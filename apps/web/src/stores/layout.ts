import { create } from 'zustand';
import { getPageValue, getStored, setPageValue, setStored } from '../lib/storage';
import { closeAllViews, closeOtherViews, closeView, visitView, type VisitedView } from '../lib/tags';

interface LayoutState {
  collapsed: boolean;
  /** bumped by the refresh event: the root view is removed and recreated */
  rootKey: number;
  views: VisitedView[];
  toggleSidebar(): void;
  refresh(): void;
  visit(view: VisitedView): string | null;
  close(path: string): void;
  closeOthers(path: string): void;
  closeAll(): void;
  /** switching project clears the open-tab history */
  clearViews(): void;
}

// The open tabs are a page value (spec §3, §9: kept 3 days): a reload, a new browser tab or a restarted browser
// comes back to them.
const VIEWS_KEY = 'views';
export function loadViews(): VisitedView[] {
  const v = getPageValue<VisitedView[]>(VIEWS_KEY);
  return Array.isArray(v) ? v.filter((x) => x && typeof x.path === 'string' && typeof x.fullPath === 'string') : [];
}

export const useLayout = create<LayoutState>((set, get) => ({
  collapsed: getStored('sidebarStatus') === 'collapsed',
  rootKey: 0,
  views: loadViews(),
  toggleSidebar() {
    const collapsed = !get().collapsed;
    setStored('sidebarStatus', collapsed ? 'collapsed' : 'expanded');
    set({ collapsed });
  },
  refresh: () => set((s) => ({ rootKey: s.rootKey + 1 })),
  visit(view) {
    const r = visitView(get().views, view);
    set({ views: r.views });
    return r.warning;
  },
  close: (path) => set((s) => ({ views: closeView(s.views, path) })),
  closeOthers: (path) => set((s) => ({ views: closeOtherViews(s.views, path) })),
  closeAll: () => set((s) => ({ views: closeAllViews(s.views) })),
  clearViews: () => set((s) => ({ views: closeAllViews(s.views) })),
}));

useLayout.subscribe((s, prev) => {
  if (s.views !== prev.views) setPageValue(VIEWS_KEY, s.views);
});
