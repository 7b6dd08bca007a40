/**
 * The admins' second factor (issue 13, ADR 045): TOTP (RFC 6238, 6 digits, 30 s, the `otpauth`
 * library) with a secret sealed at rest by a key of APP_SECRET, each code good once (the last
 * accepted time step is kept), and ten single-use recovery codes stored as SHA-256.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../db/schema.ts';
import { randomCode } from '../domain/random-codes.ts';
import { deriveKey, hashToken, seal, unseal } from '../lib/tokens.ts';

const ISSUER = 'Velvet Rope';
const PERIOD = 30;
const RECOVERY_CODE_COUNT = 10;

const sealKey = (secret: string) => deriveKey(secret, 'admin-totp-secret');

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function sealTotpSecret(base32: string, appSecret: string): string {
  return seal(base32, sealKey(appSecret));
}

function totpOf(base32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(base32) });
}

/** The `otpauth://` URI an authenticator app reads (as a QR code or typed). */
export function provisioningUri(base32: string, email: string): string {
  return totpOf(base32, email).toString();
}

/**
 * The time step of a valid code (one step of clock drift either way), or null. A step at or
 * before `lastStep` was used already: null, so a code seen over a shoulder is no good twice.
 */
export function acceptedStep(sealedSecret: string, appSecret: string, code: string, lastStep: number | null, now: Date): number | null {
  const totp = totpOf(unseal(sealedSecret, sealKey(appSecret)), 'admin');
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  const step = totp.counter({ timestamp: now.getTime() }) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** `XXXX-XXXX-XXXX-XXXX` of the unambiguous alphabet, 80 random bits. */
function recoveryCode(): string {
  return `${randomCode(4)}-${randomCode(4)}-${randomCode(4)}-${randomCode(4)}`;
}

/** As typed: dashes and spaces dropped, upper-cased. */
const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/** Replaces the admin's recovery codes with ten new ones and returns them (shown once, stored hashed). */
export async function issueRecoveryCodes(trx: Kysely<Database>, adminUserId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await trx.deleteFrom('admin_recovery_codes').where('admin_user_id', '=', adminUserId).execute();
  await trx
    .insertInto('admin_recovery_codes')
    .values(
      codes.map((code) => ({
        id: randomUUID(),
        admin_user_id: adminUserId,
        code_hash: hashToken(normalizeRecoveryCode(code)),
        created_at: now.toISOString(),
        used_at: null,
      })),
    )
    .execute();
  return codes;
}

/** Uses one recovery code: true when it was the admin's and unused (it is spent now). */
export async function spendRecoveryCode(trx: Kysely<Database>, adminUserId: string, code: string, now: Date): Promise<boolean> {
  const result = await trx
    .updateTable('admin_recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('admin_user_id', '=', adminUserId)
    .where('code_hash', '=', hashToken(normalizeRecoveryCode(code)))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
