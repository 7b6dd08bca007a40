/**
 * The one shape of an expected failure (ADR 044; the vocabulary is @velvet/validation/user-errors):
 * every payload that can refuse its input has `userErrors: [UserError!]!`, empty on success.
 */
import { isBlocking } from '@velvet/validation/registration-code';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import { USER_ERROR_CODES, codeError, fieldError, tokenError } from '@velvet/validation/user-errors';
import type { BlockingCodeError, TokenErrorCode, UserError, UserErrorCode } from '@velvet/validation/user-errors';
import type { Result } from '../lib/result.ts';
import { builder } from './builder.ts';

const UserErrorCodeEnum = builder.enumType('UserErrorCode', {
  description: 'What an expected failure is. The blocking RegistrationCodeError values keep their names.',
  values: Object.fromEntries(Object.entries(USER_ERROR_CODES).map(([code, description]) => [code, { value: code, description }])) as Record<
    UserErrorCode,
    { value: UserErrorCode; description: string }
  >,
});

export const UserErrorRef = builder.objectRef<UserError>('UserError');
UserErrorRef.implement({
  description:
    'An expected failure: the request was understood and refused, and nothing was written. Refusals before a use case runs ' +
    '(RATE_LIMITED, UNAUTHENTICATED, BAD_USER_INPUT) are GraphQL errors with extensions.code instead.',
  fields: (t) => ({
    code: t.field({ type: UserErrorCodeEnum, resolve: (e) => e.code }),
    field: t.string({
      nullable: true,
      description:
        'The input it concerns: email, gender, firstName, lastName, country, termsAccepted, language, shoppingPreferences, ' +
        'registrationCode, token or activationId; null when it concerns the request as a whole.',
      resolve: (e) => e.field,
    }),
    messageId: t.exposeString('messageId', {
      description:
        'The message a person reads, as an i18n message id of the web app (the same in every language): validation.* for ' +
        'fields (validation.legalVersion: the accepted terms or data policy are not the current ones; validation.disposableEmail: a ' +
        'disposable-address domain; validation.emailDomain: a domain that receives no mail), invitation.* for codes, ' +
        'deny.invalid for tokens, admin.login.invalid, activationError.*.',
    }),
  }),
});

/** The refusals a use case reports, in the one shape: fields, then the code, then the token. */
export function userErrorsOf(result: {
  fieldErrors?: readonly { field: string; code: string }[];
  codeErrors?: readonly RegistrationCodeError[];
  tokenError?: TokenErrorCode | null;
}): UserError[] {
  return [
    ...(result.fieldErrors ?? []).map((e) => fieldError(e.field, e.code)),
    ...(result.codeErrors ?? []).filter((e): e is BlockingCodeError => isBlocking(e)).map(codeError),
    ...(result.tokenError ? [tokenError(result.tokenError)] : []),
  ];
}

/** A payload of a use case that answers a `Result`: its value (null when refused) and its refusals. */
export type Answer<T> = { value: T | null; userErrors: UserError[] };

export const answer = <T>(result: Result<T>): Answer<T> => (result.ok ? { value: result.value, userErrors: [] } : { value: null, userErrors: result.errors });
