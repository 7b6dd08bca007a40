import { describe, expect, it } from 'vitest';
import { canonicalPath } from '../app/lib/i18n/canonical-path.server.ts';
import { encodedPath, isSwitchableLocale, langCookie, localeCookie, localizedPath, lowercasePrefix, readablePath, resolveLocale, splitLocalePath } from '../app/lib/i18n/i18n.ts';

describe('language of a request', () => {
  it('takes the prefix of the path first', () => {
    expect(resolveLocale({ pathname: '/de/about-us', cookieHeader: 'lang=fr', langParam: 'it', acceptLanguage: 'sv' })).toEqual({ locale: 'de', prefix: 'de' });
  });

  it('on an unprefixed path follows cookie, then ?lang, then browser languages, then en', () => {
    expect(resolveLocale({ pathname: '/', cookieHeader: 'a=1; lang=fr', langParam: 'it', acceptLanguage: 'sv' }).locale).toBe('fr');
    expect(resolveLocale({ pathname: '/', cookieHeader: 'lang=xx', langParam: 'IT', acceptLanguage: 'sv' }).locale).toBe('it');
    expect(resolveLocale({ pathname: '/', langParam: 'es', acceptLanguage: 'es-ES, nl;q=0.8, de;q=0.9' }).locale).toBe('de');
    expect(resolveLocale({ pathname: '/stores', acceptLanguage: 'ja' })).toEqual({ locale: 'en', prefix: '' });
  });

  it('does not mistake a two-letter page for a prefix', () => {
    expect(splitLocalePath('/dea')).toEqual({ prefix: '', rest: '/dea' });
    expect(splitLocalePath('/es/x')).toEqual({ prefix: '', rest: '/es/x' });
    expect(splitLocalePath('/pl')).toEqual({ prefix: 'pl', rest: '/' });
  });

  it('builds the same page in another language, keeping and encoding the query', () => {
    expect(localizedPath('de', '/about-us', '?a=1&next=https://shop.example/x?y=z')).toBe('/de/about-us?a=1&next=https%3A%2F%2Fshop.example%2Fx%3Fy%3Dz');
    expect(localizedPath('', '/', '')).toBe('/');
    expect(localizedPath('sv', '/', '?rc=ABC', '#faq')).toBe('/sv?rc=ABC#faq');
  });

  it('writes the lang cookie as the spec says', () => {
    expect(langCookie('nl', false)).toBe('lang=nl; Max-Age=2147483647; Path=/; SameSite=Lax');
    expect(langCookie('nl', true)).toContain('; Secure');
  });

  it('writes the 365-day locale cookie of spec §9, and a chosen language outranks the last prefixed page', () => {
    expect(localeCookie('pl', false)).toBe('locale=pl; Max-Age=31536000; Path=/; SameSite=Lax');
    expect(localeCookie('pl', true)).toBe('locale=pl; Max-Age=31536000; Path=/; SameSite=Lax; Secure');
    expect(resolveLocale({ pathname: '/', cookieHeader: 'lang=fr; locale=sv', acceptLanguage: 'de' }).locale).toBe('sv');
    expect(resolveLocale({ pathname: '/', cookieHeader: 'locale=xx; lang=fr', acceptLanguage: 'de' }).locale).toBe('fr');
    expect(resolveLocale({ pathname: '/de/about-us', cookieHeader: 'locale=sv' }).locale).toBe('de');
  });

  it('switches only to the seven languages that are available', () => {
    expect(isSwitchableLocale('pl')).toBe(true);
    expect(isSwitchableLocale('es')).toBe(false);
    expect(isSwitchableLocale('sv', ['en', 'de'])).toBe(false);
  });
});

describe('data requests', () => {
  it('are read as the page they load data for', () => {
    expect(resolveLocale({ pathname: '/de.data' })).toEqual({ locale: 'de', prefix: 'de' });
    expect(resolveLocale({ pathname: '/fr/about-us.data' })).toEqual({ locale: 'fr', prefix: 'fr' });
    expect(splitLocalePath('/_root.data')).toEqual({ prefix: '', rest: '/' });
  });
});

describe('paths as people read them and as links carry them', () => {
  it('reads a path decoded, and leaves one that cannot be decoded as sent', () => {
    expect(readablePath('/de/%C3%BCber-uns')).toBe('/de/über-uns');
    expect(readablePath('/de/%ZZ')).toBe('/de/%ZZ');
    expect(readablePath('/de/vip.data')).toBe('/de/vip');
  });

  it('encodes each segment once, from either form', () => {
    expect(encodedPath('/über-uns')).toBe('/%C3%BCber-uns');
    expect(encodedPath('/%C3%BCber-uns')).toBe('/%C3%BCber-uns');
    expect(encodedPath('/%')).toBe('/%25');
    expect(encodedPath('/about-us')).toBe('/about-us');
  });

  it('lower-cases a language prefix written in capitals, and only that', () => {
    expect(lowercasePrefix('/DE')).toBe('/de');
    expect(lowercasePrefix('/Fr/about-us')).toBe('/fr/about-us');
    expect(lowercasePrefix('/de/about-us')).toBeNull();
    expect(lowercasePrefix('/ES/x')).toBeNull();
    expect(lowercasePrefix('/DEA')).toBeNull();
  });

  it('gives every page one address whatever the capitals it was asked with (issue 20 §3)', () => {
    expect(canonicalPath('/REGISTRATION/DENY')).toBe('/registration/deny');
    expect(canonicalPath('/DE/About-Us')).toBe('/de/about-us');
    expect(canonicalPath('/pl/Registration/FormStarted')).toBe('/pl/registration/formstarted');
    // The spec's own capital stays: the activation error page is registration/activateaccountError.
    expect(canonicalPath('/fr/registration/ACTIVATEACCOUNTERROR')).toBe('/fr/registration/activateaccountError');
    expect(canonicalPath('/registration/activateaccountError')).toBeNull();
    expect(canonicalPath('/VIP')).toBe('/vip');
    expect(canonicalPath('/DE')).toBe('/de');
    // Already the address, or no page's: as typed (the 404 names it), but for the language prefix.
    for (const path of ['/', '/de', '/de/about-us', '/No-Such-Page', '/de/admin/codes/ABC123']) expect(canonicalPath(path)).toBeNull();
    expect(canonicalPath('/SV/No-Such-Page')).toBe('/sv/No-Such-Page');
    expect(canonicalPath('/DE/about-us.data')).toBe('/de/about-us.data');
  });
});
