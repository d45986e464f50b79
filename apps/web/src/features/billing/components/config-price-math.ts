/**
 * Sums of 元 prices (≤ 4 decimals) done on the digits — 0.5283 + 0.05 is 0.5783, never a binary float's 0.57829999….
 * Only for showing what a tier costs; every charge is computed by the server.
 */
const SCALE = 4;
function units(price: string): bigint | null {
  const m = /^(\d{1,7})(?:\.(\d{1,4}))?$/.exec(price.trim());
  if (!m) return null;
  return BigInt(m[1]!) * 10n ** BigInt(SCALE) + BigInt((m[2] ?? '').padEnd(SCALE, '0'));
}

/** "0.5" + "0.05" → "0.5500"; null when either is not a price. */
export function addPrices(a: string | undefined, b: string | undefined): string | null {
  const x = units(a ?? '');
  const y = units(b ?? '');
  if (x === null || y === null) return null;
  const s = (x + y).toString().padStart(SCALE + 1, '0');
  return `${s.slice(0, -SCALE)}.${s.slice(-SCALE)}`;
}
