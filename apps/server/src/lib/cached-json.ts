import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ok } from './errors.ts';

const gzip = promisify(zlib.gzip);

/** A success envelope serialized once, with its gzip form and an ETag, for large answers that many callers share. */
export interface PreparedJson {
  json: Buffer;
  gzip: Buffer;
  etag: string;
}

/** Serializes `ok(data)` and compresses it on the thread pool (a 5 MB area tree takes ~60 ms to gzip). */
export async function prepareJson(data: unknown): Promise<PreparedJson> {
  const json = Buffer.from(JSON.stringify(ok(data)));
  const etag = `"${crypto.createHash('sha1').update(json).digest('base64url')}"`;
  return { json, gzip: await gzip(json, { level: 6 }), etag };
}

/**
 * Sends a prepared answer: 304 when the browser holds this version, gzip when it accepts it. Private and revalidated
 * on every use (the answer depends on who asks and changes with the data).
 */
export function sendPreparedJson(request: FastifyRequest, reply: FastifyReply, prepared: PreparedJson) {
  reply.header('etag', prepared.etag).header('cache-control', 'private, no-cache').header('vary', 'authorization, accept-encoding');
  if (request.headers['if-none-match'] === prepared.etag) return reply.code(304).send();
  reply.header('content-type', 'application/json; charset=utf-8');
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(prepared.gzip);
  return reply.send(prepared.json);
}
