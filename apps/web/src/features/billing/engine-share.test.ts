import { describe, expect, it } from 'vitest';
import type { BillLineRow } from '@kelvin/contracts';
import { shareItems } from './components/engine-share';
import { formatQuantity } from './components/engine-lines';

const line = (id: number, accountName: string, amountFen: number): BillLineRow => ({
  id, runId: 1, projectId: 1, accountId: id, accountName, deviceId: null, deviceName: null, method: 'shareArea', label: '', quantity: 0, unit: 'm²',
  unitPrice: '0', amountFen, periodFrom: 0, periodUntil: 1, entryId: null, billId: 1, readings: [], basis: null,
});

describe('share charts', () => {
  it('draws the largest shares and sums the rest — beyond the fetched page too — as 其他, adding up to the total', () => {
    const rows = [line(1, '甲', 500), line(2, '乙', 300), line(3, '丙', 0), line(4, '丁', 120), line(5, '戊', 80)];
    // 1234 fen in all: 234 of it on lines past the first page
    const items = shareItems({ total: 7, rows, totalFen: 1234 }, 3);
    expect(items.map((i) => [i.name, i.fen])).toEqual([['甲', 500], ['乙', 300], ['其他', 434]]);
    expect(items.reduce((x, i) => x + i.fen, 0)).toBe(1234);
  });

  it('leaves out zero shares and needs no 其他 when every share is drawn', () => {
    const items = shareItems({ total: 3, rows: [line(1, '甲', 5), line(2, '乙', 0), line(3, '丙', 4)], totalFen: 9 }, 10);
    expect(items.map((i) => [i.name, i.fen])).toEqual([['甲', 5], ['丙', 4]]);
  });

  it('shows quantities as the server rounded them, without float noise or trailing zeros', () => {
    expect(formatQuantity(0.1 + 0.2, 'h')).toBe('0.3 h');
    expect(formatQuantity(98.7, 'm²')).toBe('98.7 m²');
    expect(formatQuantity(null, 'h')).toBe('—');
  });
});
