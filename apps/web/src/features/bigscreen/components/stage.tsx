import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { useBlockF12 } from '../../../lib/ui';
import './bigscreen.css';

export const STAGE_W = 1920;
export const STAGE_H = 1080;

/** The scale that fits the stage into the window, whole and centred (bars top/bottom or left/right, never scrollbars). */
export const fitScale = (w: number, h: number) => Math.min(w / STAGE_W, h / STAGE_H);

/**
 * A fixed 1920×1080 stage CSS-scaled to the window, over the whole viewport (the shell's chrome stays underneath,
 * hidden): one design for a wall screen, a laptop and a phone.
 */
export function Stage({ children }: { children: ReactNode }) {
  const [scale, setScale] = useState(() => fitScale(window.innerWidth, window.innerHeight));
  useBlockF12();
  useLayoutEffect(() => {
    const fit = () => setScale(fitScale(window.innerWidth, window.innerHeight));
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, []);
  // the page under the overlay must not scroll either
  useEffect(() => {
    const html = document.documentElement;
    const before = html.style.overflow;
    html.style.overflow = 'hidden';
    return () => {
      html.style.overflow = before;
    };
  }, []);
  return (
    <div className="bs-overlay" data-testid="bigscreen">
      <div className="bs-stage" style={{ transform: `translate(-50%, -50%) scale(${scale})` }}>{children}</div>
    </div>
  );
}
