import { parseWithZod } from '@conform-to/zod/v4';
import { parseEnv } from '@velvet/config/env';
import { describe, expect, it } from 'vitest';
import { failurePath, oidcSettings, parseInvitation, prefixFor, readTransaction } from '../app/lib/registration/oidc.server.ts';
import { socialSecondStepForm } from '@velvet/validation/registration';

const base = { APP_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://club.example' };
const env = (vars: Record<string, string>) => parseEnv({ ...base, ...vars });
const oidc = { OIDC_ISSUER: 'https://accounts.example', OIDC_CLIENT_ID: 'client', OIDC_CLIENT_SECRET: 'secret' };

/** The errors of a submission that failed (undefined when it succeeded). */
const errorsOf = (submission: { status?: string; error?: unknown }) => (submission.status === 'error' ? submission.error : undefined);

function form(entries: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

const complete: [string, string][] = [
  ['gender', 'FEMALE'],
  ['country', 'at'],
  ['termsAccepted', 'on'],
  ['shoppingPreferences', 'WOMEN'],
];

describe('the social second step form', () => {
  it('needs gender, country, terms and at least one preference', () => {
    const submission = parseWithZod(form([]), { schema: socialSecondStepForm({ firstName: false, lastName: false }) });
    expect(submission.status).toBe('error');
    expect(errorsOf(submission)).toMatchObject({
      gender: ['validation.gender'],
      country: ['validation.country'],
      termsAccepted: ['validation.terms'],
      shoppingPreferences: ['validation.preferences'],
    });
  });

  it('reads one or several preferences as a list without repeats, and refuses unknown ones', () => {
    const schema = socialSecondStepForm({ firstName: false, lastName: false });
    const one = parseWithZod(form(complete), { schema });
    expect(one.status === 'success' && one.value).toMatchObject({ gender: 'FEMALE', country: 'AT', newsletter: false, shoppingPreferences: ['WOMEN'] });
    const several = parseWithZod(form([...complete, ['shoppingPreferences', 'SPORT'], ['shoppingPreferences', 'WOMEN']]), { schema });
    expect(several.status === 'success' && several.value.shoppingPreferences).toEqual(['WOMEN', 'SPORT']);
    const unknown = parseWithZod(form([...complete.slice(0, 3), ['shoppingPreferences', 'CARS']]), { schema });
    expect(unknown.status).toBe('error');
  });

  it('asks for the names only when the provider did not give them, and drops names it did not ask for', () => {
    const asked = parseWithZod(form(complete), { schema: socialSecondStepForm({ firstName: true, lastName: true }) });
    expect(errorsOf(asked)).toMatchObject({ firstName: ['validation.firstName'], lastName: ['validation.lastName'] });
    const notAsked = parseWithZod(form([...complete, ['firstName', 'Mallory'], ['lastName', '']]), {
      schema: socialSecondStepForm({ firstName: false, lastName: false }),
    });
    expect(notAsked.status).toBe('success');
    expect(notAsked.status === 'success' && notAsked.value.firstName).toBeUndefined();
    const invalid = parseWithZod(form([...complete, ['firstName', 'R2-D2'], ['lastName', 'Weiß']]), {
      schema: socialSecondStepForm({ firstName: true, lastName: true }),
    });
    expect(errorsOf(invalid)).toEqual({ firstName: ['validation.invalidCharacters'] });
  });
});

describe('social sign-up settings', () => {
  it('is off without an issuer', () => {
    expect(oidcSettings(env({}))).toBeNull();
  });

  it('needs the client id and secret with an issuer, and https in production', () => {
    expect(() => env({ OIDC_ISSUER: 'https://accounts.example' })).toThrow(/OIDC_CLIENT_ID is required with OIDC_ISSUER[\s\S]*OIDC_CLIENT_SECRET/);
    const deployment = { PUBLIC_URL: 'https://club.velvetrope.example', SMTP_URL: 'smtp://mail.example:587' };
    expect(() => env({ ...oidc, ...deployment, OIDC_ISSUER: 'http://accounts.example', NODE_ENV: 'production' })).toThrow(/OIDC_ISSUER must be an https/);
  });

  it('allows a plain-http issuer in a production start on this machine only (the e2e provider; ADR 026)', () => {
    const local = env({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:3312', NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1:3310' });
    expect(oidcSettings(local)).toMatchObject({ allowInsecureRequests: true });
  });

  it('names the provider and its button; an unknown name keeps the Google button', () => {
    expect(oidcSettings(env(oidc))).toMatchObject({ provider: 'google', button: 'google', allowInsecureRequests: false });
    expect(oidcSettings(env({ ...oidc, OIDC_PROVIDER_NAME: 'Apple' }))).toMatchObject({ provider: 'apple', button: 'apple' });
    expect(oidcSettings(env({ ...oidc, OIDC_PROVIDER_NAME: 'Club Keycloak' }))).toMatchObject({ provider: 'club-keycloak', button: 'google' });
  });

  it('allows a plain-http issuer outside production only', () => {
    expect(oidcSettings(env({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:3312' }))?.allowInsecureRequests).toBe(true);
  });
});

describe('the social sign-in transaction', () => {
  it('keeps only a well-formed invitation', () => {
    expect(parseInvitation(' welcome2026 ', '1767225600.abc_DEF-1', 'social')).toEqual({ code: 'WELCOME2026', validityTimestamp: '1767225600.abc_DEF-1', slug: 'social' });
    expect(parseInvitation('WELCOME2026', '"><script>', 'https://evil.example')).toEqual({ code: 'WELCOME2026', validityTimestamp: null, slug: null });
    for (const code of [undefined, '', '<script>', 'A'.repeat(65), 'https://evil.example']) expect(parseInvitation(code, null, null)).toBeNull();
  });

  it('reads back only a transaction of the expected shape', () => {
    const transaction = {
      state: 's'.repeat(43),
      nonce: 'n'.repeat(43),
      codeVerifier: 'v'.repeat(43),
      invitation: { code: 'WELCOME2026', validityTimestamp: null, slug: null },
      locale: 'de',
    };
    expect(readTransaction(transaction)).toEqual(transaction);
    expect(readTransaction(null)).toBeNull();
    expect(readTransaction('text')).toBeNull();
    expect(readTransaction({ ...transaction, state: 'short' })).toBeNull();
    expect(readTransaction({ ...transaction, locale: 'xx' })).toBeNull();
    expect(readTransaction({ ...transaction, invitation: { code: '<bad>' } })).toBeNull();
  });

  it('leads failures back to the landing page of the invitation, in the visitor’s language', () => {
    expect(prefixFor('en')).toBe('');
    expect(prefixFor('de')).toBe('de');
    expect(failurePath('', null)).toBe('/?social=failed');
    expect(failurePath('fr', { code: 'WELCOME2026', validityTimestamp: '17.x', slug: 'social' })).toBe(
      '/fr/social?rc=WELCOME2026&validityTimestamp=17.x&social=failed',
    );
  });
});
