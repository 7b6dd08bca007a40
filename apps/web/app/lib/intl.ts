/** One cached FormatJS instance per language, for meta functions, loaders and components. */
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import type { Locale } from '@velvet/i18n/locales';

const cache = createIntlCache();
const instances = new Map<string, IntlShape>();

export function getIntl(locale: Locale, messages: Record<string, string>): IntlShape {
  const existing = instances.get(locale);
  if (existing && existing.messages === messages) return existing;
  const intl = createIntl({ locale, messages, defaultLocale: 'en', onError: reportIntlError }, cache);
  instances.set(locale, intl);
  return intl;
}

/** A missing translation is a bug the catalog test should have caught: surface it loudly. */
export function reportIntlError(error: { code?: string; message: string }): void {
  console.error(`[intl] ${error.code ?? 'ERROR'}: ${error.message}`);
}
