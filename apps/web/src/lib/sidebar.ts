import type { MenuRow } from '@kelvin/contracts';

/**
 * Sidebar items from the server's menu list (spec §2.2): top-level submenus from route titles; a child whose href
 * starts with http opens a new browser tab; otherwise it links to its route path (/{parentCode}/{childCode});
 * children of type dirt are not linked; nested children recurse. Only visible, non-hidden codes appear.
 */
export interface SidebarItem {
  key: string;
  title: string;
  icon: string | null;
  link: { kind: 'route'; path: string } | { kind: 'external'; href: string } | null;
  children: SidebarItem[];
}

export function sidebarItems(menus: MenuRow[], visible: ReadonlySet<string>): SidebarItem[] {
  const byParent = new Map<string | null, MenuRow[]>();
  for (const m of [...menus].sort((a, b) => a.orderNo - b.orderNo)) {
    if (!visible.has(m.code) || m.hidden) continue;
    const list = byParent.get(m.parentCode) ?? [];
    list.push(m);
    byParent.set(m.parentCode, list);
  }
  const build = (parent: string | null): SidebarItem[] =>
    (byParent.get(parent) ?? []).map((m) => {
      const children = m.type === 'dirt' ? build(m.code) : [];
      let link: SidebarItem['link'] = null;
      if (m.type !== 'dirt') {
        link = m.href && /^https?:\/\//i.test(m.href)
          ? { kind: 'external', href: m.href }
          : { kind: 'route', path: m.path || `/${m.parentCode}/${m.code}` };
      }
      return { key: m.code, title: m.title, icon: m.icon, link, children };
    }).filter((i) => i.link || i.children.length);
  return build(null);
}

/** The chain of directory keys above a menu code (to open the right submenu). */
export function ancestorsOf(menus: MenuRow[], code: string): string[] {
  const byCode = new Map(menus.map((m) => [m.code, m]));
  const out: string[] = [];
  let cur = byCode.get(code);
  while (cur?.parentCode) {
    out.unshift(cur.parentCode);
    cur = byCode.get(cur.parentCode);
  }
  return out;
}
