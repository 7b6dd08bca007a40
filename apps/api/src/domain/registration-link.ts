/**
 * Signed, expiring registration links from the admin link generator (spec §2, §9).
 *
 * validityTimestamp = `<expiryEpochSeconds>.<base64url HMAC-SHA256(secret, CODE + '.' + expiry)>`:
 * compact, URL-safe, bound to one code, and unforgeable without the server secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { UNPREFIXED_LANGUAGE, invitationSearch, siteUrl } from '@velvet/validation/links';

/** A generated registration link is valid for 14 days (spec §9). */
export const REGISTRATION_LINK_VALIDITY_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

const VALUE_PATTERN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export type ValidityTimestampCheck =
  | { ok: true; expiresAt: Date }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'expired'; expiresAt: Date };

function signature(code: string, expirySeconds: number, secret: string): Buffer {
  return createHmac('sha256', secret).update(`${normalizeRegistrationCode(code)}.${expirySeconds}`).digest();
}

/** The validityTimestamp value for `code` that stops being valid at `expiresAt` (whole seconds). */
export function signValidityTimestamp(code: string, expiresAt: Date, secret: string): string {
  const expirySeconds = Math.floor(expiresAt.getTime() / 1000);
  return `${expirySeconds}.${signature(code, expirySeconds, secret).toString('base64url')}`;
}

/** Checks a validityTimestamp against `code`: tampered or unparseable is `invalid`, past is `expired`. */
export function verifyValidityTimestamp(
  code: string,
  value: string,
  secret: string,
  now: Date = new Date(),
): ValidityTimestampCheck {
  const match = VALUE_PATTERN.exec(value.trim());
  if (!match) return { ok: false, reason: 'invalid' };
  const expirySeconds = Number(match[1]);
  const given = Buffer.from(match[2] ?? '', 'base64url');
  const expected = signature(code, expirySeconds, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  const expiresAt = new Date(expirySeconds * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired', expiresAt };
  return { ok: true, expiresAt };
}

/** The link the admin generator hands out: `${publicUrl}/?rc=CODE&validityTimestamp=...`. */
export function createRegistrationLink(options: {
  publicUrl: string;
  code: string;
  secret: string;
  now?: Date;
}): { url: string; expiresAt: Date } {
  const code = normalizeRegistrationCode(options.code);
  const now = options.now ?? new Date();
  const expiresAt = new Date(Math.floor((now.getTime() + REGISTRATION_LINK_VALIDITY_DAYS * DAY_MS) / 1000) * 1000);
  const validityTimestamp = signValidityTimestamp(code, expiresAt, options.secret);
  return { url: siteUrl(options.publicUrl, UNPREFIXED_LANGUAGE, '/', invitationSearch({ code, validityTimestamp })), expiresAt };
}

/**
 * Whether `value` is a valid signed link for `code` made at or after `instant`: a link is made
 * REGISTRATION_LINK_VALIDITY_DAYS before it expires, so its expiry dates it. The fresh private
 * link an inviter gets when their code is quarantined passes; a link made before — the one that
 * leaked — does not (ADR 043).
 */
export function isLinkMadeSince(code: string, value: string | null | undefined, instant: Date, secret: string, now: Date): boolean {
  if (!value) return false;
  const link = verifyValidityTimestamp(code, value, secret, now);
  return link.ok && link.expiresAt.getTime() - REGISTRATION_LINK_VALIDITY_DAYS * DAY_MS >= instant.getTime() - 1000;
}
