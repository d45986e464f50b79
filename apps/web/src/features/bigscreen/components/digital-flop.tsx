import { memo } from 'react';
import { DIGITAL_FLOP_DEFAULTS } from '@kelvin/contracts';

const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
const FRAME_MS = 1000 / 60;

/**
 * 数字翻牌器: every digit is a column 0–9 moved to its value by a CSS transform over `animationFrame` frames, so a
 * changed figure rolls to its new value without a React render per frame. Places are keyed from the right: a number
 * that grows a digit keeps its columns rolling. null shows —.
 */
export const DigitalFlop = memo(function DigitalFlop({ value, toFixed = DIGITAL_FLOP_DEFAULTS.toFixed, animationFrame = DIGITAL_FLOP_DEFAULTS.animationFrame, testId }: {
  value: number | null;
  toFixed?: number;
  animationFrame?: number;
  testId?: string;
}) {
  if (value === null || !Number.isFinite(value)) return <span data-testid={testId} data-value="">—</span>;
  const text = value.toLocaleString('zh-CN', { minimumFractionDigits: toFixed, maximumFractionDigits: toFixed });
  const chars = [...text];
  const duration = `${Math.round(animationFrame * FRAME_MS)}ms`;
  return (
    <span className="bs-flop" data-testid={testId} data-value={value.toFixed(toFixed)} aria-label={text}>
      {chars.map((ch, i) => {
        const place = chars.length - i;
        if (!/\d/.test(ch)) return <span key={`s${place}`}>{ch}</span>;
        return (
          <span key={`d${place}`} className="bs-flop-digit" aria-hidden>
            <span className="bs-flop-col" style={{ transform: `translateY(${-Number(ch)}em)`, transition: `transform ${duration} ease-out` }}>
              {DIGITS.map((d) => <span key={d}>{d}</span>)}
            </span>
          </span>
        );
      })}
    </span>
  );
});
