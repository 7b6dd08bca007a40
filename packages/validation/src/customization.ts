/**
 * A registration code's customization (spec §3): the landing texts it shows and the welcome
 * voucher it promises — the landing page states these terms and the API issues exactly these
 * on activation (spec §1 "10 percent off the first order", §3 voucher variants, §9 valid two
 * weeks). Changing a campaign's voucher is a change of this table only.
 */

/** The customizations a code can carry, each with its landing texts' key and its voucher. */
const CUSTOMIZATION_TABLE = {
  default: { texts: 'default', voucher: { percent: 10, minimumOrderValue: null } },
  social: { texts: 'social', voucher: { percent: 10, minimumOrderValue: null } },
  viral: { texts: 'viral', voucher: { percent: 10, minimumOrderValue: null } },
  viralProductShare: { texts: 'viralProductShare', voucher: { percent: 10, minimumOrderValue: null } },
  daba: { texts: 'daba', voucher: { percent: 10, minimumOrderValue: null } },
  'social-10-percent-no-mov': { texts: 'voucher', voucher: { percent: 10, minimumOrderValue: null } },
  'social-15-percent-no-mov': { texts: 'voucher', voucher: { percent: 15, minimumOrderValue: null } },
  'social-15-percent-mov': { texts: 'voucher', voucher: { percent: 15, minimumOrderValue: 100 } },
  'social-20-percent-mov': { texts: 'voucher', voucher: { percent: 20, minimumOrderValue: 150 } },
  'social-registration': { texts: 'socialRegistration', voucher: { percent: 10, minimumOrderValue: null } },
} as const satisfies Record<string, { texts: string; voucher: VoucherTerms }>;

export type Customization = keyof typeof CUSTOMIZATION_TABLE;
export const CUSTOMIZATIONS = Object.keys(CUSTOMIZATION_TABLE) as Customization[];

export function isCustomization(value: unknown): value is Customization {
  return typeof value === 'string' && Object.hasOwn(CUSTOMIZATION_TABLE, value);
}

export interface VoucherTerms {
  percent: number;
  /** Whole euros, or null for no minimum order value. */
  minimumOrderValue: number | null;
}

export const WELCOME_VOUCHER_VALIDITY_DAYS = 14;
export const WELCOME_VOUCHER_CURRENCY = 'EUR';

/** The voucher a code's customization promises; none (or one this version does not know) is the default's. */
export function voucherFor(customization: string | null | undefined): VoucherTerms {
  return CUSTOMIZATION_TABLE[isCustomization(customization) ? customization : 'default'].voucher;
}

/**
 * Message ids of the landing headline and text for a customization (default when unknown);
 * a voucher campaign's text names its minimum order value only when it has one.
 */
export function customizationTexts(customization: string | null | undefined): { headline: string; text: string; voucher: VoucherTerms | null } {
  const entry = CUSTOMIZATION_TABLE[isCustomization(customization) ? customization : 'default'];
  if (entry.texts !== 'voucher') return { headline: `variant.${entry.texts}.headline`, text: `variant.${entry.texts}.text`, voucher: null };
  return {
    headline: 'variant.voucher.headline',
    text: entry.voucher.minimumOrderValue ? 'variant.voucher.mov' : 'variant.voucher.noMov',
    voucher: entry.voucher,
  };
}
