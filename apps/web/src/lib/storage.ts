/**
 * Client-stored values of spec §3 in cookies with the lifetimes of spec §9: 7 days for the token, login id, user guid
 * and project values; 3 days for page values (home page, current page, sidebar state, and the open tabs below).
 */
export const COOKIE_DAYS = { session: 7, page: 3 } as const;

export type StoredKey =
  | 'token' | 'tenantId' | 'loginId' | 'userGuid'
  | 'projectId' | 'projectType' | 'projectName' | 'homePage'
  | 'currentPage' | 'sidebarStatus';

const PAGE_KEYS: ReadonlySet<StoredKey> = new Set(['homePage', 'currentPage', 'sidebarStatus']);
const PREFIX = 'kelvin_';

export function getStored(key: StoredKey): string | null {
  const name = `${PREFIX}${key}=`;
  for (const part of document.cookie.split(';')) {
    const c = part.trim();
    if (c.startsWith(name)) return decodeURIComponent(c.slice(name.length));
  }
  return null;
}

/** Never sent on a cross-site request; over HTTPS never sent in the clear. */
const cookieFlags = () => `path=/; SameSite=Strict${location.protocol === 'https:' ? '; Secure' : ''}`;

export function setStored(key: StoredKey, value: string | number | null | undefined) {
  if (value === null || value === undefined || value === '') return removeStored(key);
  const days = PAGE_KEYS.has(key) ? COOKIE_DAYS.page : COOKIE_DAYS.session;
  const expires = new Date(Date.now() + days * 86_400_000).toUTCString();
  document.cookie = `${PREFIX}${key}=${encodeURIComponent(String(value))}; expires=${expires}; ${cookieFlags()}`;
}

export function removeStored(key: StoredKey) {
  document.cookie = `${PREFIX}${key}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; ${cookieFlags()}`;
}

/**
 * Page values too large for a cookie (the open tabs) in local storage with the page-value lifetime, per login, so a
 * new browser tab or a restarted browser comes back to them.
 */
export function getPageValue<T>(name: string, now = Date.now()): T | null {
  try {
    const raw = JSON.parse(localStorage.getItem(pageValueKey(name)) ?? 'null') as { savedAt: number; value: T } | null;
    if (!raw || typeof raw.savedAt !== 'number' || now - raw.savedAt > COOKIE_DAYS.page * 86_400_000) return null;
    return raw.value;
  } catch {
    return null;
  }
}

export function setPageValue(name: string, value: unknown, now = Date.now()) {
  try {
    localStorage.setItem(pageValueKey(name), JSON.stringify({ savedAt: now, value }));
  } catch {
    // storage full or blocked: the value lives for this page only
  }
}

const pageValueKey = (name: string) => `${PREFIX}${name}:${getStored('loginId') ?? ''}`;
