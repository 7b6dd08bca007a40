/**
 * The welcome voucher a member gets on activation (spec §1 "10 percent off the first
 * order", §3 voucher variants, §9 valid 2 weeks). The variant follows the registration
 * code's landing-text customization.
 */
import { randomInt } from 'node:crypto';
import type { Customization } from '../db/schema.ts';
import { CODE_ALPHABET } from './create-registration-code.ts';

export const WELCOME_VOUCHER_VALIDITY_DAYS = 14;
export const WELCOME_VOUCHER_CURRENCY = 'EUR';

export interface WelcomeVoucherTerms {
  percent: number;
  /** Whole euros, or null for no minimum order value. */
  minimumOrderValue: number | null;
}

const DEFAULT_TERMS: WelcomeVoucherTerms = { percent: 10, minimumOrderValue: null };

const TERMS_BY_CUSTOMIZATION: Partial<Record<Customization, WelcomeVoucherTerms>> = {
  'social-10-percent-no-mov': { percent: 10, minimumOrderValue: null },
  'social-15-percent-no-mov': { percent: 15, minimumOrderValue: null },
  'social-15-percent-mov': { percent: 15, minimumOrderValue: 100 },
  'social-20-percent-mov': { percent: 20, minimumOrderValue: 150 },
};

/** The voucher for a code's customization; every other variant (and none) gets 10 % without minimum. */
export function welcomeVoucherTerms(customization: Customization | null | undefined): WelcomeVoucherTerms {
  return (customization ? TERMS_BY_CUSTOMIZATION[customization] : undefined) ?? DEFAULT_TERMS;
}

/** `WELCOME-XXXX-XXXX-XXXX` from the unambiguous alphabet of registration codes (~59 random bits). */
export function generateVoucherCode(): string {
  const group = () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `WELCOME-${group()}-${group()}-${group()}`;
}
