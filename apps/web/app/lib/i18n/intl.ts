/**
 * One cached FormatJS instance per language, for meta functions, loaders and components. Dates
 * are shown in the club's time zone (ADR 021), as in emails: the server and every visitor's
 * browser print the same day ("Valid until 9 December 2026"), so the page hydrates without a
 * mismatch whatever the server's or the visitor's own time zone.
 */
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { withLocalDates } from '@velvet/i18n/dates';
import { CLUB_TIME_ZONE, type Locale } from '@velvet/i18n/locales';
import type { Messages } from './messages.ts';

const cache = createIntlCache();
const instances = new Map<string, IntlShape>();

export function getIntl(locale: Locale, messages: Messages, onMissing?: () => boolean): IntlShape {
  const existing = instances.get(locale);
  if (existing && existing.messages === messages) return existing;
  const intl = pageIntl(locale, messages, onMissing);
  instances.set(locale, intl);
  return intl;
}

/**
 * An instance of its own (the server's render of one page records the ids it formats, ADR 038).
 * `onMissing`: true when a missing message is expected for now (the browser is still fetching
 * the catalog, and the page renders again when it is there), so it is not reported.
 */
export function pageIntl(locale: Locale, messages: Messages, onMissing?: () => boolean): IntlShape {
  const intl = createIntl(
    {
      locale,
      messages,
      timeZone: CLUB_TIME_ZONE,
      defaultLocale: 'en',
      onError: (error) => {
        if (error.code === 'MISSING_TRANSLATION' && onMissing?.()) return;
        reportIntlError(error);
      },
    },
    cache,
  );
  // French writes "1er décembre" where Intl prints "1 décembre" (docs/i18n/fr.md).
  return withLocalDates(locale, intl);
}

/** A missing translation is a bug the catalog test should have caught: surface it loudly. */
function reportIntlError(error: { code?: string; message: string }): void {
  console.error(`[intl] ${error.code ?? 'ERROR'}: ${error.message}`);
}
