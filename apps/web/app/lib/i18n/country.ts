/**
 * The visitor's country, spec §9, owned here: the backend's answer (the API's countryDetails:
 * the trusted edge header, else the region of the browser's languages), then the site's
 * top-level domain, then the browser's time zone, then DE. A country counts only when the
 * club serves it; a failing source is logged and the next one used. Who applies which part:
 *
 * - a form's loader: `serverCountry` (country.server.ts) asks the API, then the domain
 *   (`countryOnServer`); the form preselects `formCountry` (DE when that finds none the form
 *   offers), and when the server found none the browser tries `browserCountry` first
 *   (`useCountryChoice`);
 * - the consent data and the experiment attributes, on every page without a round trip to the
 *   API: `requestCountry`, the backend's own rule on the request's headers, then the domain, DE.
 */
import { type Country, DEFAULT_COUNTRY, countryFromAcceptLanguage, supportedCountry } from '@velvet/i18n/locales';

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
async function firstSupportedCountry(sources: CountrySource[], onError: (error: unknown) => void): Promise<Country | undefined> {
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

/** The server's part: the backend's answer, then the domain; undefined leaves the time zone to the browser. */
export function countryOnServer(backend: CountrySource, hostname: string, onError: (error: unknown) => void = () => {}): Promise<Country | undefined> {
  return firstSupportedCountry([backend, () => countryFromHostname(hostname)], onError);
}

/**
 * The browser's time zone: Temporal's answer where the browser has it (Chromium, Firefox), which
 * costs nothing; else Intl's, whose first formatter makes the browser list ICU's locales, 25–90 ms
 * of one task (ADR 068).
 */
function browserTimeZone(): string {
  const temporal = (globalThis as { Temporal?: { Now: { timeZoneId(): string } } }).Temporal;
  return temporal ? temporal.Now.timeZoneId() : Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The browser's part: the country of its time zone (asked in the browser only, by useCountryChoice). */
export function browserCountry(): Country | undefined {
  return countryFromTimeZone(browserTimeZone());
}

/** A form's preselected country: the detected one when the form offers it, else DE. */
export function formCountry(offered: readonly { isoCode: string }[], detected: string | null | undefined): string {
  return detected && offered.some((option) => option.isoCode === detected) ? detected : DEFAULT_COUNTRY;
}

/**
 * The whole order where no browser takes part and no API call may wait (the consent data and
 * the experiment attributes of every page): the backend's rule applied to the request's own
 * headers (the trusted edge header, then the Accept-Language region), then the domain, then DE.
 */
export function requestCountry(request: { url: string; headers: { get(name: string): string | null } }, trustedHeader: string | undefined): Country {
  const fromEdge = trustedHeader ? supportedCountry(request.headers.get(trustedHeader)) : undefined;
  return fromEdge ?? countryFromAcceptLanguage(request.headers.get('accept-language')) ?? countryFromHostname(new URL(request.url).hostname) ?? DEFAULT_COUNTRY;
}
