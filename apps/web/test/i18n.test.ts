import { describe, expect, it } from 'vitest';
import { isSwitchableLocale, langCookie, localizedPath, resolveLocale, splitLocalePath } from '../app/lib/i18n.ts';

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
