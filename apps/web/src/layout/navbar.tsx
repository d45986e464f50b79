import { Button, Popover, Tooltip } from 'antd';
import {
  CompressOutlined, DownOutlined, ExpandOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined,
  SettingOutlined, ThunderboltOutlined, UserOutlined, AppstoreOutlined,
} from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { MENU_BY_CODE } from '@kelvin/contracts/menus';
import { VERSION } from '../app/version';
import { feedback } from '../lib/feedback';
import { useCan } from '../lib/ui';
import { useLayout } from '../stores/layout';
import { useSession } from '../stores/session';
import { AppBreadcrumb } from './breadcrumb';
import { Bell } from './bell';
import { Clock } from './clock';
import { ErrorLogButton } from './error-log-dialog';
import { MobileProjectSelect, ProjectSwitcher } from './project-switcher';
import { Sidebar } from './sidebar';
import { useVisibleCodes } from './use-app-routes';
import { PopMenu } from './pop-menu';
import { BrandName, TenantBrand } from './tenant-brand';

/** Spec §2.3: the top navbar quick targets. */
export const QUICK_TARGETS = [
  'projectindex', 'projectview', 'projectlist', 'projectview2', 'projectView3',
  'devicemonitor', 'device20000', 'device20040', 'device20030', 'device20050', 'device20090', 'device20020', 'device4GHeating',
  'balanceValve', 'deviceAG2410', 'deviceAG2420', 'calorimeter', 'device20110', 'device20120', 'device20130', 'device618_n',
  'device24201_n', 'device24202_n', 'device801_n', 'deviceSolar_n', 'calorimeterBy4GRTU', 'AirCabinetController', 'monitorrules',
] as const;

/** Spec §2.4: the mobile user dropdown targets, by menu code (each shown only when the user may open it). */
export const MOBILE_USER_TARGETS = ['changepassword', 'area', 'groupManager', 'menuManager', 'userManager', 'tenantManager', 'billingScheme', 'gatewayControl'] as const;

export const FULLSCREEN_UNSUPPORTED = '您的浏览器不支持全屏，无法正常工作';

function useFullscreen() {
  const [full, setFull] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const on = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled) {
      feedback.message?.warning(FULLSCREEN_UNSUPPORTED);
      return;
    }
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen().catch(() => feedback.message?.warning(FULLSCREEN_UNSUPPORTED));
  };
  return { full, toggle };
}

function FullscreenButton() {
  const { full, toggle } = useFullscreen();
  return (
    <Tooltip title={full ? '退出全屏' : '全屏'}>
      <Button type="text" aria-label="全屏" onClick={toggle} icon={full ? <CompressOutlined /> : <ExpandOutlined />} />
    </Tooltip>
  );
}

function QuickTargets() {
  const visible = useVisibleCodes();
  const navigate = useNavigate();
  const items = QUICK_TARGETS.filter((c) => visible.has(c)).map((c) => ({ key: c, label: MENU_BY_CODE.get(c)?.title ?? c }));
  if (!items.length) return null;
  return (
    <PopMenu items={items} onClick={(key) => navigate(MENU_BY_CODE.get(key)!.path)} testId="quick-targets">
      <Button type="text" icon={<ThunderboltOutlined />}>快捷入口</Button>
    </PopMenu>
  );
}

function useLogout() {
  const navigate = useNavigate();
  return async (reload: boolean) => {
    await useSession.getState().logout();
    if (reload) window.location.assign('/login');
    else navigate('/login', { replace: true });
  };
}

