import { describe, expect, it } from 'vitest';
import { countryFromHostname, countryFromTimeZone, countryOnServer, formCountry, requestCountry } from '../app/lib/i18n/country.ts';
import { namedCountries } from '../app/lib/i18n/country.server.ts';

describe('country detection (spec §9: backend, domain, time zone, DE)', () => {
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

  it('on the server: the backend, then the domain; a failing backend falls through; none leaves the time zone to the browser', async () => {
    const errors: unknown[] = [];
    const failing = () => Promise.reject(new Error('down'));
    expect(await countryOnServer(failing, 'x.nl', (e) => errors.push(e))).toBe('NL');
    expect(errors).toHaveLength(1);
    expect(await countryOnServer(() => 'gb', 'velvetrope.se')).toBe('SE'); // GB: not served
    expect(await countryOnServer(() => 'fr', 'velvetrope.se')).toBe('FR');
    expect(await countryOnServer(() => null, 'velvetrope.com')).toBeUndefined();
  });

  it('a form preselects the detected country when it offers it, else DE', () => {
    const offered = [{ isoCode: 'AT' }, { isoCode: 'DE' }];
    expect(formCountry(offered, 'AT')).toBe('AT');
    expect(formCountry(offered, 'FR')).toBe('DE');
    expect(formCountry(offered, undefined)).toBe('DE');
  });

  it('without a browser or an API call: the edge header, the languages region, the domain, then DE', () => {
    const request = (url: string, headers: Record<string, string>) => new Request(url, { headers });
    expect(requestCountry(request('https://club.example.nl/', { 'cf-ipcountry': 'at', 'accept-language': 'fr-BE' }), 'cf-ipcountry')).toBe('AT');
    // Without a trusted header the edge's is not believed; the most preferred region a served country wins.
    expect(requestCountry(request('https://club.example.nl/', { 'cf-ipcountry': 'at', 'accept-language': 'en-US,fr-BE;q=0.8' }), undefined)).toBe('BE');
    expect(requestCountry(request('https://club.example.nl/', { 'accept-language': 'de-CH;q=0.5,fr-FR' }), undefined)).toBe('FR');
    expect(requestCountry(request('https://club.example.nl/', { 'accept-language': 'en, *' }), undefined)).toBe('NL');
    expect(requestCountry(request('https://club.example.com/', {}), undefined)).toBe('DE');
  });

  it('names a form’s countries in the page’s language and orders them as that language sorts', () => {
    const offered = ['PL', 'AT', 'DE', 'NL'].map((isoCode) => ({ isoCode, termsPkString: `terms-${isoCode}` }));
    // German files Ö with O; Swedish puts it after Z.
    expect(namedCountries(offered, 'de').map((c) => c.name)).toEqual(['Deutschland', 'Niederlande', 'Österreich', 'Polen']);
    expect(namedCountries(offered, 'sv').map((c) => c.name)).toEqual(['Nederländerna', 'Polen', 'Tyskland', 'Österrike']);
    expect(namedCountries(offered, 'de').find((c) => c.isoCode === 'AT')).toEqual({ isoCode: 'AT', termsPkString: 'terms-AT', name: 'Österreich' });
    // A country beyond the club's takes its place in the alphabet too.
    expect(namedCountries([...offered, { isoCode: 'NO', termsPkString: 'terms-NO' }], 'de').map((c) => c.name)).toEqual(['Deutschland', 'Niederlande', 'Norwegen', 'Österreich', 'Polen']);
  });
});
