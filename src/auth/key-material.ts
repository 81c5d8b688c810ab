// The text of an API key: `atl_<keyId>_<secret>`. keyId (64 random bits, hex) finds the row; the
// secret (256 random bits, base64url) proves possession. Only SHA-256(secret) is stored.
//
// Why a fast hash and not bcrypt/scrypt: those slow down guessing of low-entropy passwords. A
// secret of 256 random bits cannot be guessed whatever the hash costs, so a slow hash would only
// add latency to every request; SHA-256 keeps a stolen table useless and verification cheap.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'atl_';
const KEY_PATTERN = /^atl_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface KeyMaterial {
  keyId: string;
  secret: string;
  /** The whole key as the client sends it. */
  token: string;
}

export function generateKey(): KeyMaterial {
  const keyId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { keyId, secret, token: `${KEY_PREFIX}${keyId}_${secret}` };
}

/** The parts of a well-formed key, or null. */
export function parseKey(token: string): { keyId: string; secret: string } | null {
  const m = KEY_PATTERN.exec(token);
  return m ? { keyId: m[1], secret: m[2] } : null;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares in constant time (both sides are 64 hex characters). */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
