/** The backend's answer for the server's part of country detection (spec §9; the order is country.ts's). */
import { COUNTRIES, type Country, type Locale } from '@velvet/i18n/locales';
import type { RouterContextProvider } from 'react-router';
import { callApi } from '../api/api.server.ts';
import { countryOnServer } from './country.ts';
import { getCountryDetails } from '../api/operations.ts';

/** A supported country, or undefined so the browser can still try its time zone before DE. */
export function serverCountry(request: Request, context: Readonly<RouterContextProvider>): Promise<Country | undefined> {
  return countryOnServer(
    async () => {
      const result = await callApi(getCountryDetails, {}, { request, context, timeoutMs: 3000 });
      if (!result.ok) throw new Error(`country detection via the API failed: ${result.error.kind}`);
      return result.data.countryDetails.country;
    },
    new URL(request.url).hostname,
    // A thrown answer (the 404 of an address that is no page, ADR 059) is the page's, not a failure.
    (error) => {
      if (!(error instanceof Response)) console.warn(String(error));
    },
  );
}

interface RegionNames {
  name(isoCode: string): string;
  compare(a: string, b: string): number;
}

const regions = new Map<Locale, RegionNames>();

/** A language's country names and their alphabetical order, worked out once (the loaders of invitation pages run them on every request). */
function regionNames(locale: Locale): RegionNames {
  let region = regions.get(locale);
  if (!region) {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    const order = new Intl.Collator(locale);
    const known = new Map<string, string>(COUNTRIES.map((code) => [code, names.of(code) ?? code]));
    const rank = new Map([...known].sort(([, a], [, b]) => order.compare(a, b)).map(([code], index) => [code, index]));
    const name = (isoCode: string) => known.get(isoCode) ?? names.of(isoCode) ?? isoCode;
    region = {
      name,
      compare: (a, b) => {
        const [first, second] = [rank.get(a), rank.get(b)];
        return first !== undefined && second !== undefined ? first - second : order.compare(name(a), name(b));
      },
    };
    regions.set(locale, region);
  }
  return region;
}

/**
 * A form's countries with their names in the page's language, in that language's alphabetical
 * order: named here, so the browser shows them without `Intl.DisplayNames` and sorts them without
 * `Intl.Collator`, each of which makes it list ICU's locales first, in hydration's long task (ADR 068).
 */
export function namedCountries<T extends { isoCode: string }>(options: readonly T[], locale: Locale): (T & { name: string })[] {
  const { name, compare } = regionNames(locale);
  return options.map((option) => ({ ...option, name: name(option.isoCode) })).sort((a, b) => compare(a.isoCode, b.isoCode));
}