function UserMenu({ mobile }: { mobile: boolean }) {
  const user = useSession((s) => s.user);
  const visible = useVisibleCodes();
  const navigate = useNavigate();
  const logout = useLogout();
  const targets = mobile
    ? [{ key: '/', label: '首页' }, ...MOBILE_USER_TARGETS.filter((c) => visible.has(c)).map((c) => ({ key: MENU_BY_CODE.get(c)!.path, label: MENU_BY_CODE.get(c)!.title }))]
    : [];
  return (
    <PopMenu
      testId="user-dropdown"
      items={[
        { key: 'name', label: `${user?.name ?? ''}（${user?.username ?? ''}）`, disabled: true },
        { key: 'version', label: `版本 ${VERSION}`, disabled: true },
        { key: 'd1', label: '', divider: true },
        ...targets,
        ...(targets.length ? [{ key: 'd2', label: '', divider: true }] : []),
        { key: 'logout', label: '退出登录', icon: <LogoutOutlined />, danger: true },
      ]}
      onClick={(key) => {
        if (key === 'logout') void logout(mobile);
        else if (key.startsWith('/')) navigate(key);
      }}
    >
      <Button type="text" data-testid="user-menu">
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
          <span className="kv-avatar"><UserOutlined /></span>
          {!mobile && <span>{user?.name}</span>}
          <DownOutlined style={{ fontSize: 10 }} />
        </span>
      </Button>
    </PopMenu>
  );
}

function Gear() {
  const allowed = useCan('system_n');
  const navigate = useNavigate();
  if (!allowed) return null;
  return (
    <Tooltip title="系统设置">
      <Button type="text" aria-label="系统设置" data-testid="gear" icon={<SettingOutlined style={{ fontSize: 18 }} />} onClick={() => navigate('/system_n/setting_n')} />
    </Tooltip>
  );
}

/** The tenant's logo (scaled to the 52 px bar) or brand name on the phone's top bar. */
function MobileBrand() {
  const user = useSession((s) => s.user);
  return (
    <div style={{ flex: 'none', maxWidth: 96, overflow: 'hidden', fontSize: 14 }}>
      <TenantBrand tenantId={user?.tenantId} brand={user?.brand} hasLogo={user?.hasLogo} scale={36 / 52} color="#001529" />
    </div>
  );
}

function NavbarBrand() {
  return <BrandName brand={useSession((s) => s.user?.brand)} />;
}

export function Navbar({ mobile }: { mobile: boolean }) {
  const collapsed = useLayout((s) => s.collapsed);
  const toggle = useLayout((s) => s.toggleSidebar);
  const logout = useLogout();
  const [menuOpen, setMenuOpen] = useState(false);
  if (mobile) {
    return (
      <header data-testid="mobile-navbar" style={{ display: 'flex', alignItems: 'center', gap: 4, padding: '0 8px', height: 52, background: '#fff', boxShadow: '0 1px 4px rgba(0,21,41,.08)' }}>
        <Popover
          open={menuOpen}
          onOpenChange={setMenuOpen}
          trigger="click"
          placement="bottomLeft"
          arrow={false}
          styles={{ container: { padding: 0, background: '#001529' } }}
          content={
            <div data-testid="mobile-menu" style={{ maxHeight: '70vh', overflow: 'auto', width: 240, paddingTop: 6 }}>
              <Sidebar collapsed={false} onNavigate={() => setMenuOpen(false)} />
            </div>
          }
        >
          <Button type="text" aria-label="菜单" icon={<AppstoreOutlined />} />
        </Popover>
        <MobileBrand />
        <MobileProjectSelect />
        <div style={{ flex: 1 }} />
        <Bell />
        <FullscreenButton />
        <Tooltip title="退出登录">
          <Button type="text" aria-label="退出登录" icon={<LogoutOutlined />} onClick={() => void logout(true)} />
        </Tooltip>
        <UserMenu mobile />
      </header>
    );
  }
  return (
    <header style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '0 12px', height: 56, background: '#fff', boxShadow: '0 1px 4px rgba(0,21,41,.08)' }}>
      <Button type="text" aria-label={collapsed ? '展开菜单' : '收起菜单'} onClick={toggle} icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} />
      <AppBreadcrumb />
      <div style={{ flex: 1 }} />
      <NavbarBrand />
      <ProjectSwitcher />
      <QuickTargets />
      <Clock />
      <ErrorLogButton />
      <Bell />
      <Gear />
      <FullscreenButton />
      <UserMenu mobile={false} />
    </header>
  );
}
