import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';
import { withLocalDates } from '@velvet/i18n/dates';
import { LOCALES } from '@velvet/i18n/locales';
import { createIntl } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageIntl } from '../app/lib/i18n/intl.ts';
import { catalogJson } from '../app/lib/i18n/messages.server.ts';
import type { ParsedMessages } from '../app/lib/i18n/messages.ts';

/** A value for every argument a message names, of the kind it formats (a tag wraps its text in brackets). */
function sampleValues(elements: MessageFormatElement[], values: Record<string, unknown> = {}): Record<string, unknown> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        values[element.value] ??= 'Sophie';
        break;
      case TYPE.number:
        values[element.value] = 1234.5;
        break;
      case TYPE.date:
      case TYPE.time:
        values[element.value] = Date.UTC(2026, 11, 1, 9, 30);
        break;
      case TYPE.plural:
        values[element.value] = 3;
        for (const option of Object.values(element.options)) sampleValues(option.value, values);
        break;
      case TYPE.select:
        values[element.value] = Object.keys(element.options)[0];
        for (const option of Object.values(element.options)) sampleValues(option.value, values);
        break;
      case TYPE.tag:
        values[element.value] = (chunks: string[]) => `[${chunks.join('')}]`;
        sampleValues(element.children, values);
        break;
      default:
        break;
    }
  }
  return values;
}

describe('the page’s FormatJS instance', () => {
  afterEach(() => vi.restoreAllMocks());

  it('never asks ICU which locales it has, however it formats (ADR 068)', () => {
    const numberLookUp = vi.spyOn(Intl.NumberFormat, 'supportedLocalesOf');
    const dateLookUp = vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf');
    const messages = JSON.parse(catalogJson('pl')) as ParsedMessages;
    const intl = pageIntl('pl', messages);
    expect(intl.locale).toBe('pl');
    expect(intl.formatMessage({ id: 'benefits.free.title' })).toBe('Bezpłatne członkostwo');
    expect(intl.formatMessage({ id: 'promo.countdown.minutesLong' }, { minutes: 5 })).toBe('5 minut');
    expect(intl.formatMessage({ id: 'promo.countdown.minutesLong' }, { minutes: 22 })).toBe('22 minuty');
    expect(intl.formatMessage({ id: 'figures.labels' }, { count: '2500' })).toContain('2500');
    expect(numberLookUp).not.toHaveBeenCalled();
    expect(dateLookUp).not.toHaveBeenCalled();
  });

  it('formats every message of every language exactly as FormatJS does when it is told the language', () => {
    for (const locale of LOCALES) {
      const messages = JSON.parse(catalogJson(locale)) as ParsedMessages;
      const ours = pageIntl(locale, messages);
      const told = withLocalDates(locale, createIntl({ locale, messages, timeZone: 'Europe/Berlin', onError: () => undefined }));
      for (const [id, message] of Object.entries(messages)) {
        const values = sampleValues(message) as Parameters<typeof ours.formatMessage>[1];
        expect(ours.formatMessage({ id }, values), `${locale} ${id}`).toEqual(told.formatMessage({ id }, values));
      }
      expect(ours.formatNumber(1234.5)).toBe(told.formatNumber(1234.5));
    }
  });

  it('still reports a message missing from the catalog', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const intl = pageIntl('de', JSON.parse(catalogJson('de')) as ParsedMessages);
    expect(intl.formatMessage({ id: 'no.such.message' })).toBe('no.such.message');
    expect(errors).toHaveBeenCalledOnce();
    expect(String(errors.mock.calls[0]?.[0])).toContain('MISSING_TRANSLATION');
  });
});
