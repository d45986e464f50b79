import { localParts, minuteOfDay, type LadderSection, type QuoteBody, type QuoteLine, type QuoteResult, type TouKind, type TouSection } from '@kelvin/contracts';

/**
 * The billing formulas of design §8, pure and exact (no binary floating point on money): quantities are kept to
 * 6 decimals, prices are 元 text with ≤ 4 decimals, every amount is rounded to the fen half-up, and a shared cost is
 * split with the largest-remainder method so the shares add up to the cost exactly. The quote endpoint and the engine
 * both price through these functions, so the calculator on screen and the bill always agree.
 *
 * Arithmetic rules (every product is a BigInt of integer units; a float is only ever read, never multiplied):
 * - Quantity → micro-units (1e-6): the number is first written with 15 significant digits (`toPrecision(15)`, the
 *   most a double always carries faithfully), which removes the noise of float arithmetic (12.522 − 12.5 =
 *   0.021999999999999353 → "0.0219999999999994"; 1.0000025 × 1e6 would be 1000002.4999999999), then that decimal
 *   text is rounded half-up (away from zero) to 6 decimals with integer arithmetic. `quantize` returns it as the
 *   nearest number (exact micro-units ÷ 1e6, correctly rounded). Quantities up to 999 999 999.999999 keep all 6
 *   decimals.
 * - Price and coefficient text (≤ 4 decimals, "0.5283") → integer ten-thousandths (5283).
 * - amountFen(q, p) = round_half_up(q_µ × p_1e-4 / 1e8): micro × ten-thousandths is 1e-10 元, a fen is 1e-2 元.
 *   A negative quantity (after quantizing, so float noise below half a micro-unit counts as 0) is refused.
 * - timeEquivalent = round_half_up(Σ t_µ × k_1e-4 / 1e4) micro-hours.
 * - Shares: integer floor of total × w_i / Σw, the fen left over go one each to the largest remainders (ties: input
 *   order). Weights are micro-units (area × hours: 1e-12 units), so the split is exact for any input.
 * - Every unit price on a line is 4-decimal text ('50' → '50.0000').
 *
 * Input the formulas cannot price (negative quantity, malformed price, tiers out of order, a heat total with nothing to
 * allocate it over, an amount beyond 2^53 fen) throws a `FormulaError` (a plain Error with a Chinese message) — the
 * routes answer it with 40000; nothing is rounded away silently.
 */

/** A formula refused its input; `message` is Chinese and fit for the user (the route answers 40000 with it). */
export class FormulaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormulaError';
  }
}

// ---------------------------------------------------------------- exact decimal helpers

/** 1e-6 (quantity) × 1e-4 (price) = 1e-10 元; fen = 1e-2 元 */
const TEN_BILLIONTHS_PER_FEN = 100_000_000n;

/** n / d rounded half-up, away from zero (d > 0). */
function divHalfUp(n: bigint, d: bigint): bigint {
  if (n < 0n) return -divHalfUp(-n, d);
  return (2n * n + d) / (2n * d);
}

/** A number as integer micro-units (see the file comment for why through 15 significant digits). */
function toMicro(x: number, label = '数量'): bigint {
  if (!Number.isFinite(x)) throw new FormulaError(`${label}必须是有限的数字`);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(x.toPrecision(15));
  if (!m) throw new FormulaError(`${label}无法读取：${x}`);
  const frac = m[3] ?? '';
  const digits = BigInt(m[2] + frac);
  const shift = Number(m[4] ?? 0) - frac.length + 6;
  const magnitude = shift >= 0 ? digits * 10n ** BigInt(shift) : divHalfUp(digits, 10n ** BigInt(-shift));
  return m[1] === '-' ? -magnitude : magnitude;
}

function nonNegativeMicro(x: number, label: string): bigint {
  const v = toMicro(x, label);
  if (v < 0n) throw new FormulaError(`${label}不能为负`);
  return v;
}

function toSafeNumber(v: bigint, label = '金额'): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) throw new FormulaError(`${label}过大，无法计算`);
  return Number(v);
}

