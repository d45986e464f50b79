import { describe, expect, it } from 'vitest';
import type { MenuRow } from '@kelvin/contracts';
import { MAX_TABS, TOO_MANY_TABS_WARNING, closeAllViews, closeOtherViews, closeView, isPrimaryClick, visitView, type VisitedView } from './tags';
import { badgeText, clockParts, relativeTime } from './clock';
import { sidebarItems } from './sidebar';
import { fileNameOf, withQuery } from './http';
import { buildCrumbs } from '../layout/breadcrumb';
import { flattenProjects, initialProject, parseProjectId } from '../stores/project';
import { buildRoutes, routeOfPath } from '../app/routes';
import { COOKIE_DAYS, getStored, setStored } from './storage';

const view = (path: string, title = path, affix = false): VisitedView => ({ fullPath: path, path, name: path.split('/').pop()!, title, query: {}, affix: affix || undefined });
const pinned = view('/project/projectview2', '项目视图', true);

describe('tags view (spec §2.2, §4, §8)', () => {
  it('appends new views and keeps affixed ones', () => {
    const r = visitView([pinned], view('/device/area'));
    expect(r.views.map((v) => v.path)).toEqual(['/project/projectview2', '/device/area']);
    expect(r.warning).toBeNull();
  });
  it('revisiting a tab trims the trail after it (affixed tabs stay)', () => {
    let views = [pinned];
    for (const p of ['/a/1', '/a/2', '/a/3']) views = visitView(views, view(p)).views;
    const r = visitView(views, { ...view('/a/1'), fullPath: '/a/1?x=1', query: { x: '1' } });
    expect(r.views.map((v) => v.path)).toEqual(['/project/projectview2', '/a/1']);
    expect(r.views[1].fullPath).toBe('/a/1?x=1');
  });
  it('the route titled 项目列表 resets the trail', () => {
    let views = [pinned];
    for (const p of ['/a/1', '/a/2']) views = visitView(views, view(p)).views;
    const r = visitView(views, view('/project/projectlist', '项目列表'));
    expect(r.views.map((v) => v.path)).toEqual(['/project/projectview2', '/project/projectlist']);
  });
  it('a tenth tab warns and removes the first non-pinned tab', () => {
    let views = [pinned];
    for (let i = 1; i <= MAX_TABS - 1; i++) views = visitView(views, view(`/a/${i}`)).views;
    expect(views).toHaveLength(MAX_TABS);
    const r = visitView(views, view('/a/new'));
    expect(r.warning).toBe(TOO_MANY_TABS_WARNING);
    expect(r.views).toHaveLength(MAX_TABS);
    expect(r.views[0].path).toBe('/project/projectview2');
    expect(r.views.some((v) => v.path === '/a/1')).toBe(false);
    expect(r.views.at(-1)!.path).toBe('/a/new');
  });
  it('close, close others, close all never close affixed tabs', () => {
    const views = [pinned, view('/a/1'), view('/a/2')];
    expect(closeView(views, '/project/projectview2')).toHaveLength(3);
    expect(closeView(views, '/a/1').map((v) => v.path)).toEqual(['/project/projectview2', '/a/2']);
    expect(closeOtherViews(views, '/a/2').map((v) => v.path)).toEqual(['/project/projectview2', '/a/2']);
    expect(closeAllViews(views).map((v) => v.path)).toEqual(['/project/projectview2']);
  });
  it('only the primary mouse button acts', () => {
    expect(isPrimaryClick({ button: 0 })).toBe(true);
    expect(isPrimaryClick({ button: 1 })).toBe(false);
    expect(isPrimaryClick({ button: 2 })).toBe(false);
  });
});

describe('clock, badge and relative time (spec §4, §9)', () => {
  it('formats HH:MM:SS with the Chinese weekday', () => {
    const c = clockParts(new Date(2026, 10, 22, 9, 5, 7));
    expect(c).toEqual({ time: '09:05:07', date: '2026-11-22', weekday: '星期日' });
  });
  it('caps the badge at 99 and shows nothing (a dot) at zero', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-3)).toBeNull();
    expect(badgeText(5)).toBe('5');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
  it("reads 'just now' under 30 s", () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    expect(relativeTime(now - 29_000, now)).toBe('刚刚');
    expect(relativeTime(now - 30_000, now)).toBe('1 分钟前');
    expect(relativeTime(now - 3 * 3600_000, now)).toBe('3 小时前');
    expect(relativeTime(now - 2 * 86_400_000, now)).toBe('2 天前');
  });
});

