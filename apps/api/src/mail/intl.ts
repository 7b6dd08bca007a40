/** FormatJS for emails: the catalogs of @velvet/i18n, dates in the club's home time zone. */
import { createIntl, createIntlCache } from '@formatjs/intl';
import type { IntlShape } from '@formatjs/intl';
import { messagesFor } from '@velvet/i18n/catalogs';
import type { MessageId } from '@velvet/i18n/catalogs';
import { withLocalDates } from '@velvet/i18n/dates';
import { CLUB_TIME_ZONE, type Locale } from '@velvet/i18n/locales';

/**
 * Dates in emails ("expires on 29 November 2026") are shown for the club's home time zone,
 * as on the site (ADR 021): members live across Europe's three time zones, so a date can be
 * a day off only for a link that expires within an hour of midnight.
 */
const EMAIL_TIME_ZONE = CLUB_TIME_ZONE;

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const cache = createIntlCache();
const intls = new Map<Locale, IntlShape<string>>();

function intlFor(locale: Locale): IntlShape<string> {
  let intl = intls.get(locale);
  if (!intl) {
    // French writes "1er décembre" where Intl prints "1 décembre" (docs/i18n/fr.md).
    intl = withLocalDates(locale, createIntl({ locale, messages: { ...messagesFor(locale) }, timeZone: EMAIL_TIME_ZONE, defaultLocale: 'en' }, cache));
    intls.set(locale, intl);
  }
  return intl;
}

/** A message of `locale`, formatted; ids are checked against the English catalog at compile time. */
export type EmailTranslate = (id: MessageId, values?: Record<string, string | number | Date>) => string;

export function emailTranslator(locale: Locale): EmailTranslate {
  const intl = intlFor(locale);
  return (id, values) => intl.formatMessage({ id }, values);
}
