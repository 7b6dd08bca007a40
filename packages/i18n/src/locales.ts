/** The seven languages of the club; English is also served without a prefix. */
export const LOCALES = ['en', 'de', 'fr', 'it', 'nl', 'pl', 'sv'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/**
 * The club's time zone (ADR 021): its calendar days — when a promotion starts and ends, the
 * date an email or a page prints — are Berlin days, the same instant for every member.
 */
export const CLUB_TIME_ZONE = 'Europe/Berlin';

/** URL prefixes: '' is the unprefixed default variant. Eight in all. */
export const PREFIXES = ['', ...LOCALES] as const;
export type Prefix = (typeof PREFIXES)[number];

/** Names of the languages in their own language, for the language selector. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  sv: 'Svenska',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * An Accept-Language header's tags, most preferred first: by q-value, then by position; tags
 * with q=0 and empty ones left out. `maxParts`: only that many of the header's entries are read.
 */
function rankedLanguageTags(header: string, maxParts = Infinity): string[] {
  return header
    .split(',')
    .slice(0, maxParts)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/** Picks the first supported language from an Accept-Language header, honouring q-values. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  for (const tag of rankedLanguageTags(header)) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return undefined;
}

/** The 27 countries offered in the country selector (spec §3). */
export const COUNTRIES = [
  'AT', 'BE', 'BG', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR',
  'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
] as const;
export type Country = (typeof COUNTRIES)[number];
export const DEFAULT_COUNTRY: Country = 'DE';

function isCountry(value: unknown): value is Country {
  return typeof value === 'string' && (COUNTRIES as readonly string[]).includes(value);
}

/** Upper-cases and checks a country code; undefined when it is not one the club serves. */
export function supportedCountry(value: string | null | undefined): Country | undefined {
  const upper = value?.trim().toUpperCase();
  return isCountry(upper) ? upper : undefined;
}

/**
 * The region of the most preferred Accept-Language tag that names a served country
 * (`de-AT,de;q=0.9` → AT), of the header's first 20 entries; a tag that does not parse is
 * skipped (and passed to `onUnparseable`).
 */
export function countryFromAcceptLanguage(header: string | null | undefined, onUnparseable?: (tag: string) => void): Country | undefined {
  if (!header) return undefined;
  for (const tag of rankedLanguageTags(header, 20)) {
    if (tag === '*') continue;
    let region: string | undefined;
    try {
      region = new Intl.Locale(tag).region;
    } catch {
      onUnparseable?.(tag);
      continue;
    }
    const country = supportedCountry(region);
    if (country) return country;
  }
  return undefined;
}
