/**
 * Password hashing with scrypt (node:crypto), encoded `scrypt$N$r$p$salt$hash`
 * (salt and hash base64url) so parameters can be raised later without breaking old hashes.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/** Upper bound for parameters read from a stored hash (guards against a hostile row). */
const MAX_N = 2 ** 20;

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const maxmem = (n: number, r: number) => 256 * n * r;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scryptAsync(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: maxmem(N, R) });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time check of `password` against an encoded hash; false for any malformed hash. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash, ...rest] = encoded.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || !salt || !hash) return false;
  const cost = Number(n);
  const blockSize = Number(r);
  const parallel = Number(p);
  if (![cost, blockSize, parallel].every(Number.isSafeInteger) || cost > MAX_N || cost < 2 || blockSize < 1 || parallel < 1) {
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length === 0) return false;
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: cost,
    r: blockSize,
    p: parallel,
    maxmem: maxmem(cost, blockSize),
  });
  return timingSafeEqual(actual, expected);
}
