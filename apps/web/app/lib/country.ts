/**
 * The visitor's country (spec §9): the API's answer (trusted CDN header or browser
 * region), then the site's top-level domain, then the browser's time zone, then DE.
 * A country is applied only when the club serves it; a failing source is logged and
 * the next one used.
 */
import { type Country, DEFAULT_COUNTRY, supportedCountry } from '@velvet/i18n/locales';

/** Top-level domain of a host name: two-letter ccTLDs only (uk means GB); none for .com. */
export function countryFromHostname(hostname: string): Country | undefined {
  const tld = hostname.toLowerCase().split('.').pop() ?? '';
  if (!/^[a-z]{2}$/.test(tld)) return undefined;
  return supportedCountry(tld === 'uk' ? 'GB' : tld);
}

/**
 * IANA time zones of the club's region with the first country the tz database lists
 * for them (zone1970.tab), so Europe/Zurich answers CH and Europe/Berlin DE.
 */
const TIME_ZONE_COUNTRIES: Record<string, string> = {
  'Europe/Vienna': 'AT', 'Europe/Brussels': 'BE', 'Europe/Sofia': 'BG', 'Europe/Zurich': 'CH',
  'Asia/Nicosia': 'CY', 'Asia/Famagusta': 'CY', 'Europe/Nicosia': 'CY', 'Europe/Prague': 'CZ',
  'Europe/Berlin': 'DE', 'Europe/Busingen': 'DE', 'Europe/Copenhagen': 'DK', 'Europe/Tallinn': 'EE',
  'Europe/Madrid': 'ES', 'Atlantic/Canary': 'ES', 'Africa/Ceuta': 'ES', 'Europe/Helsinki': 'FI',
  'Europe/Mariehamn': 'FI', 'Europe/Paris': 'FR', 'Europe/Athens': 'GR', 'Europe/Zagreb': 'HR',
  'Europe/Budapest': 'HU', 'Europe/Dublin': 'IE', 'Europe/Rome': 'IT', 'Europe/Vilnius': 'LT',
  'Europe/Luxembourg': 'LU', 'Europe/Riga': 'LV', 'Europe/Amsterdam': 'NL', 'Europe/Warsaw': 'PL',
  'Europe/Lisbon': 'PT', 'Atlantic/Madeira': 'PT', 'Atlantic/Azores': 'PT', 'Europe/Bucharest': 'RO',
  'Europe/Stockholm': 'SE', 'Europe/Ljubljana': 'SI', 'Europe/Bratislava': 'SK',
  'Europe/London': 'GB', 'Europe/Oslo': 'NO',
};

export function countryFromTimeZone(timeZone: string | undefined): Country | undefined {
  return timeZone ? supportedCountry(TIME_ZONE_COUNTRIES[timeZone]) : undefined;
}

export type CountrySource = () => string | null | undefined | Promise<string | null | undefined>;

/** Tries each source in order; the first supported country wins (undefined when none does). */
export async function firstSupportedCountry(sources: CountrySource[], onError: (error: unknown) => void = () => {}): Promise<Country | undefined> {
  for (const source of sources) {
    try {
      const country = supportedCountry(await source());
      if (country) return country;
    } catch (error) {
      onError(error);
    }
  }
  return undefined;
}

/** As firstSupportedCountry, with the spec's last resort: DE. */
export async function detectCountry(sources: CountrySource[], onError?: (error: unknown) => void): Promise<Country> {
  return (await firstSupportedCountry(sources, onError)) ?? DEFAULT_COUNTRY;
}
