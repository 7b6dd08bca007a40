/** The one shape of an expected failure (ADR 044): what the web reads out of `userErrors`. */
import { messagesFor } from '@velvet/i18n/catalogs';
import { describe, expect, it } from 'vitest';
import { REGISTRATION_CODE_ERRORS, isBlocking } from '../src/registration-code.ts';
import { USER_ERROR_CODES, codeError, codeErrorsIn, fieldError, fieldMessages, refusesToken, tokenError } from '../src/user-errors.ts';

describe('userErrors', () => {
  const answer = [
    fieldError('email', 'validation.email'),
    codeError('REGISTRATION_CODE_EXPIRED'),
    fieldError('firstName', 'validation.invalidCharacters'),
  ];

  it('gives a form its refused fields, in order, and nothing else', () => {
    expect(fieldMessages(answer)).toEqual([
      { field: 'email', messageId: 'validation.email' },
      { field: 'firstName', messageId: 'validation.invalidCharacters' },
    ]);
  });

  it('gives verdict() the code errors, and tells a refused token apart', () => {
    expect(codeErrorsIn(answer)).toEqual(['REGISTRATION_CODE_EXPIRED']);
    expect(refusesToken(answer)).toBe(false);
    expect(refusesToken([tokenError('TOKEN_EXPIRED')])).toBe(true);
    expect(codeErrorsIn([tokenError('TOKEN_INVALID'), { code: 'INVALID_CREDENTIALS' }])).toEqual([]);
  });

  it('names every blocking code error as a code, and never the informational CUSTOMIZATION_MISSING', () => {
    const codes = Object.keys(USER_ERROR_CODES);
    for (const error of REGISTRATION_CODE_ERRORS) expect(codes.includes(error), error).toBe(isBlocking(error));
  });

  it('says every refusal with a message the English catalog has', () => {
    const english = messagesFor('en') as Record<string, string>;
    const refusals = [
      ...REGISTRATION_CODE_ERRORS.filter(isBlocking).map((error) => codeError(error as Parameters<typeof codeError>[0])),
      tokenError('TOKEN_MISSING'),
    ];
    for (const refusal of refusals) expect(english[refusal.messageId], refusal.code).toEqual(expect.any(String));
  });
});
