/**
 * The one shape of an expected failure across the API (ADR 044): every mutation payload (and
 * every query that can refuse its input, like `lobbyToken`) carries `userErrors`, a list that is
 * empty on success. Each entry says what went wrong (`code`), which input it concerns (`field`,
 * null for the request as a whole) and the message id of @velvet/i18n a person reads (`messageId`).
 *
 * What is refused before a use case runs (a rate limit, a missing admin session, a malformed
 * request) stays a GraphQL error with `extensions.code`, like an HTTP status: it can happen to any
 * operation and says nothing about the input. `registrationCodeDetails` keeps the spec's own
 * `errors`/`errorDetails` (spec §7.3).
 */
import { REGISTRATION_CODE_ERROR_TABLE, REGISTRATION_CODE_ERRORS, isBlocking } from './registration-code.ts';
import type { RegistrationCodeError } from './registration-code.ts';

/** A registration-code error that refuses the code (every one but CUSTOMIZATION_MISSING). */
export type BlockingCodeError = Exclude<RegistrationCodeError, 'CUSTOMIZATION_MISSING'>;

const BLOCKING_CODE_ERRORS = REGISTRATION_CODE_ERRORS.filter(isBlocking) as BlockingCodeError[];

/** Why a signed token (the lobby link, the social sign-up hand-over) was refused. */
const TOKEN_ERROR_TABLE = {
  TOKEN_MISSING: 'No token, or an empty one.',
  TOKEN_INVALID: 'Not a token of this kind: malformed, altered, signed with another key, or meant for another purpose.',
  TOKEN_EXPIRED: 'A genuine token past its expiry.',
  TOKEN_NO_EMAIL: 'A genuine token without a usable email address.',
} as const;
export type TokenErrorCode = keyof typeof TOKEN_ERROR_TABLE;

const OTHER_CODES = {
  INVALID_FIELD: 'A form field was refused: `field` names it, `messageId` says why (validation.*).',
  INVALID_CREDENTIALS: 'Unknown email or wrong password (not told apart).',
  ACTIVATION_LINK_UNKNOWN: 'No such activation link (invalid link).',
  ACTIVATION_LINK_UNUSABLE: 'The link expired, was already used, was replaced by a newer email, or the account cannot be activated.',
  INVALID_SECOND_FACTOR: 'The authenticator code or recovery code is not correct, or was used already.',
  SECOND_FACTOR_EXPIRED: 'The sign-in waited too long for its second factor, was completed already, or the password changed since: sign in again.',
  SECOND_FACTOR_ATTEMPTS_EXHAUSTED: 'The sign-in took five wrong codes: sign in again with the password.',
  SECOND_FACTOR_LOCKED: 'Too many wrong codes for this admin lately: the second step is locked for up to 15 minutes.',
  SECOND_FACTOR_NOT_STARTED: 'No second-factor set-up is waiting for a first code: start it again.',
  WRONG_PASSWORD: 'The current password is not correct.',
  ADMIN_NOT_FOUND: 'No such admin.',
  ADMIN_EXISTS: 'An admin with this email address exists already.',
  LAST_OWNER: 'The club keeps at least one active owner: this would leave none.',
  MEMBER_NOT_FOUND: 'No registration with this id (it may have been deleted meanwhile).',
  MEMBER_NOT_PENDING: 'The registration is not pending (already activated, or blocked): nothing to resend or free.',
  RESEND_LIMIT_REACHED: 'The person had as many activation emails this hour as anyone may send them; try again later.',
  PLACE_NOT_HELD: 'The registration holds no place on its code (its link expired, or the place was freed already).',
  NOTHING_FOUND: 'Nothing is held about this address.',
  ENTRY_NOT_FOUND: 'No such waiting-list entry or application.',
  ALREADY_INVITED: 'Invited (or selected) already: nothing was sent again.',
  ALREADY_MEMBER: 'An active member has this address already: no invitation needed.',
  REASON_NOT_FOUND: 'No such decline reason.',
  NOBODY_WAITING: 'Nobody on the waiting list is left to invite.',
  OUTBOX_NOT_FOUND: 'No such email in the outbox.',
  OUTBOX_NOT_RETRYABLE: 'The email was sent already, or is being sent right now: it is not sent again.',
  FEATURE_NOT_FOUND: 'No such feature in the features file.',
  WEBHOOK_NOT_FOUND: 'No such webhook endpoint or delivery.',
} as const;

export type UserErrorCode = keyof typeof OTHER_CODES | BlockingCodeError | TokenErrorCode;

/** Every code with its description (the GraphQL enum UserErrorCode is built from this). */
export const USER_ERROR_CODES: Readonly<Record<UserErrorCode, string>> = {
  ...OTHER_CODES,
  ...(Object.fromEntries(BLOCKING_CODE_ERRORS.map((error) => [error, REGISTRATION_CODE_ERROR_TABLE[error].description])) as Record<
    BlockingCodeError,
    string
  >),
  ...TOKEN_ERROR_TABLE,
};

export interface UserError {
  code: UserErrorCode;
  /** The input it concerns (email, country, registrationCode, token, …); null: the request as a whole. */
  field: string | null;
  /** A message id of @velvet/i18n, the same in every language. */
  messageId: string;
}

/** A refused form field; `messageId` is a validation.* id. */
export function fieldError(field: string, messageId: string): UserError {
  return { code: 'INVALID_FIELD', field, messageId };
}

/** A refused registration code, with the message a visitor who opened its link reads. */
export function codeError(error: BlockingCodeError): UserError {
  return { code: error, field: 'registrationCode', messageId: REGISTRATION_CODE_ERROR_TABLE[error].refusal.messageId };
}

/** A refused signed token: the visitor lands on the deny page of an invalid invitation. */
export function tokenError(code: TokenErrorCode): UserError {
  return { code, field: 'token', messageId: 'deny.invalid' };
}

/** The refused fields, by field, for a form (the INVALID_FIELD entries only). */
export function fieldMessages(errors: readonly UserError[]): { field: string; messageId: string }[] {
  return errors.flatMap((error) => (error.code === 'INVALID_FIELD' && error.field ? [{ field: error.field, messageId: error.messageId }] : []));
}

/** The registration-code errors among them, for verdict(). */
export function codeErrorsIn(errors: readonly { code: string }[]): RegistrationCodeError[] {
  const blocking = new Set<string>(BLOCKING_CODE_ERRORS);
  return errors.flatMap((error) => (blocking.has(error.code) ? [error.code as RegistrationCodeError] : []));
}

/** True when the signed token was refused (nothing else was checked). */
export function refusesToken(errors: readonly { code: string }[]): boolean {
  return errors.some((error) => error.code in TOKEN_ERROR_TABLE);
}
