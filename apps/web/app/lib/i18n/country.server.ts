/** The backend's answer for the server's part of country detection (spec §9; the order is country.ts's). */
import type { Country } from '@velvet/i18n/locales';
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
