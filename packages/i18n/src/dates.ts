/**
 * What `Intl` gets wrong in a language's dates, put right after formatting, for the site and the
 * emails alike. French writes the first day of a month as an ordinal: "le 1er décembre", "1er déc.
 * 2026"; ICU prints "1 décembre" and has no pattern for the ordinal (docs/i18n/fr.md).
 */
import type { Locale } from './locales.ts';

/** "1" before a French month, long or abbreviated as ICU writes them, not after a digit ("11", "21"). */
const FRENCH_FIRST_OF_MONTH =
  /(^|[^\d])1([ \u00a0\u202f])(janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|janv\.|févr\.|avr\.|juil\.|sept\.|oct\.|nov\.|déc\.)/g;

/** `text` with its dates written as the language writes them. */
export function fixDates(locale: Locale, text: string): string {
  return locale === 'fr' ? text.replace(FRENCH_FIRST_OF_MONTH, '$11er$2$3') : text;
}

/** The parts of what formatMessage gives (a string, or strings and elements with rich text). */
function fixParts<T>(locale: Locale, formatted: T): T {
  if (typeof formatted === 'string') return fixDates(locale, formatted) as T;
  if (Array.isArray(formatted)) return formatted.map((part: unknown) => (typeof part === 'string' ? fixDates(locale, part) : part)) as T;
  return formatted;
}

interface DateFormatting {
  locale: string;
  formatMessage: (...args: never[]) => unknown;
  $t: (...args: never[]) => unknown;
  formatDate: (...args: never[]) => string;
}

/**
 * A FormatJS instance whose messages and dates follow `fixDates`: in French, the same instance
 * with those three formatters wrapped; in the other languages, `intl` itself.
 */
export function withLocalDates<T extends DateFormatting>(locale: Locale, intl: T): T {
  if (locale !== 'fr') return intl;
  const { formatMessage, formatDate } = intl;
  const message = ((...args: Parameters<T['formatMessage']>) => fixParts(locale, formatMessage(...args))) as T['formatMessage'];
  return {
    ...intl,
    formatMessage: message,
    $t: message as unknown as T['$t'],
    formatDate: ((...args: Parameters<T['formatDate']>) => fixDates(locale, formatDate(...args))) as T['formatDate'],
  };
}
