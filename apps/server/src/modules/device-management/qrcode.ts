import qrcode from 'qrcode-generator';

const CELL = 8;
const QUIET = 4; // quiet zone in modules, as the QR standard asks
const TEXT_LINE = 22;

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A printable label for a device: the QR code of its device code (what an installer scans to find or register it)
 * with the code and the name written below. SVG, so it prints sharp at any label size.
 */
export function deviceLabelSvg(deviceCode: string, deviceName: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(deviceCode, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  const side = (n + QUIET * 2) * CELL;
  const height = side + TEXT_LINE * 2 + 8;
  let d = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${(c + QUIET) * CELL} ${(r + QUIET) * CELL}h${CELL}v${CELL}h-${CELL}z`;
  }
  const mid = side / 2;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${height}" viewBox="0 0 ${side} ${height}">`,
    `<rect width="${side}" height="${height}" fill="#fff"/>`,
    `<path d="${d}" fill="#000" shape-rendering="crispEdges"/>`,
    `<text x="${mid}" y="${side + TEXT_LINE - 6}" text-anchor="middle" font-family="monospace" font-size="18" font-weight="bold">${escapeXml(deviceCode)}</text>`,
    `<text x="${mid}" y="${side + TEXT_LINE * 2 - 2}" text-anchor="middle" font-family="sans-serif" font-size="14">${escapeXml(deviceName.slice(0, 32))}</text>`,
    '</svg>',
  ].join('');
}
