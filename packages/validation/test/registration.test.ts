import { describe, expect, it } from 'vitest';
import { email, firstName, lastName, gender, country, termsAccepted, registrationForm, leanStep2Form } from '../src/registration.ts';
import type { z } from 'zod';
import { memberLookupForm } from '../src/admin-members.ts';
import { asciiEmail } from '../src/email-domain.ts';

const issue = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('email', () => {
  it('trims and lower-cases', () => {
    expect(email.parse('  Jane.Doe+club@Example.COM ')).toBe('jane.doe+club@example.com');
  });
  it.each(['', '   ', 'jane', 'jane@', '@example.com', 'jane@example', 'jane doe@example.com', 'jane@@example.com', 'jane@exa_mple.com', 'jäne@', 'jane@müller', 'jane@ex%41mple.com', 'jane@1.2.3.4', 'jane@-müller.de', 'jane@💩.la'])(
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

  describe('internationalised addresses (issue 20 §3, ADR 042)', () => {
    it.each([
      ['anna@müller.de', 'anna@xn--mller-kva.de'],
      [' Anna@MÜLLER.DE ', 'anna@xn--mller-kva.de'],
      ['anna@mu\u0308ller.de', 'anna@xn--mller-kva.de'],
      ['anna@xn--mller-kva.de', 'anna@xn--mller-kva.de'],
      ['jan@żółw.pl', 'jan@xn--w-uga1v8h.pl'],
      ['info@straße.de', 'info@xn--strae-oqa.de'],
      ['ivan@пример.рф', 'ivan@xn--e1afmkfd.xn--p1ai'],
      ['li@例え。テスト', 'li@xn--r8jz45g.xn--zckzah'],
    ])('accepts %j as the address mail servers take, %j', (typed, ascii) => {
      expect(email.parse(typed)).toBe(ascii);
    });

    it.each(['müller@example.com', 'Jäne.Doe@example.com', 'пётр@example.com', '用户@例子.广告', 'zoë@müller.de'])(
      'refuses %j, whose letters before the @ need SMTPUTF8, saying so',
      (value) => {
        expect(issue(email, value)).toBe('validation.emailInternationalLocalPart');
      },
    );

    it('says the general message when more than the letters before the @ is wrong', () => {
      expect(issue(email, 'müller@')).toBe('validation.email');
      expect(issue(email, 'müller@example')).toBe('validation.email');
      expect(issue(email, 'mül ler@example.com')).toBe('validation.email');
    });

    it('is looked up in the console, and hashed for the funnel, in the form that is stored', () => {
      expect(memberLookupForm.parse({ email: 'Anna@Müller.de' })).toEqual({ email: 'anna@xn--mller-kva.de' });
      expect(asciiEmail('anna@müller.de')).toBe('anna@xn--mller-kva.de');
      expect(asciiEmail('anna@xn--mller-kva.de')).toBe('anna@xn--mller-kva.de');
      expect(asciiEmail('not an address')).toBe('not an address');
    });

    it('counts the length of the address as sent: a domain that grows past 254 in ASCII is too long', () => {
      const label = 'ñaöbücßdéeèfêgëhïiîjôkœlùmûnçoåpøq';
      const typed = `${'a'.repeat(40)}@${[label, label, label, label, label].join('.')}.de`;
      expect(typed.length).toBeLessThanOrEqual(254);
      expect(issue(email, typed)).toBe('validation.emailTooLong');
    });
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
