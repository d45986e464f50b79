import { create } from 'zustand';
import { getStored, setStored } from '../lib/storage';
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

// The open tabs survive a page reload (per browser tab), as people expect from a console.
const VIEWS_KEY = 'kelvin_views';
function loadViews(): VisitedView[] {
  try {
    const v = JSON.parse(sessionStorage.getItem(VIEWS_KEY) ?? '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
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
  if (s.views !== prev.views) sessionStorage.setItem(VIEWS_KEY, JSON.stringify(s.views));
});
