/**
 * One cached FormatJS instance per language, for meta functions, loaders and components. Dates
 * are shown in the club's time zone (ADR 021), as in emails: the server and every visitor's
 * browser print the same day ("Valid until 9 December 2026"), so the page hydrates without a
 * mismatch whatever the server's or the visitor's own time zone.
 *
 * No locale look-up (ADR 068): FormatJS asks `Intl.NumberFormat.supportedLocalesOf` and
 * `Intl.DateTimeFormat.supportedLocalesOf` whether the language is there, when an instance is
 * made and for every message it formats. The first such question makes the browser list every
 * locale its ICU knows: 25–90 ms of one task on a two-core machine, 150–210 ms at Lighthouse's
 * 4× CPU, in the middle of hydration, on a page that may format no number and no date at all.
 * The answer is known: our languages are the eight of `LOCALES`, which every ICU has. So the
 * instance is made with the page's language as its default language and none of its own
 * (FormatJS then takes the default without asking), and a message resolves its language with
 * `Intl.Locale` (no look-up) instead of asking.
 */
import { isDateElement, isPluralElement, isSelectElement, isTagElement, isTimeElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { createIntl, createIntlCache, type IntlShape, type MessageDescriptor, type MessageFormatElement, type PrimitiveType } from 'react-intl';
import { withLocalDates } from '@velvet/i18n/dates';
import { CLUB_TIME_ZONE, type Locale } from '@velvet/i18n/locales';
import type { Messages } from './messages.ts';

IntlMessageFormat.resolveLocale = (locales) => new Intl.Locale(Array.isArray(locales) ? String(locales[0]) : locales);

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
  const config = {
    // No `locale` (empty): FormatJS takes `defaultLocale` as the instance's language without
    // asking ICU whether it has it (above), and says so with an INVALID_CONFIG error, expected here.
    locale: '',
    defaultLocale: locale,
    messages,
    onError: (error: { code?: string; message: string }) => {
      if (error.code === 'INVALID_CONFIG') return;
      if (error.code === 'MISSING_TRANSLATION' && onMissing?.()) return;
      reportIntlError(error);
    },
  };
  const zoned = createIntl({ ...config, timeZone: CLUB_TIME_ZONE }, cache);
  // A message without a date is formatted by an instance without the time zone: with one,
  // FormatJS merges the zone into every named date and time format on every call, and keys its
  // cache by the merged formats — twice a message's cost, on every render of every page.
  const plain = createIntl(config, cache);
  const formatMessage = ((descriptor: MessageDescriptor, values?: Record<string, PrimitiveType>, options?: never) =>
    (printsDates(messages[String(descriptor.id)]) ? zoned : plain).formatMessage(descriptor, values, options)) as IntlShape['formatMessage'];
  // French writes "1er décembre" where Intl prints "1 décembre" (docs/i18n/fr.md).
  return withLocalDates(locale, { ...zoned, formatMessage, $t: formatMessage });
}

const dated = new WeakMap<MessageFormatElement[], boolean>();

/** Whether a message prints a date or a time (an argument `{d, date, long}`, at any depth). */
function printsDates(message: string | MessageFormatElement[] | undefined): boolean {
  if (typeof message === 'string') return /,\s*(date|time)\s*[,}]/.test(message);
  if (!message) return false;
  let known = dated.get(message);
  if (known === undefined) {
    known = message.some(
      (element) =>
        isDateElement(element) ||
        isTimeElement(element) ||
        ((isPluralElement(element) || isSelectElement(element)) && Object.values(element.options).some((option) => printsDates(option.value))) ||
        (isTagElement(element) && printsDates(element.children)),
    );
    dated.set(message, known);
  }
  return known;
}

/** A missing translation is a bug the catalog test should have caught: surface it loudly. */
function reportIntlError(error: { code?: string; message: string }): void {
  console.error(`[intl] ${error.code ?? 'ERROR'}: ${error.message}`);
}
