import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { storedSecret } from '../../db/secrets.ts';

/** A device secret: 32 random bytes, base64url. Shown to the operator once; only its hash is stored. */
export function newSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** sha256 is enough here: the secret is random and high-entropy, unlike a user password. */
export function hashSecret(secret: string | Buffer): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

export function secretMatches(hash: string, password: string | Buffer): boolean {
  const a = Buffer.from(hashSecret(password), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

const SIM_KEY = 'simulator_device_key';

/**
 * The key from which simulated devices derive their secrets (HMAC of the device code), kept in the database so the
 * in-process simulator and `./kelvin simulate` in another process both find it. Device rows keep only the hash.
 */
export async function simulatorKey(db: Db): Promise<Buffer> {
  return Buffer.from(await storedSecret(db, SIM_KEY, () => crypto.randomBytes(32).toString('hex')), 'hex');
}

export function simulatorSecret(key: Buffer, deviceCode: string): string {
  return crypto.createHmac('sha256', key).update(deviceCode).digest('base64url');
}
