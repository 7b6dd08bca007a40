/** The backend's answer for the server's part of country detection (spec §9; the order is country.ts's). */
import type { Country, Locale } from '@velvet/i18n/locales';
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

const regionNames = new Map<Locale, { names: Intl.DisplayNames; order: Intl.Collator }>();

/**
 * A form's countries with their names in the page's language, in that language's alphabetical
 * order: named here, so the browser shows them without `Intl.DisplayNames` and sorts them without
 * `Intl.Collator`, each of which makes it list ICU's locales first, in hydration's long task (ADR 068).
 */
export function namedCountries<T extends { isoCode: string }>(options: readonly T[], locale: Locale): (T & { name: string })[] {
  let region = regionNames.get(locale);
  if (!region) regionNames.set(locale, (region = { names: new Intl.DisplayNames([locale], { type: 'region' }), order: new Intl.Collator(locale) }));
  const { names, order } = region;
  return options.map((option) => ({ ...option, name: names.of(option.isoCode) ?? option.isoCode })).sort((a, b) => order.compare(a.name, b.name));
}