/** Exact micro-units → the nearest number (integer ÷ 1e6 is correctly rounded, so it equals reading the decimal text). */
const fromMicro = (v: bigint): number => toSafeNumber(v, '数量') / 1e6;

/** "0.5283" → 5283n (ten-thousandths of a 元); also reads coefficients ("0.6" → 6000n). */
function parseFixed4(text: string, label: string): bigint {
  const m = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(String(text).trim());
  if (!m) throw new FormulaError(`${label}须为不超过 4 位小数的非负数：${text}`);
  return BigInt(m[1]) * 10_000n + BigInt((m[2] ?? '').padEnd(4, '0'));
}

/** 5783n → "0.5783" */
function formatFixed4(v: bigint): string {
  const sign = v < 0n ? '-' : '';
  const a = v < 0n ? -v : v;
  return `${sign}${a / 10_000n}.${String(a % 10_000n).padStart(4, '0')}`;
}

function fenOf(quantityMicro: bigint, price: bigint): bigint {
  return divHalfUp(quantityMicro * price, TEN_BILLIONTHS_PER_FEN);
}

function checkFen(fen: number, label: string): bigint {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new FormulaError(`${label}必须是非负整数分`);
  return BigInt(fen);
}

/**
 * Largest remainder over integer weights, by position: floor(total × w_i / Σw) each, then the fen left over one each
 * to the largest remainders (ties: earlier first). Σw = 0 → equal weights. Σ result = total exactly.
 */
function splitByWeights(total: bigint, weights: bigint[]): bigint[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((a, w) => a + w, 0n);
  const ws = sum === 0n ? weights.map(() => 1n) : weights;
  const denominator = sum === 0n ? BigInt(weights.length) : sum;
  const shares = ws.map((w) => (total * w) / denominator);
  const remainders = ws.map((w, i) => ({ i, r: (total * w) % denominator }));
  let left = total - shares.reduce((a, s) => a + s, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    shares[i] += 1n;
    left -= 1n;
  }
  return shares;
}

// ---------------------------------------------------------------- the formulas

/** A quantity rounded half-up (away from zero) to 6 decimals: 12.522 − 12.5 → 0.022, 1.0000025 → 1.000003. */
export function quantize(x: number): number {
  return fromMicro(toMicro(x));
}

/** The fen of quantize(quantity) × price (元 text ≤ 4 decimals), half-up: 1 × 0.0050 = 0.5 fen → 1; 3 × 0.0015 → 0. */
export function amountFen(quantity: number, price: string): number {
  return toSafeNumber(fenOf(nonNegativeMicro(quantity, '数量'), parseFixed4(price, '单价')));
}

/** A quantity × a coefficient (text ≤ 4 decimals: 计费系数, rated power, meter multiplier), exact, half-up to 6 decimals. */
export function scaleQuantity(quantity: number, coefficient: string): number {
  return fromMicro(divHalfUp(nonNegativeMicro(quantity, '数量') * parseFixed4(coefficient, '系数'), 10_000n));
}

/** fen × a ratio (text ≤ 4 decimals, e.g. the area share of 混合分摊), half-up to the fen. */
export function scaleFen(fen: number, ratio: string): number {
  return toSafeNumber(divHalfUp(checkFen(fen, '金额') * parseFixed4(ratio, '比例'), 10_000n));
}

/** T_eq = Σ k_speed × t_speed over low/mid/high, exact, rounded half-up to 6 decimals (hours). */
export function timeEquivalent(hours: { low: number; mid: number; high: number }, k: { low: string; mid: string; high: string }): number {
  const speeds = [['low', '低速'], ['mid', '中速'], ['high', '高速']] as const;
  const sum = speeds.reduce((acc, [s, name]) => acc + nonNegativeMicro(hours[s], `${name}时间`) * parseFixed4(k[s], `${name}系数`), 0n);
  return fromMicro(divHalfUp(sum, 10_000n));
}

/**
 * The use in (usedBefore, usedBefore + use] split across the ladder's tiers at their bounds; one line per tier that
 * receives use: 第N档 (N = the tier's place), kWh, price + the tier's add, the amount. Use above the last tier's bound
 * stays in the last tier.
 */
