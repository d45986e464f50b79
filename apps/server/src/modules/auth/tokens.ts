import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Db } from '../../db/index.ts';
import { storedSecret } from '../../db/secrets.ts';

/** The JWT signing key lives in the database so every server process shares it. */
export async function loadSigningKey(db: Db): Promise<Uint8Array> {
  const value = await storedSecret(db, 'jwt', () => crypto.randomBytes(48).toString('base64'));
  const key = Buffer.from(value, 'base64');
  if (key.length < 32) throw new Error('签名密钥过短或为空，拒绝启动');
  return new Uint8Array(key);
}

export interface TokenClaims {
  userId: number;
  tenantId: number;
  sessionId: string;
}

export async function signToken(key: Uint8Array, claims: TokenClaims, ttlSeconds: number): Promise<string> {
  return new SignJWT({ tid: claims.tenantId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setJti(claims.sessionId)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

export async function verifyToken(key: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    if (!payload.sub || !payload.jti) return null;
    return { userId: Number(payload.sub), tenantId: Number(payload.tid), sessionId: payload.jti };
  } catch {
    return null;
  }
}

export const newSessionId = () => crypto.randomBytes(18).toString('base64url');
