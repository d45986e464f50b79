import type { FastifyInstance } from 'fastify';

/**
 * Scripts only from the console's own origin, never inline. Styles may be inline: antd's CSS-in-JS writes <style>
 * elements at run time (styles cannot run code). Charts draw on canvas; the map and icons use data:/blob: images.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Security headers on every response: the SPA, its assets, the API and the API docs. */
export function installSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    return payload;
  });
}
