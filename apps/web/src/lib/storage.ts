/**
 * Client-stored values of spec §3 in cookies with the lifetimes of spec §9: 7 days for the token, login id, user guid
 * and project values; 3 days for page values (current page, sidebar state).
 */
export const COOKIE_DAYS = { session: 7, page: 3 } as const;

export type StoredKey =
  | 'token' | 'tenantId' | 'loginId' | 'userGuid'
  | 'projectId' | 'projectType' | 'projectName' | 'homePage'
  | 'currentPage' | 'sidebarStatus';

const PAGE_KEYS: ReadonlySet<StoredKey> = new Set(['currentPage', 'sidebarStatus']);
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
