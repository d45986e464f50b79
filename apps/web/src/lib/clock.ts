/** Shell-side time helpers without dayjs (the shell's bundle budget); dayjs formats live in time.ts. */
export const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** The navbar clock: HH:MM:SS, the date and the Chinese weekday. */
export function clockParts(d: Date) {
  return {
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
    date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    weekday: WEEKDAYS[d.getDay()],
  };
}

/** YYYY-MM-DD HH:mm:ss (spec §9's default format) without dayjs. */
export function formatMillis(t: number, withSeconds = true): string {
  const d = new Date(t);
  const c = clockParts(d);
  return `${c.date} ${withSeconds ? c.time : c.time.slice(0, 5)}`;
}

/** Relative time: '刚刚' under 30 s (spec §9), then minutes, hours, days, then the date. */
export function relativeTime(value: number | Date, now: number = Date.now()): string {
  const t = typeof value === 'number' ? value : value.getTime();
  const diff = Math.max(0, Math.floor((now - t) / 1000));
  if (diff < 30) return '刚刚';
  if (diff < 3600) return `${Math.max(1, Math.floor(diff / 60))} 分钟前`;
  if (diff < 86_400) return `${Math.floor(diff / 3600)} 小时前`;
  if (diff < 86_400 * 30) return `${Math.floor(diff / 86_400)} 天前`;
  return formatMillis(t, false);
}

/** Spec §4: the bell shows a dot at 0 and the count capped at 99 ('99+'). */
export const BADGE_CAP = 99;
export function badgeText(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > BADGE_CAP ? `${BADGE_CAP}+` : String(Math.floor(count));
}
