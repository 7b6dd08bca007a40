/**
 * The club's marketing figures (spec §1), in one place so copy and tests agree. The first
 * order's 10 percent is the default welcome voucher: @velvet/validation/customization `voucherFor`.
 */
export const FIGURES = {
  maxDiscountPercent: 75,
  labels: 3000,
  items: 5_000_000,
  dailyNewItems: 500,
  customers: 3_000_000,
  appRating: 4.8,
  appReviews: 500_000,
  countries: 28,
} as const;

/** The figures as the page's language writes them, with the invitation's minimum order (lib/landing/landing-numbers.server.ts). */
export interface LandingNumbers {
  labels: string;
  items: string;
  daily: string;
  customers: string;
  rating: string;
  reviews: string;
  /** The welcome voucher's minimum order value in euros, or '' when it has none. */
  minimumOrder: string;
}
