import type { ReactNode } from 'react';
import { badgeText } from '../lib/clock';

/** Tiny shell pieces (spinner, badge) in plain CSS: antd's versions would cost shell bundle budget. */
export function Spinner({ label = '加载中…' }: { label?: string }) {
  return (
    <div role="status" style={{ padding: 48, textAlign: 'center' }}>
      <span className="kv-spinner" />
      <div style={{ marginTop: 8, color: 'rgba(0,0,0,0.45)' }}>{label}</div>
    </div>
  );
}

/** Spec §4: a dot at 0, else the count capped at 99 (shown as 99+). */
export function CountBadge({ count, dotAtZero = false, children }: { count: number; dotAtZero?: boolean; children: ReactNode }) {
  const text = badgeText(count);
  return (
    <span className="kv-badge" data-count={count}>
      {children}
      {text ? <sup className="kv-badge-count">{text}</sup> : dotAtZero ? <sup className="kv-badge-dot" /> : null}
    </span>
  );
}