describe('sidebar items (spec §2.2)', () => {
  const row = (code: string, parentCode: string | null, type: 'dirt' | 'menu', extra: Partial<MenuRow> = {}): MenuRow => ({
    code, title: `${code}标题`, icon: null, parentCode, type, path: `/${parentCode ?? ''}/${code}`, href: null, orderNo: 0, hidden: false, ...extra,
  });
  const menus = [
    row('device', null, 'dirt'), row('area', 'device', 'menu'), row('ext', 'device', 'menu', { href: 'https://example.com/help' }),
    row('types', 'device', 'dirt'), row('device20020', 'types', 'menu', { path: '/device/device20020' }), row('hiddenOne', 'device', 'menu', { hidden: true }),
  ];
  it('links children to their route, http hrefs open outside, directories are not linked, nesting recurses', () => {
    const items = sidebarItems(menus, new Set(['device', 'area', 'ext', 'types', 'device20020', 'hiddenOne']));
    expect(items).toHaveLength(1);
    const [device] = items;
    expect(device.link).toBeNull();
    expect(device.children.map((c) => c.key)).toEqual(['area', 'ext', 'types']);
    expect(device.children[0].link).toEqual({ kind: 'route', path: '/device/area' });
    expect(device.children[1].link).toEqual({ kind: 'external', href: 'https://example.com/help' });
    expect(device.children[2].link).toBeNull();
    expect(device.children[2].children[0].link).toEqual({ kind: 'route', path: '/device/device20020' });
  });
  it('drops what is not visible and empty directories', () => {
    const items = sidebarItems(menus, new Set(['device', 'types']));
    expect(items).toEqual([]);
  });
});

describe('breadcrumb', () => {
  it('prepends 首页 unless the first crumb is home at the root path', () => {
    expect(buildCrumbs([{ title: '设备管理', path: null }]).map((c) => c.title)).toEqual(['首页', '设备管理']);
    expect(buildCrumbs([{ title: '首页', path: '/' }])).toHaveLength(1);
  });
});

describe('project selection (spec §4, §5)', () => {
  const roots = [
    { id: 1, label: '华北', value: 1, level: 'region' as const, attr4: null, children: [
      { id: 2, label: 'A', value: 2, level: 'project' as const, attr4: 'PT1011', children: [] },
      { id: 3, label: 'B', value: 3, level: 'project' as const, attr4: 'PT2010', children: [] },
    ] },
    { id: 4, label: '华东', value: 4, level: 'region' as const, attr4: null, children: [{ id: 5, label: 'C', value: 5, level: 'project' as const, attr4: null, children: [] }] },
  ];
  it('the first project is the first child of the first root', () => {
    const projects = flattenProjects(roots);
    expect(projects.map((p) => [p.id, p.region])).toEqual([[2, '华北'], [3, '华北'], [5, '华东']]);
    expect(initialProject(projects, null)?.id).toBe(2);
  });
  it('a project id that is not a number > 0 (or not visible) falls back to the first', () => {
    const projects = flattenProjects(roots);
    for (const bad of ['abc', '0', '-3', '2.5', '', undefined, '999']) expect(initialProject(projects, bad)?.id).toBe(2);
    expect(initialProject(projects, '5')?.id).toBe(5);
    expect(parseProjectId('7')).toBe(7);
    expect(parseProjectId(' ')).toBeNull();
    expect(initialProject([], '5')).toBeNull();
  });
});

describe('route table', () => {
  it('only granted screens get routes; optional params match', () => {
    const routes = buildRoutes(new Set(['devicepage', 'area', 'device']), []);
    expect(routes.map((r) => r.code).sort()).toEqual(['area', 'devicepage']);
    expect(routeOfPath(routes, '/device/devicepage/19.56')?.code).toBe('devicepage');
    expect(routeOfPath(routes, '/device/area/5')).toBeUndefined();
    expect(routeOfPath(routes, '/device/area/')?.code).toBe('area');
  });
  it('titles come from the server menu list when it has them', () => {
    const routes = buildRoutes(new Set(['area']), [{ code: 'area', title: '楼宇', icon: null, parentCode: 'device', type: 'menu', path: '/device/area', href: null, orderNo: 0, hidden: false }]);
    expect(routes[0].title).toBe('楼宇');
  });
});

describe('http helpers and client storage', () => {
  it('reads UTF-8 file names and builds queries', () => {
    expect(fileNameOf("attachment; filename=\"x.xlsx\"; filename*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97.xlsx")).toBe('操作日志.xlsx');
    expect(fileNameOf('attachment; filename="a.csv"')).toBe('a.csv');
    expect(withQuery('/api/x', { a: 1, b: '', c: undefined, d: '中' })).toBe('/api/x?a=1&d=%E4%B8%AD');
  });
  it('stores values in cookies with the spec lifetimes', () => {
    setStored('projectId', 12);
    expect(getStored('projectId')).toBe('12');
    setStored('projectId', null);
    expect(getStored('projectId')).toBeNull();
    expect(COOKIE_DAYS).toEqual({ session: 7, page: 3 });
  });
});
