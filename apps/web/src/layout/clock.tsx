import { useEffect, useState } from 'react';
import { clockParts } from '../lib/clock';

/** Live clock HH:MM:SS with the date and the Chinese weekday, updated every second (spec §2.2, §9). */
export const CLOCK_INTERVAL_MS = 1000;

export function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), CLOCK_INTERVAL_MS);
    return () => clearInterval(t);
  }, []);
  const c = clockParts(now);
  return (
    <div className="kv-clock" data-testid="clock" style={{ lineHeight: 1.2, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
      <div style={{ fontSize: 16, fontWeight: 600 }}>{c.time}</div>
      <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.55)' }}>{c.date} {c.weekday}</div>
    </div>
  );
}
