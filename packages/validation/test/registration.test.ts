import { describe, expect, it } from 'vitest';
import { email, firstName, lastName, gender, country, termsAccepted, registrationForm, leanStep2Form } from '../src/registration.ts';
import type { z } from 'zod';

const issue = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('email', () => {
  it('trims and lower-cases', () => {
    expect(email.parse('  Jane.Doe+club@Example.COM ')).toBe('jane.doe+club@example.com');
  });
  it.each(['', '   ', 'jane', 'jane@', '@example.com', 'jane@example', 'jane doe@example.com', 'jane@@example.com', 'jane@exa_mple.com', 'jäne@example.com'])(
    'refuses %j with validation.email',
    (value) => {
      expect(issue(email, value)).toBe('validation.email');
    },
  );
  it('refuses more than 254 characters and a local part over 64', () => {
    expect(issue(email, `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`)).toBe('validation.emailTooLong');
    expect(issue(email, `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`)).toBeUndefined();
    expect(issue(email, `${'a'.repeat(60)}@${'b'.repeat(60)}.com`)).toBeUndefined();
    expect(issue(email, `${'a'.repeat(65)}@example.com`)).toBe('validation.email');
  });
});

describe('names', () => {
  it.each(['Zoë', 'Łukasz', 'O’Brien', "d'Artagnan", 'Anne-Sophie', 'J. R.', 'Åsa Ørsted', 'Γιώργος', 'Bjørn'])('accepts %s', (value) => {
    expect(issue(firstName, value)).toBeUndefined();
  });
  it('trims and collapses inner spaces', () => {
    expect(firstName.parse('  Anne   Marie ')).toBe('Anne Marie');
  });
  it('normalises combining diacritics to precomposed letters', () => {
    expect(lastName.parse('Mu\u0308ller')).toBe('Müller');
  });
  it.each([
    ['', 'validation.firstName'],
    ['   ', 'validation.firstName'],
    [undefined, 'validation.firstName'],
    ['R2D2', 'validation.invalidCharacters'],
    ['<script>', 'validation.invalidCharacters'],
    ['Ann😀', 'validation.invalidCharacters'],
    ['--', 'validation.invalidCharacters'],
    ['A'.repeat(51), 'validation.nameTooLong'],
  ])('refuses %j with %s', (value, id) => {
    expect(issue(firstName, value)).toBe(id);
  });
  it('asks for the last name with its own message', () => {
    expect(issue(lastName, '')).toBe('validation.lastName');
  });
});

describe('the other fields', () => {
  it('require a gender, a country code and accepted terms', () => {
    expect(issue(gender, undefined)).toBe('validation.gender');
    expect(issue(gender, 'OTHER')).toBe('validation.gender');
    expect(gender.parse('FEMALE')).toBe('FEMALE');
    expect(country.parse(' de ')).toBe('DE');
    expect(issue(country, '')).toBe('validation.country');
    expect(issue(country, 'DEU')).toBe('validation.country');
    expect(issue(termsAccepted, false)).toBe('validation.terms');
    expect(termsAccepted.parse(true)).toBe(true);
  });
  it('make up the forms', () => {
    const form = registrationForm.parse({
      email: 'A@B.CO',
      gender: 'MALE',
      firstName: 'Max',
      lastName: 'Muster',
      country: 'at',
      termsAccepted: true,
    });
    expect(form).toEqual({ email: 'a@b.co', gender: 'MALE', firstName: 'Max', lastName: 'Muster', country: 'AT', newsletter: false, termsAccepted: true });
    expect(Object.keys(leanStep2Form.shape)).toEqual(['gender', 'firstName', 'lastName']);
  });
});
