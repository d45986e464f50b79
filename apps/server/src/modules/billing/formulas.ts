import type { LadderSection, QuoteBody, QuoteLine, QuoteResult, TouKind, TouSection } from '@kelvin/contracts';

/**
 * The billing formulas of design §8, pure and exact (no binary floating point on money): quantities are kept to
 * 6 decimals, prices are 元 text with ≤ 4 decimals, every amount is rounded to the fen half-up, and a shared cost is
 * split with the largest-remainder method so the shares add up to the cost exactly. The quote endpoint and the engine
 * both price through these functions, so the calculator on screen and the bill always agree.
 */

/** (placeholder signatures — the formulas helper fills these in) */
export function quantize(_x: number): number { throw new Error('todo'); }
export function amountFen(_quantity: number, _price: string): number { throw new Error('todo'); }
export function timeEquivalent(_hours: { low: number; mid: number; high: number }, _k: { low: string; mid: string; high: string }): number { throw new Error('todo'); }
export function ladderLines(_price: string, _tiers: LadderSection['tiers'], _usedBefore: number, _use: number): QuoteLine[] { throw new Error('todo'); }
export function splitLargestRemainder<T extends string | number>(_totalFen: number, _weights: { id: T; weight: number }[]): Map<T, number> { throw new Error('todo'); }
export function shareLines(_totalFen: number, _publicFen: number, _inputs: { id: string | number; equivalent: number; area: number }[]): QuoteLine[] { throw new Error('todo'); }
export function onOffTimeAreaLines(_buildingHeatGJ: number, _price: string, _inputs: { id: string | number; area: number; hours: number }[]): QuoteLine[] { throw new Error('todo'); }
export function heatTwoPartLines(_basicPrice: string, _heatPrice: string, _area: number, _heatGJ: number): QuoteLine[] { throw new Error('todo'); }
export function touKindAt(_ts: number, _tou: TouSection, _isHoliday: boolean): TouKind { throw new Error('todo'); }
export function quote(_body: QuoteBody): QuoteResult { throw new Error('todo'); }
