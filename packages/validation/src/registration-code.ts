/**
 * Format rules of registration (invitation) codes, shared by the web form and the API.
 * Codes are compared trimmed and case-insensitively: they are stored upper-case.
 * Form errors are message ids of @velvet/i18n so every language gets its own text.
 */
import { z } from 'zod';

/** Longer input is rejected without a database look-up. */
export const REGISTRATION_CODE_MAX_LENGTH = 64;
export const REGISTRATION_CODE_MIN_LENGTH = 4;

/** The format of codes the club issues (after normalising): letters, digits and hyphens. */
export const REGISTRATION_CODE_PATTERN = /^[A-Z0-9-]{4,64}$/;

/** Trims and upper-cases user input: ` welcome2026 ` -> `WELCOME2026`. */
export function normalizeRegistrationCode(input: string): string {
  return input.trim().toUpperCase();
}

/** True when `input`, once normalised, has the format of an issued code. */
export function isRegistrationCodeFormat(input: string): boolean {
  return REGISTRATION_CODE_PATTERN.test(normalizeRegistrationCode(input));
}

/**
 * The access-code field of "Your code is the key" (spec §5): one message per problem —
 * missing ("Please provide an access code."), characters no code has ("Please use valid
 * characters"), or too long to be a code ("Your code is not valid.").
 */
export const accessCode = z
  .string({ error: 'validation.accessCodeMissing' })
  .trim()
  .min(1, { error: 'validation.accessCodeMissing', abort: true })
  .regex(/^[A-Za-z0-9\s-]+$/, { error: 'validation.invalidCharacters', abort: true })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().max(REGISTRATION_CODE_MAX_LENGTH, { error: 'validation.accessCodeInvalid' }));

export const accessCodeForm = z.object({ code: accessCode });
