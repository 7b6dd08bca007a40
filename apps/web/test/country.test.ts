import { describe, expect, it } from 'vitest';
import { countryFromHostname, countryFromTimeZone, detectCountry } from '../app/lib/country.ts';

describe('country detection', () => {
  it('reads two-letter top-level domains only, and only served countries', () => {
    expect(countryFromHostname('www.velvetrope.de')).toBe('DE');
    expect(countryFromHostname('shop.velvetrope.at')).toBe('AT');
    expect(countryFromHostname('velvetrope.com')).toBeUndefined();
    expect(countryFromHostname('velvetrope.co.uk')).toBeUndefined(); // GB: not a club country
    expect(countryFromHostname('localhost')).toBeUndefined();
  });

  it('maps a time zone to its first country', () => {
    expect(countryFromTimeZone('Europe/Zurich')).toBe('CH');
    expect(countryFromTimeZone('Europe/Busingen')).toBe('DE');
    expect(countryFromTimeZone('Europe/Oslo')).toBeUndefined();
    expect(countryFromTimeZone('America/New_York')).toBeUndefined();
  });

  it('uses the backend, then the domain, then the time zone, then DE; failures fall through', async () => {
    const errors: unknown[] = [];
    const failing = () => Promise.reject(new Error('down'));
    expect(await detectCountry([failing, () => 'gb', () => countryFromHostname('x.nl'), () => 'SE'], (e) => errors.push(e))).toBe('NL');
    expect(errors).toHaveLength(1);
    expect(await detectCountry([() => null, () => undefined])).toBe('DE');
    expect(await detectCountry([() => 'fr'])).toBe('FR');
  });
});
