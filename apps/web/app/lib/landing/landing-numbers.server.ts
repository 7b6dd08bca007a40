/**
 * The landing page's numbers as its language writes them, formatted here: the browser shows them
 * as they came, so its first render needs no `Intl.NumberFormat`, whose first use makes it list
 * ICU's locales in the middle of hydration (ADR 068).
 */
import type { Locale } from '@velvet/i18n/locales';
import { FIGURES, type LandingNumbers } from './marketing-figures.ts';

const byLocale = new Map<Locale, Omit<LandingNumbers, 'minimumOrder'>>();
const euros = new Map<Locale, Intl.NumberFormat>();

/** @param minimumOrderValue the invitation's voucher's minimum order value (euros), if any */
export function landingNumbers(locale: Locale, minimumOrderValue: number | null | undefined): LandingNumbers {
  let figures = byLocale.get(locale);
  if (!figures) {
    const plain = new Intl.NumberFormat(locale);
    const compact = new Intl.NumberFormat(locale, { notation: 'compact', compactDisplay: 'long' });
    figures = {
      labels: plain.format(FIGURES.labels),
      items: compact.format(FIGURES.items),
      daily: plain.format(FIGURES.dailyNewItems),
      customers: compact.format(FIGURES.customers),
      rating: new Intl.NumberFormat(locale, { minimumFractionDigits: 1 }).format(FIGURES.appRating),
      reviews: plain.format(FIGURES.appReviews),
    };
    byLocale.set(locale, figures);
  }
  return { ...figures, minimumOrder: minimumOrderValue ? euroFormat(locale).format(minimumOrderValue) : '' };
}

function euroFormat(locale: Locale): Intl.NumberFormat {
  let format = euros.get(locale);
  if (!format) euros.set(locale, (format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 })));
  return format;
}
