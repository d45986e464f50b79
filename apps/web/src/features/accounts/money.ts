import { fenToYuan, MAX_AMOUNT_FEN, yuanToFen } from '@kelvin/contracts';

/**
 * Money in the console: the server keeps integer fen; people read and type 元. These are the only conversions —
 * done on the digits of the text, never through a binary floating-point multiplication (0.29 × 100 = 28.999…).
 */

/** 12345 → "123.45", -5 → "-0.05", 1234567 → "12,345.67": every amount on screen goes through this. */
export function formatFen(fen: number): string {
  if (!Number.isSafeInteger(fen)) return '—';
  // the contracts' conversion, with thousands separators for reading
  return fenToYuan(fen).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** formatFen with the unit: "100.00 元". */
export function formatYuan(fen: number): string {
  return `${formatFen(fen)} 元`;
}

export type YuanParse = { ok: true; fen: number } | { ok: false; message: string };

/**
 * "100" → 10000, "0.29" → 29, "1,234.5" → 123450, " 20.00 " → 2000. Refused: empty, negative, zero, more than two
 * decimals, not a number, more than the contracts' MAX_AMOUNT_FEN (1 亿元). Thousands separators and surrounding
 * spaces are allowed.
 */
export function parseYuan(input: string | number | null | undefined): YuanParse {
  const text = String(input ?? '').trim().replace(/[,，]/g, '');
  if (text === '') return { ok: false, message: '请输入金额' };
  if (/^-/.test(text)) return { ok: false, message: '金额必须大于 0' };
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return { ok: false, message: '请输入数字金额，如 100 或 100.50' };
  const decimals = m[2] ?? '';
  if (decimals.length > 2) return { ok: false, message: '金额最多两位小数（精确到分）' };
  const whole = m[1].replace(/^0+(?=\d)/, '');
  const tooMuch = { ok: false, message: `单笔金额不能超过 ${formatFen(MAX_AMOUNT_FEN)} 元` } as const;
  if (whole.length > 12) return tooMuch;
  // the contracts' digit-wise conversion (the same one the server's figures come from)
  const fen = yuanToFen(decimals ? `${whole}.${decimals}` : whole);
  if (fen === null) return { ok: false, message: '请输入数字金额，如 100 或 100.50' };
  if (fen <= 0) return { ok: false, message: '金额必须大于 0' };
  if (fen > MAX_AMOUNT_FEN) return tooMuch;
  return { ok: true, fen };
}

/** parseYuan plus an upper bound in fen (a single top-up limit, the balance, the deposit held). */
export function parseYuanWithin(input: string | number | null | undefined, maxFen: number | null | undefined, what = '金额'): YuanParse {
  const r = parseYuan(input);
  if (!r.ok) return r;
  if (maxFen !== null && maxFen !== undefined && r.fen > maxFen) return { ok: false, message: `${what}不能超过 ${formatFen(maxFen)} 元` };
  return r;
}
