/** The first of the month in French, as the site and the emails print it (docs/i18n/fr.md). */
import { createIntl, createIntlCache } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import { fixDates, withLocalDates } from '../src/dates.ts';
import type { Locale } from '../src/locales.ts';

const cache = createIntlCache();
function intl(locale: Locale, messages: Record<string, string> = {}) {
  return withLocalDates(locale, createIntl({ locale, messages, timeZone: 'Europe/Berlin', defaultLocale: 'en' }, cache));
}

const FIRST = new Date('2026-12-01T10:00:00Z');
const ELEVENTH = new Date('2026-12-11T10:00:00Z');

describe('French dates', () => {
  it('write the first of the month as an ordinal, in messages and in formatted dates', () => {
    const fr = intl('fr', { until: 'Valable jusqu’au {date, date, long}.', from: 'Possible à partir du {date, date, medium}' });
    expect(fr.formatMessage({ id: 'until' }, { date: FIRST })).toBe('Valable jusqu’au 1er décembre 2026.');
    expect(fr.$t({ id: 'until' }, { date: new Date('2027-03-01T10:00:00Z') })).toBe('Valable jusqu’au 1er mars 2027.');
    expect(fr.formatMessage({ id: 'from' }, { date: FIRST })).toBe('Possible à partir du 1er déc. 2026');
    expect(fr.formatDate(FIRST, { dateStyle: 'long' })).toBe('1er décembre 2026');
    expect(fr.formatDate(new Date('2027-02-01T10:00:00Z'), { dateStyle: 'medium', timeStyle: 'short' })).toMatch(/^1er févr\. 2027/);
  });

  it('leave every other day as Intl prints it', () => {
    const fr = intl('fr', { until: 'Valable jusqu’au {date, date, long}.' });
    expect(fr.formatMessage({ id: 'until' }, { date: ELEVENTH })).toBe('Valable jusqu’au 11 décembre 2026.');
    expect(fr.formatDate(new Date('2026-12-21T10:00:00Z'), { dateStyle: 'long' })).toBe('21 décembre 2026');
    expect(fr.formatDate(new Date('2026-12-31T10:00:00Z'), { dateStyle: 'medium' })).toBe('31 déc. 2026');
  });

  it('reach the strings of a rich-text message and leave its elements alone', () => {
    const messages = { rich: '<b>Le</b> {date, date, long}' };
    const fr = withLocalDates('fr', createIntl<{ element: string }>({ locale: 'fr', messages, timeZone: 'Europe/Berlin' }, cache));
    const element = { element: 'b' };
    const parts = fr.formatMessage({ id: 'rich' }, { date: FIRST, b: () => element });
    expect(parts).toEqual([element, ' 1er décembre 2026']);
  });

  it('change nothing in the other languages', () => {
    for (const [locale, expected] of [
      ['de', '1. Dezember 2026'],
      ['en', 'December 1, 2026'],
      ['pl', '1 grudnia 2026'],
      ['it', '1 dicembre 2026'],
    ] as const) {
      const instance = intl(locale);
      expect(instance.formatDate(FIRST, { dateStyle: 'long' })).toBe(expected);
      expect(fixDates(locale, '1 décembre')).toBe('1 décembre');
    }
  });
});
