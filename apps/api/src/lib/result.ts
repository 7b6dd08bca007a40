import type { UserError } from '@velvet/validation/user-errors';

/**
 * The one shape of a use case's answer when it can fail for expected reasons (errors as data):
 * its value, or the refusals and nothing written. The API's use cases refuse with UserErrors
 * (ADR 044), which a payload carries as `userErrors` (schema/user-errors.ts `answer`); the
 * operators' CLI-only use cases refuse in sentences it prints as they are (`Result<T, string>`).
 */
export type Result<T, E = UserError> = { ok: true; value: T } | { ok: false; errors: E[] };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = <E = UserError>(...errors: E[]): Result<never, E> => ({ ok: false, errors });
