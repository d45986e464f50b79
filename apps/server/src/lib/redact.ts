/** Names whose values are credentials: never written to the gate log or the server log. */
const SECRET_NAME = /token|password|passw|pwd|secret|key|captcha/i;

/** A request URI with the value of every credential-like query parameter replaced by `***`. */
export function redactUri(uri: string): string {
  const q = uri.indexOf('?');
  if (q < 0) return uri;
  const params = uri.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // a malformed escape is logged as sent
    }
    return eq >= 0 && SECRET_NAME.test(decoded) ? `${name}=***` : pair;
  });
  return `${uri.slice(0, q)}?${params.join('&')}`;
}

/** A broker or database URL with the password of its user info replaced by `***` (for banners and logs). */
export function redactUrlPassword(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
