/**
 * Secrets derived from APP_SECRET, random link ids and their hashes, and sealing of the
 * few secrets the database must hold for a while (the activation id an unsent email carries).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const derivedKeys = new Map<string, Buffer>();

/**
 * A 256-bit key for one purpose, so one secret never serves two algorithms directly. Derived
 * once per secret and purpose (HKDF showed in every registration's profile, ADR 035); a copy is
 * returned, so no caller can alter the kept one.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  const id = `${purpose}\u0000${secret}`;
  let key = derivedKeys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'velvet-rope', purpose, 32));
    // A handful of purposes and one secret per process; tests use a few more secrets.
    if (derivedKeys.size >= 64) derivedKeys.clear();
    derivedKeys.set(id, key);
  }
  return Buffer.from(key);
}

/** 256 random bits, base64url (43 characters): unguessable, fits in a URL as is. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * 128 random bits, base64url (22 characters): a short reference an email link carries where the
 * worst a guess could do is small (leaving the waiting list, ADR 058) — still unguessable, still
 * stored hashed.
 */
export function randomReference(): string {
  return randomBytes(16).toString('base64url');
}

export const REFERENCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** base64url SHA-256: what the database stores instead of a link's id. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/**
 * A stable name for personal data that does not reveal it (ADR 048): HMAC-SHA256 under a key of
 * APP_SECRET for `purpose`, 128 bits as 22 base64url characters. The same value always gives the
 * same name; without the secret, nobody turns the name back into the value.
 */
export function keyedName(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', deriveKey(secret, purpose)).update(value).digest('base64url').slice(0, 22);
}

const SEAL_VERSION = 'v1';

/** AES-256-GCM: `v1.<iv>.<ciphertext>.<tag>` (base64url parts). */
export function seal(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [SEAL_VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The plaintext of `seal`; throws when the value was altered or sealed with another key. */
export function unseal(sealed: string, key: Buffer): string {
  const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || ciphertext === undefined || !tag || rest.length > 0) {
    throw new Error('not a sealed value');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
