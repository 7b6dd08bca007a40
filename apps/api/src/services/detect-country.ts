/**
 * The visitor's country for Query.countryDetails (spec §7.4): the trusted header set by
 * the edge (only when TRUSTED_COUNTRY_HEADER names one), else the region of the most
 * preferred Accept-Language tag that names a served country, else null. Every failed
 * step is logged and the next fallback used (spec §8).
 */
import { countryFromAcceptLanguage, supportedCountry } from '@velvet/i18n/locales';
import type { Country } from '@velvet/i18n/locales';
import type { Logger } from '../logger.ts';

export interface DetectCountryInput {
  headers: Headers;
  /** Lower-case header name, e.g. `cf-ipcountry`; undefined when no edge sets one. */
  trustedHeader?: string | undefined;
  logger: Logger;
}

export function detectCountry({ headers, trustedHeader, logger }: DetectCountryInput): Country | null {
  if (trustedHeader) {
    const raw = headers.get(trustedHeader);
    const country = supportedCountry(raw);
    if (country) return country;
    logger.debug({ step: 'trusted-header', header: trustedHeader, value: raw?.slice(0, 8) ?? null }, 'country not detected');
  }
  const fromLanguage = countryFromAcceptLanguage(headers.get('accept-language'), (tag) =>
    logger.debug({ step: 'accept-language', tag: tag.slice(0, 35) }, 'unparseable language tag skipped'),
  );
  if (fromLanguage) return fromLanguage;
  logger.debug({ step: 'accept-language' }, 'country not detected');
  return null;
}
