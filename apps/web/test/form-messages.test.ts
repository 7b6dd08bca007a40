/**
 * What a visitor reads under a field, for any input at all: at most one message per field,
 * and always one of the catalogs' messages (never Zod's English "Invalid input: …"). The
 * forms are parsed exactly as the pages parse them (Conform's parseWithZod, with its
 * coercion of empty strings), with inputs fast-check generates: blanks, whitespace, letters
 * of every script, symbols, markup, very long values, missing fields.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { catalogs } from '@velvet/i18n/catalogs';
import { adminLoginForm } from '@velvet/validation/admin';
import { accessCodeForm } from '@velvet/validation/registration-code-form';
import { emailForm, leanStep1Form, leanStep2Form, registrationForm } from '@velvet/validation/registration';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { socialSecondStepForm } from '@velvet/validation/registration';

const text = fc.oneof(
  fc.constantFrom('', ' ', '   ', '\t\n', '\u00a0', 'Zoë', 'Łukasiewicz-Öström', '<script>', 'a@b.example', 'WELCOME 2026', '=1+1'),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ minLength: 240, maxLength: 400 }),
  fc.emailAddress(),
);

/** A form post: each field absent, or one of the generated values (checkboxes: 'on' too). */
function posts(fields: readonly string[]) {
  return fc.record(Object.fromEntries(fields.map((field) => [field, fc.option(fc.oneof(text, fc.constant('on')), { nil: undefined })])));
}

function formData(values: Record<string, string | undefined>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) data.append(key, value);
  return data;
}

const FORMS: [string, z.ZodType, readonly string[]][] = [
  ['registration (one step)', registrationForm, ['email', 'gender', 'firstName', 'lastName', 'country', 'newsletter', 'termsAccepted']],
  ['lean step 1', leanStep1Form, ['email', 'country', 'newsletter', 'termsAccepted']],
  ['lean step 2', leanStep2Form, ['gender', 'firstName', 'lastName']],
  ['social second step', socialSecondStepForm({ firstName: true, lastName: true }), ['gender', 'firstName', 'lastName', 'country', 'newsletter', 'termsAccepted', 'shoppingPreferences']],
  ['access code', accessCodeForm, ['code']],
  ['admin sign-in', adminLoginForm, ['email', 'password']],
  ['email only (application, waiting list, product share)', emailForm, ['email']],
];

const MESSAGE_IDS = new Set(Object.keys(catalogs.en));

describe.each(FORMS)('%s form', (_name, schema, fields) => {
  it('says at most one thing per field, always a catalog message', () => {
    fc.assert(
      fc.property(posts(fields), (values) => {
        for (const [field, messages] of Object.entries(errorsOf(schema, values))) {
          expect(messages?.length ?? 0, `${field}: ${JSON.stringify(messages)}`).toBeLessThanOrEqual(1);
          for (const id of messages ?? []) expect(MESSAGE_IDS, `${field}: ${id}`).toContain(id);
        }
      }),
      { numRuns: 300 },
    );
  });
});

function errorsOf(schema: z.ZodType, values: Record<string, string | undefined>): Record<string, string[] | null> {
  const submission = parseWithZod(formData(values), { schema });
  return submission.status === 'error' ? (submission.error ?? {}) : {};
}

describe('the messages of spec §5, for what visitors really type', () => {
  it('a name made of spaces is a missing name', () => {
    const errors = errorsOf(registrationForm, { firstName: '   ', lastName: ' \t ' });
    expect(errors.firstName).toEqual(['validation.firstName']);
    expect(errors.lastName).toEqual(['validation.lastName']);
  });

  it('a blank access code is missing, and only missing', () => {
    expect(errorsOf(accessCodeForm, { code: '   ' }).code).toEqual(['validation.accessCodeMissing']);
  });

  it('markup in the access code is a character no code has', () => {
    expect(errorsOf(accessCodeForm, { code: '<script>' }).code).toEqual(['validation.invalidCharacters']);
  });

  it('a code read from paper with a space is still the code', () => {
    expect(parseWithZod(formData({ code: ' welcome 2026 ' }), { schema: accessCodeForm }).payload).toBeDefined();
    const submission = parseWithZod(formData({ code: ' welcome 2026 ' }), { schema: accessCodeForm });
    expect(submission.status === 'success' && submission.value.code).toBe('welcome2026');
  });

  it('a too long email address is too long, and only that', () => {
    const long = `${'a'.repeat(60)}@${'b'.repeat(200)}.example`;
    expect(errorsOf(emailForm, { email: long }).email).toEqual(['validation.emailTooLong']);
  });

  it('an address with letters beyond ASCII before the @ says why, on every form that takes one; a domain in any script is taken', () => {
    for (const [name, schema] of [['registration', registrationForm], ['lean step 1', leanStep1Form], ['email only', emailForm]] as const) {
      expect(errorsOf(schema, { email: 'müller@example.com' }).email, name).toEqual(['validation.emailInternationalLocalPart']);
      expect(errorsOf(schema, { email: 'anna@müller.de' }).email, name).toBeUndefined();
    }
  });

  it('an empty admin sign-in is one problem', () => {
    expect(errorsOf(adminLoginForm, {})).toEqual({ '': ['admin.login.missing'] });
    expect(errorsOf(adminLoginForm, { email: 'admin@example.com' })).toEqual({ password: ['admin.login.passwordMissing'] });
    expect(errorsOf(adminLoginForm, { email: 'admin', password: 'secret' })).toEqual({ email: ['validation.email'] });
  });
});
