import type { FastifyReply } from 'fastify';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Headers of a file download (design §5): a UTF-8 file name (RFC 5987) plus an ASCII fallback, always as an
 * attachment and never sniffed, so uploaded content cannot run in the console's origin.
 */
export function asDownload(reply: FastifyReply, fileName: string, contentType = 'application/octet-stream') {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store');
}
