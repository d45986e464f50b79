import crypto from 'node:crypto';

/**
 * Self-hosted image captcha: random characters drawn as distorted strokes (paths, not <text>, so the answer is not
 * in the SVG source), plus noise curves. The answer is not stored: the id carries its expiry and an HMAC of
 * answer + expiry, so any server process sharing the signing key can check it; each id is accepted once here.
 */

/** Stroke glyphs on a 4 × 6 grid (y down); ambiguous characters (0/O, 1/I/L, S/5, B/8, G/6, Z/2) left out. */
const GLYPHS: Record<string, number[][][]> = {
  '2': [[[0, 1], [1, 0], [3, 0], [4, 1], [4, 2], [0, 6], [4, 6]]],
  '3': [[[0, 0], [4, 0], [2, 2.5], [3.5, 3], [4, 4.5], [3, 6], [1, 6], [0, 5]]],
  '4': [[[3, 6], [3, 0], [0, 4], [4, 4]]],
  '7': [[[0, 0], [4, 0], [1.5, 6]]],
  '9': [[[4, 3.5], [1, 3.5], [0, 2.5], [0, 1], [1, 0], [3, 0], [4, 1], [4, 5], [3, 6], [0, 6]]],
  A: [[[0, 6], [2, 0], [4, 6]], [[0.7, 4], [3.3, 4]]],
  C: [[[4, 1], [3, 0], [1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5]]],
  E: [[[4, 0], [0, 0], [0, 6], [4, 6]], [[0, 3], [3, 3]]],
  F: [[[4, 0], [0, 0], [0, 6]], [[0, 3], [3, 3]]],
  H: [[[0, 0], [0, 6]], [[4, 0], [4, 6]], [[0, 3], [4, 3]]],
  K: [[[0, 0], [0, 6]], [[4, 0], [0, 3.5]], [[1.2, 2.8], [4, 6]]],
  M: [[[0, 6], [0, 0], [2, 3], [4, 0], [4, 6]]],
  N: [[[0, 6], [0, 0], [4, 6], [4, 0]]],
  P: [[[0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3], [0, 3]]],
  R: [[[0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3], [0, 3]], [[2, 3], [4, 6]]],
  T: [[[0, 0], [4, 0]], [[2, 0], [2, 6]]],
  U: [[[0, 0], [0, 5], [1, 6], [3, 6], [4, 5], [4, 0]]],
  W: [[[0, 0], [1, 6], [2, 2.5], [3, 6], [4, 0]]],
  X: [[[0, 0], [4, 6]], [[4, 0], [0, 6]]],
  Y: [[[0, 0], [2, 3], [4, 0]], [[2, 3], [2, 6]]],
};
const ALPHABET = Object.keys(GLYPHS);
const LENGTH = 4;
const WIDTH = 120;
const HEIGHT = 40;
export const CAPTCHA_TTL_MS = 2 * 60_000;

const rnd = (min: number, max: number) => min + (crypto.randomInt(0, 1_000_000) / 1_000_000) * (max - min);
const f1 = (n: number) => n.toFixed(1);
const color = () => `hsl(${crypto.randomInt(0, 360)},${crypto.randomInt(45, 80)}%,${crypto.randomInt(22, 40)}%)`;

/** The SVG of a text, each character rotated, skewed, scaled and jittered on its own. */
export function captchaSvg(text: string): string {
  const parts: string[] = [`<rect width="${WIDTH}" height="${HEIGHT}" fill="#f3f6fb"/>`];
  for (let i = 0; i < 3; i++) {
    parts.push(`<path d="M${f1(rnd(0, 20))} ${f1(rnd(5, 35))} C${f1(rnd(20, 60))} ${f1(rnd(0, 40))},${f1(rnd(60, 100))} ${f1(rnd(0, 40))},${f1(rnd(100, 120))} ${f1(rnd(5, 35))}" stroke="${color()}" stroke-width="${f1(rnd(1, 2))}" fill="none" opacity="0.6"/>`);
  }
  const cell = WIDTH / (text.length + 0.5);
  [...text].forEach((ch, i) => {
    const angle = (rnd(-25, 25) * Math.PI) / 180;
    const skew = rnd(-0.3, 0.3);
    const sx = rnd(3.8, 5);
    const sy = rnd(3.8, 4.6);
    const cx = cell * (i + 0.75) + rnd(-3, 3);
    const cy = HEIGHT / 2 + rnd(-3, 3);
    const point = ([x, y]: number[]) => {
      const px = (x - 2 + skew * (y - 3)) * sx + rnd(-0.7, 0.7);
      const py = (y - 3) * sy + rnd(-0.7, 0.7);
      return `${f1(cx + px * Math.cos(angle) - py * Math.sin(angle))} ${f1(cy + px * Math.sin(angle) + py * Math.cos(angle))}`;
    };
    const d = GLYPHS[ch].map((line) => `M${line.map(point).join(' L')}`).join(' ');
    parts.push(`<path d="${d}" stroke="${color()}" stroke-width="${f1(rnd(2.2, 3))}" stroke-linecap="round" stroke-linejoin="round" fill="none"/>`);
  });
  for (let i = 0; i < 25; i++) parts.push(`<circle cx="${f1(rnd(0, WIDTH))}" cy="${f1(rnd(0, HEIGHT))}" r="${f1(rnd(0.5, 1.3))}" fill="${color()}"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${parts.join('')}</svg>`;
}

export function createCaptchas(key: Uint8Array) {
  const used = new Map<string, number>();
  const mac = (answer: string, expires: number, nonce: string) =>
    crypto.createHmac('sha256', key).update(`captcha:${answer.toUpperCase()}:${expires}:${nonce}`).digest('base64url');

  return {
    /** A new challenge: its id (to send back with the answer) and the image as a data: URL. */
    issue(now = Date.now()): { captchaId: string; image: string; answer: string } {
      const answer = Array.from({ length: LENGTH }, () => ALPHABET[crypto.randomInt(0, ALPHABET.length)]).join('');
      const expires = now + CAPTCHA_TTL_MS;
      const nonce = crypto.randomBytes(9).toString('base64url');
      const captchaId = `${expires}.${nonce}.${mac(answer, expires, nonce)}`;
      return { captchaId, image: `data:image/svg+xml;base64,${Buffer.from(captchaSvg(answer)).toString('base64')}`, answer };
    },

    /** True once per id, for the right answer (any letter case) before it expires. */
    check(captchaId: string | undefined, answer: string | undefined, now = Date.now()): boolean {
      if (!captchaId || !answer) return false;
      const [exp, nonce, sig] = captchaId.split('.');
      const expires = Number(exp);
      if (!nonce || !sig || !Number.isSafeInteger(expires) || expires < now || used.has(captchaId)) return false;
      const want = Buffer.from(mac(answer.trim(), expires, nonce));
      const got = Buffer.from(sig);
      if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return false;
      for (const [id, until] of used) if (until < now) used.delete(id);
      used.set(captchaId, expires);
      return true;
    },
  };
}
