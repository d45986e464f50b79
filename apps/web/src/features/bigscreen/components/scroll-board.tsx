import { memo, useEffect, useState, type ReactNode } from 'react';
import { SCROLL_BOARD_DEFAULTS } from '@kelvin/contracts';

export interface BoardColumn { title: string; width: number | string; align?: 'left' | 'center' | 'right' }

/**
 * 轮播表: a header and `rowNum` rows; with more rows than fit, the list moves up one row every `waitTime` ms (a CSS
 * transform, a single-row carousel) and starts over seamlessly. A new first row (a new alarm) shows at once.
 */
export const ScrollBoard = memo(function ScrollBoard({ columns, rows, height, rowNum = SCROLL_BOARD_DEFAULTS.rowNum, waitTime = SCROLL_BOARD_DEFAULTS.waitTime,
  headerHeight = SCROLL_BOARD_DEFAULTS.headerHeight, empty, testId }: {
  columns: BoardColumn[];
  rows: { key: string | number; cells: ReactNode[] }[];
  height: number;
  rowNum?: number;
  waitTime?: number;
  headerHeight?: number;
  empty: string;
  testId?: string;
}) {
  const rowHeight = (height - headerHeight) / rowNum;
  const n = rows.length;
  const [pos, setPos] = useState(0);
  const [smooth, setSmooth] = useState(true);
  const first = rows[0]?.key;
  useEffect(() => {
    setSmooth(false);
    setPos(0);
  }, [first]);
  useEffect(() => {
    if (n <= rowNum) return;
    const t = setInterval(() => {
      setSmooth(true);
      setPos((p) => p + 1);
    }, waitTime);
    return () => clearInterval(t);
  }, [n, rowNum, waitTime]);
  // past the last row: jump back to the identical first rows without a transition
  useEffect(() => {
    if (pos < n || n === 0) return;
    const t = setTimeout(() => {
      setSmooth(false);
      setPos(0);
    }, 450);
    return () => clearTimeout(t);
  }, [pos, n]);
  const shown = n > rowNum ? [...rows, ...rows.slice(0, rowNum)] : rows;
  const cell = (c: BoardColumn, content: ReactNode, i: number) => (
    <div key={i} className="bs-board-cell" style={{ width: c.width === 'auto' ? undefined : c.width, flex: c.width === 'auto' ? '1 1 0' : 'none', minWidth: 0, textAlign: c.align ?? 'left' }}>{content}</div>
  );
  return (
    <div className="bs-board" style={{ height }} data-testid={testId}>
      <div className="bs-board-head" style={{ height: headerHeight, lineHeight: `${headerHeight}px` }}>{columns.map((c, i) => cell(c, c.title, i))}</div>
      {n === 0 ? <div className="bs-empty">{empty}</div> : (
        <div style={{ height: height - headerHeight, overflow: 'hidden' }}>
          <div style={{ transform: `translateY(${-Math.min(pos, n) * rowHeight}px)`, transition: smooth ? 'transform .4s ease' : 'none' }}>
            {shown.map((r, i) => (
              <div key={`${r.key}-${i >= n ? 'again' : ''}`} className="bs-board-row" style={{ height: rowHeight }}>{columns.map((c, j) => cell(c, r.cells[j], j))}</div>
            ))}
          </div>
        </div>
      )}
    </div>
  );
});
