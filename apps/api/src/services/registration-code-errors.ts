/** Why a registration code cannot be used (spec §8), reported as data, never as exceptions. */
export const REGISTRATION_CODE_ERRORS = [
  'CUSTOMIZATION_MISSING',
  'INVITER_INVALID',
  'REFERER_INVALID',
  'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS',
  'REGISTRATION_CODE_INVALID',
  'REGISTRATION_CODE_NO_BALANCE_LEFT',
  'REGISTRATION_CODE_EXPIRED',
  'REGISTRATION_TIMESTAMP_MISSING',
] as const;
export type RegistrationCodeError = (typeof REGISTRATION_CODE_ERRORS)[number];

/** Only CUSTOMIZATION_MISSING is informational: every other error makes the code unusable. */
export const NON_BLOCKING_ERRORS: ReadonlySet<RegistrationCodeError> = new Set(['CUSTOMIZATION_MISSING']);

export function isBlocking(error: RegistrationCodeError): boolean {
  return !NON_BLOCKING_ERRORS.has(error);
}