export function ladderLines(price: string, tiers: LadderSection['tiers'], usedBefore: number, use: number): QuoteLine[] {
  if (tiers.length === 0) throw new FormulaError('至少一个阶梯');
  const base = parseFixed4(price, '电价');
  const start = nonNegativeMicro(usedBefore, '已用电量');
  const end = start + nonNegativeMicro(use, '本次用电量');
  const lines: QuoteLine[] = [];
  let lower = 0n;
  tiers.forEach((tier, i) => {
    const last = i === tiers.length - 1;
    if (tier.upTo == null && !last) throw new FormulaError('只有最后一档可以不设上限');
    const bound = tier.upTo == null ? null : nonNegativeMicro(tier.upTo, '阶梯上限');
    if (bound != null && bound <= lower) throw new FormulaError('阶梯上限必须逐档递增');
    const upper = last ? null : bound;
    const from = start > lower ? start : lower;
    const to = upper == null || end < upper ? end : upper;
    if (to > from) {
      const unit = base + parseFixed4(tier.add, '加价');
      lines.push({ label: `第${i + 1}档`, quantity: fromMicro(to - from), unitPrice: formatFixed4(unit), amountFen: toSafeNumber(fenOf(to - from, unit)) });
    }
    if (bound != null) lower = bound;
  });
  return lines;
}

/**
 * totalFen split in proportion to the weights (quantities, ≤ 6 decimals), by largest remainder: the shares add up to
 * totalFen exactly. All weights 0 → an equal split by the same method. Empty list → empty map (the caller that must
 * place every fen checks that it has someone to place them on). Ids must be distinct (a map holds one share per id).
 */
export function splitLargestRemainder<T extends string | number>(totalFen: number, weights: { id: T; weight: number }[]): Map<T, number> {
  const total = checkFen(totalFen, '分摊金额');
  const ids = new Set<T>();
  for (const w of weights) {
    if (ids.has(w.id)) throw new FormulaError(`分摊对象重复：${w.id}`);
    ids.add(w.id);
  }
  const shares = splitByWeights(total, weights.map((w) => nonNegativeMicro(w.weight, '分摊权重')));
  return new Map(weights.map((w, i) => [w.id, toSafeNumber(shares[i])]));
}

/**
 * Cost share (design §8): fee_i = (C − C_public) × E_i / ΣE + C_public × A_i / ΣA — the private part split by
 * equivalent, the public part by area, each by largest remainder, so Σ fee = C exactly. One line per input, in order;
 * unitPrice is the effective 元 per unit of equivalent (informative; '0.0000' when the equivalent is 0).
 */
export function shareLines(totalFen: number, publicFen: number, inputs: { id: string | number; equivalent: number; area: number }[]): QuoteLine[] {
  const total = checkFen(totalFen, '总费用');
  const publicPart = checkFen(publicFen, '公共费用');
  if (publicPart > total) throw new FormulaError('公共费用不能大于总费用');
  if (inputs.length === 0) {
    if (total > 0n) throw new FormulaError('没有分摊对象，费用无法分摊');
    return [];
  }
  const equivalents = inputs.map((x) => nonNegativeMicro(x.equivalent, '当量'));
  const byEquivalent = splitByWeights(total - publicPart, equivalents);
  const byArea = splitByWeights(publicPart, inputs.map((x) => nonNegativeMicro(x.area, '面积')));
  return inputs.map((x, i) => {
    const fen = byEquivalent[i] + byArea[i];
    const q = equivalents[i];
    // fen × 1e-2 元 ÷ (q × 1e-6) in 1e-4 元 units = fen × 1e8 ÷ q
    const unit = q === 0n ? 0n : divHalfUp(fen * TEN_BILLIONTHS_PER_FEN, q);
    return { label: String(x.id), quantity: fromMicro(q), unitPrice: formatFixed4(unit), amountFen: toSafeNumber(fen) };
  });
}

/**
 * On/off-time-area allocation (JGJ 173-2009): Q_i = Q × A_i t_i / Σ(A t). The building's cost amountFen(Q, price) is
 * split by largest remainder over the weights A_i × t_i (exact, 1e-12 units), so Σ shares = the cost; the line's
 * quantity is quantize(Q_i) GJ. Σ(A t) = 0: with heat to place (Q > 0) it throws rather than lose the cost; with
 * Q = 0 there is nothing to place and every line is 0.
 */
