import { create } from 'zustand';
import type { MenuRow, UserInfo } from '@kelvin/contracts';
import { ApiError, http, reportError, requestEnvelope, setHttpHooks } from '../lib/http';
import { getStored, removeStored, setStored } from '../lib/storage';
import { loadViews, useLayout } from './layout';

/** Session user of spec §3: token, name, roles, menus and elements as code → true maps. */
interface SessionState {
  token: string | null;
  user: UserInfo | null;
  roles: string[];
  menus: Record<string, true>;
  elements: Record<string, true>;
  /** the server's menu list (code, title, icon …): route titles and icons come from here */
  menuList: MenuRow[];
  status: 'idle' | 'loading' | 'ready';
  /** `captcha`: the image captcha's id and answer, once the server asks for one (40002) */
  login(username: string, password: string, captcha?: { captchaId: string; captchaCode: string }): Promise<void>;
  loadUser(): Promise<void>;
  logout(): Promise<void>;
  /** Re-reads the grants (on every navigation): a role change shows on the next screen without a new login. */
  refreshGrants(): Promise<void>;
  /** Spec §4: a role change replaces the roles and the token. */
  changeRole(roles: string[], token: string): void;
  has(code: string): boolean;
}

/** The user info's code lists as the spec's code → true maps. */
function grantMaps(user: UserInfo) {
  return {
    menus: Object.fromEntries(user.menus.map((m) => [m.code, true as const])),
    elements: Object.fromEntries(user.elements.map((e) => [e.code, true as const])),
  };
}

const sameKeys = (a: Record<string, true>, b: Record<string, true>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k]);
};

const USER_GUID_BYTES = 16;
const newGuid = () => Array.from(crypto.getRandomValues(new Uint8Array(USER_GUID_BYTES)), (b) => b.toString(16).padStart(2, '0')).join('');

function clearLocal() {
  for (const k of ['token', 'tenantId', 'loginId', 'userGuid'] as const) removeStored(k);
}

export const useSession = create<SessionState>((set, get) => ({
  token: getStored('token'),
  user: null,
  roles: [],
  menus: {},
  elements: {},
  menuList: [],
  status: 'idle',

  async login(username, password, captcha) {
    // Spec §4: clear token, roles, menus and elements first, then store the returned token.
    removeStored('token');
    set({ token: null, roles: [], menus: {}, elements: {}, user: null, status: 'idle' });
    const res = await requestEnvelope<{ data2: number; attr1: string }>('POST', '/api/auth/jwt/token', {
      body: { username: username.trim(), password, ...captcha },
    });
    const token = res.data as string;
    setStored('token', token);
    setStored('tenantId', res.data2);
    setStored('loginId', res.attr1);
    setStored('userGuid', newGuid());
    useLayout.setState({ views: loadViews() }); // this login's open tabs (a page value)
    set({ token });
  },

  async loadUser() {
    const token = get().token;
    if (!token) throw new Error('未登录');
    set({ status: 'loading' });
    try {
      const [user, menuList] = await Promise.all([
        http.get<UserInfo>('/api/admin/user/front/info', { token }, { silent: true }),
        http.get<MenuRow[]>('/api/admin/user/front/menu/all', undefined, { silent: true }),
      ]);
      set({
        user,
        menuList,
        // Spec §4: the role is set to admin on user-info load.
        roles: ['admin'],
        ...grantMaps(user),
        status: 'ready',
      });
    } catch (err) {
      // Spec §2.1: a failed user-info load logs the user out (the caller goes to /login). A request that never got an
      // answer (network down, or aborted because the page is unloading) is not a failed load: keep the session.
      if (err instanceof ApiError && err.status === 0) {
        set({ status: 'idle' });
        throw err;
      }
      await get().logout();
      throw err;
    }
  },

  async refreshGrants() {
    const token = get().token;
    if (!token || get().status !== 'ready') return;
    try {
      const user = await http.get<UserInfo>('/api/admin/user/front/info', { token }, { silent: true });
      const { menus, elements } = grantMaps(user);
      if (!sameKeys(menus, get().menus) || !sameKeys(elements, get().elements)) set({ user, menus, elements });
    } catch (err) {
      // a 401 here is the same as anywhere: the error catalogue's confirm box
      if (err instanceof ApiError && err.status === 401) reportError(err);
    }
  },

  async logout() {
    const token = get().token;
    clearLocal();
    set({ token: null, user: null, roles: [], menus: {}, elements: {}, status: 'idle' });
    if (token) await http.get('/api/auth/jwt/invalid', { token }, { silent: true }).catch(() => undefined);
  },

  changeRole(roles, token) {
    setStored('token', token);
    set({ roles, token });
  },

  has(code) {
    const s = get();
    return Boolean(s.menus[code] || s.elements[code]);
  },
}));

setHttpHooks({
  onLoggedOut: () => {
    clearLocal();
    useSession.setState({ token: null, user: null, roles: [], menus: {}, elements: {}, status: 'idle' });
  },
});

/** The granted codes as a set (menus and elements). */
export function grantedCodes(s: Pick<SessionState, 'menus' | 'elements'>): Set<string> {
  return new Set([...Object.keys(s.menus), ...Object.keys(s.elements)]);
}
