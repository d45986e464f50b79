import { useEffect, useMemo, useState } from 'react';
import { Popover, Tooltip } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { ancestorsOf, sidebarItems, type SidebarItem } from '../lib/sidebar';
import { useSession } from '../stores/session';
import { useAppRoutes, useVisibleCodes } from './use-app-routes';
import { routeOfPath } from '../app/routes';
import { MenuIcon } from './icons';

/**
 * The left menu (and, on mobile, the top-bar menu): single-open (opening a submenu closes its siblings),
 * collapsible to icons with fly-outs, built from the server's menu list and the visibility rules.
 */
export function Sidebar({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const menuList = useSession((s) => s.menuList);
  const visible = useVisibleCodes();
  const routes = useAppRoutes();
  const location = useLocation();
  const navigate = useNavigate();
  const items = useMemo(() => sidebarItems(menuList, visible), [menuList, visible]);
  const active = routeOfPath(routes, location.pathname)?.code;
  const [openKeys, setOpenKeys] = useState<string[]>(() => (active ? ancestorsOf(menuList, active) : []));

  useEffect(() => {
    if (active) setOpenKeys(ancestorsOf(menuList, active));
  }, [active, menuList]);

  const activate = (item: SidebarItem) => {
    if (item.link?.kind === 'route') {
      navigate(item.link.path);
      onNavigate?.();
    } else if (item.link?.kind === 'external') {
      window.open(item.link.href, '_blank', 'noopener');
    }
  };

  const toggle = (key: string) => {
    setOpenKeys((keys) => (keys.includes(key) ? keys.filter((k) => k !== key && !ancestorsOf(menuList, k).includes(key)) : [...ancestorsOf(menuList, key), key]));
  };

  const render = (list: SidebarItem[], depth: number) =>
    list.map((item) => {
      const isDir = item.children.length > 0;
      const open = openKeys.includes(item.key);
      const isActive = item.key === active;
      const holdsActive = Boolean(active && ancestorsOf(menuList, active).includes(item.key));
      return (
        <div key={item.key}>
          <div
            role="menuitem"
            data-menu={item.key}
            aria-expanded={isDir ? open : undefined}
            className={`kv-side-item${isActive ? ' is-active' : ''}${open ? ' is-open' : ''}${holdsActive ? ' is-open-parent' : ''}`}
            style={{ paddingInlineStart: 16 + depth * 16 }}
            onClick={() => (isDir ? toggle(item.key) : activate(item))}
          >
            <span className="kv-side-icon"><MenuIcon name={item.icon} /></span>
            <span title={item.title} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{item.title}</span>
            {isDir && <DownOutlined className="kv-arrow" />}
          </div>
          {isDir && open && <div className="kv-side-sub">{render(item.children, depth + 1)}</div>}
        </div>
      );
    });

  if (collapsed) {
    const flyout = (item: SidebarItem) => {
      const rows: { item: SidebarItem; depth: number }[] = [];
      const walk = (list: SidebarItem[], depth: number) => list.forEach((c) => {
        rows.push({ item: c, depth });
        walk(c.children, depth + 1);
      });
      walk(item.children, 0);
      return (
        <div style={{ maxHeight: '70vh', overflow: 'auto', margin: -8, minWidth: 160 }}>
          <div style={{ padding: '6px 12px', fontWeight: 600 }}>{item.title}</div>
          {rows.map(({ item: c, depth }) => (
            <div
              key={c.key}
              className={`kv-pop-item${c.key === active ? ' is-selected' : ''}${c.children.length ? ' is-disabled' : ''}`}
              style={{ paddingInlineStart: 12 + depth * 12 }}
              onClick={() => !c.children.length && activate(c)}
            >
              {c.title}
            </div>
          ))}
        </div>
      );
    };
    return (
      <nav className="kv-side kv-side-collapsed" aria-label="菜单">
        {items.map((item) => {
          const holdsActive = Boolean(active && (item.key === active || ancestorsOf(menuList, active).includes(item.key)));
          const cell = (
            <div className={`kv-side-item${holdsActive ? ' is-active' : ''}`} onClick={() => !item.children.length && activate(item)}>
              <span className="kv-side-icon"><MenuIcon name={item.icon} /></span>
            </div>
          );
          return item.children.length ? (
            <Popover key={item.key} placement="rightTop" content={flyout(item)} arrow={false}>{cell}</Popover>
          ) : (
            <Tooltip key={item.key} placement="right" title={item.title}>{cell}</Tooltip>
          );
        })}
      </nav>
    );
  }
  return <nav className="kv-side" aria-label="菜单">{render(items, 0)}</nav>;
}