export function onOffTimeAreaLines(buildingHeatGJ: number, price: string, inputs: { id: string | number; area: number; hours: number }[]): QuoteLine[] {
  const heat = nonNegativeMicro(buildingHeatGJ, '楼栋热量');
  const unit = parseFixed4(price, '热价');
  const weights = inputs.map((x) => nonNegativeMicro(x.area, '面积') * nonNegativeMicro(x.hours, '通阀时间'));
  const sum = weights.reduce((a, w) => a + w, 0n);
  if (sum === 0n && heat > 0n) throw new FormulaError('通阀时间与面积之积为 0，无法分配');
  const shares = sum === 0n ? weights.map(() => 0n) : splitByWeights(fenOf(heat, unit), weights);
  return inputs.map((x, i) => ({
    label: String(x.id),
    quantity: sum === 0n ? 0 : fromMicro(divHalfUp(heat * weights[i], sum)),
    unitPrice: formatFixed4(unit),
    amountFen: toSafeNumber(shares[i]),
  }));
}

/** Two-part heat tariff: 基本热费 = basic 元/m² × area, 计量热费 = 元/GJ × heat; both lines always (even at 0). */
export function heatTwoPartLines(basicPrice: string, heatPrice: string, area: number, heatGJ: number): QuoteLine[] {
  const part = (label: string, quantity: bigint, price: bigint): QuoteLine =>
    ({ label, quantity: fromMicro(quantity), unitPrice: formatFixed4(price), amountFen: toSafeNumber(fenOf(quantity, price)) });
  return [
    part('基本热费', nonNegativeMicro(area, '面积'), parseFixed4(basicPrice, '基本热价')),
    part('计量热费', nonNegativeMicro(heatGJ, '热量'), parseFixed4(heatPrice, '计量热价')),
  ];
}

/**
 * The TOU kind at an instant, in Asia/Shanghai local time. Periods are [start, end) in local minutes, the first that
 * covers the minute wins; end ≤ start wraps midnight (22:00–06:00; equal start and end = the whole day). A minute no
 * period covers is 'flat'. On a holiday with holidayKind set, the whole day is that kind. (Whether TOU applies at all
 * — `tou.enabled` — is the caller's decision.)
 */
export function touKindAt(ts: number, tou: TouSection, isHoliday: boolean): TouKind {
  if (isHoliday && tou.holidayKind) return tou.holidayKind;
  const minute = localParts(ts).minute;
  for (const p of tou.periods) {
    const start = minuteOfDay(p.start);
    const end = minuteOfDay(p.end);
    const covers = end > start ? minute >= start && minute < end : minute >= start || minute < end;
    if (covers) return p.kind;
  }
  return 'flat';
}

/** The quote calculator (计费试算): the lines of one method and their total. */
export function quote(body: QuoteBody): QuoteResult {
  const lines = quoteLines(body);
  return { totalFen: lines.reduce((a, l) => a + l.amountFen, 0), lines };
}

function quoteLines(body: QuoteBody): QuoteLine[] {
  switch (body.method) {
    case 'ladder':
      return ladderLines(body.params.price, body.params.tiers, body.inputs.usedBefore, body.inputs.use);
    case 'timeEquivalent': {
      const hours = timeEquivalent(body.inputs.hours, body.params.k);
      const unit = parseFixed4(body.params.price, '单价');
      return [{ label: '时间当量', quantity: hours, unitPrice: formatFixed4(unit), amountFen: amountFen(hours, body.params.price) }];
    }
    case 'heatTwoPart':
      return heatTwoPartLines(body.params.basicPrice, body.params.heatPrice, body.inputs.area, body.inputs.heatGJ);
    case 'share':
      return shareLines(body.params.totalFen, body.params.publicFen, body.inputs);
    case 'onOffTimeArea':
      return onOffTimeAreaLines(body.params.buildingHeatGJ, body.params.price, body.inputs);
  }
}
