/**
 * The visitor's country for Query.countryDetails (spec §7.4): the trusted header set by
 * the edge (only when TRUSTED_COUNTRY_HEADER names one), else the region of the most
 * preferred Accept-Language tag that names a served country, else null. Every failed
 * step is logged and the next fallback used (spec §8).
 */
import { supportedCountry } from '@velvet/i18n/locales';
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
  const fromLanguage = countryFromAcceptLanguage(headers.get('accept-language'), logger);
  if (fromLanguage) return fromLanguage;
  logger.debug({ step: 'accept-language' }, 'country not detected');
  return null;
}

/** `de-AT,de;q=0.9` -> AT. Tags are tried by q-value, then by position; unparseable ones are skipped. */
function countryFromAcceptLanguage(header: string | null, logger?: Logger): Country | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    let region: string | undefined;
    try {
      region = new Intl.Locale(tag).region;
    } catch {
      logger?.debug({ step: 'accept-language', tag: tag.slice(0, 35) }, 'unparseable language tag skipped');
      continue;
    }
    const country = supportedCountry(region);
    if (country) return country;
  }
  return null;
}
