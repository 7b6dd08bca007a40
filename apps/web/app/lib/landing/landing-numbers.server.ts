/**
 * The landing page's numbers as its language writes them, formatted here: the browser shows them
 * as they came, so its first render needs no `Intl.NumberFormat`, whose first use makes it list
 * ICU's locales in the middle of hydration (ADR 068).
 */
import type { Locale } from '@velvet/i18n/locales';
import { FIGURES, type LandingNumbers } from './marketing-figures.ts';

/** Per language: the figures, formatted once, and the formatter of the voucher's minimum order. */
const byLocale = new Map<Locale, { figures: Omit<LandingNumbers, 'minimumOrder'>; euros: Intl.NumberFormat }>();

function numbersOf(locale: Locale) {
  let numbers = byLocale.get(locale);
  if (!numbers) {
    const plain = new Intl.NumberFormat(locale);
    const compact = new Intl.NumberFormat(locale, { notation: 'compact', compactDisplay: 'long' });
    numbers = {
      figures: {
        labels: plain.format(FIGURES.labels),
        items: compact.format(FIGURES.items),
        daily: plain.format(FIGURES.dailyNewItems),
        customers: compact.format(FIGURES.customers),
        rating: new Intl.NumberFormat(locale, { minimumFractionDigits: 1 }).format(FIGURES.appRating),
        reviews: plain.format(FIGURES.appReviews),
      },
      euros: new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }),
    };
    byLocale.set(locale, numbers);
  }
  return numbers;
}

/** @param minimumOrderValue the invitation's voucher's minimum order value (euros), if any */
export function landingNumbers(locale: Locale, minimumOrderValue: number | null | undefined): LandingNumbers {
  const { figures, euros } = numbersOf(locale);
  return { ...figures, minimumOrder: minimumOrderValue ? euros.format(minimumOrderValue) : '' };
}
