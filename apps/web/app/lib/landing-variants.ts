/**
 * Landing options (spec §3): what a campaign slug changes about the page, and which texts a
 * code's customization shows, with the welcome-voucher wording of the social variants.
 */
export type LandingLayout = 'right-double-column' | 'center-single-column' | 'only-mobile';

export interface LandingOptions {
  layout: LandingLayout;
  /** registrationFlow: the lean flow asks for the email first and the names second. */
  registrationFlow: 'default' | 'leanStep1' | 'socialRegistration';
  /** registrationFormFinishedInPopup: the form and its "check your inbox" open in a dialog. */
  registrationFormFinishedInPopup: boolean;
  /** previousPDPPage: the visitor comes from a member's shared product page. */
  previousPDPPage: boolean;
}

const DEFAULT_OPTIONS: LandingOptions = {
  layout: 'right-double-column',
  registrationFlow: 'default',
  registrationFormFinishedInPopup: false,
  previousPDPPage: false,
};

const SLUG_OPTIONS: Record<string, Partial<LandingOptions>> = {
  vip: {},
  social: { registrationFlow: 'socialRegistration' },
  viral: { registrationFormFinishedInPopup: true },
  share: { registrationFormFinishedInPopup: true, previousPDPPage: true },
  daba: { layout: 'center-single-column' },
  lean: { registrationFlow: 'leanStep1', layout: 'center-single-column' },
  app: { layout: 'only-mobile' },
};

export function landingOptions(slug: string | null | undefined): LandingOptions {
  return { ...DEFAULT_OPTIONS, ...(slug ? SLUG_OPTIONS[slug] : undefined) };
}

export interface VoucherTerms {
  percent: 10 | 15 | 20;
  /** Minimum order value in euros, or null when there is none. */
  minimumOrderValue: number | null;
}

/** The welcome voucher each customization promises; the API issues the same on activation. */
export function voucherFor(customization: string | null | undefined): VoucherTerms {
  switch (customization) {
    case 'social-15-percent-no-mov':
      return { percent: 15, minimumOrderValue: null };
    case 'social-15-percent-mov':
      return { percent: 15, minimumOrderValue: 100 };
    case 'social-20-percent-mov':
      return { percent: 20, minimumOrderValue: 150 };
    default:
      return { percent: 10, minimumOrderValue: null };
  }
}

export interface VariantTexts {
  headline: string;
  text: string;
  voucher?: VoucherTerms;
}

/** Message ids of the headline and text for a code's customization (default when unknown). */
export function variantTexts(customization: string | null | undefined): VariantTexts {
  switch (customization) {
    case 'social':
      return { headline: 'variant.social.headline', text: 'variant.social.text' };
    case 'viral':
      return { headline: 'variant.viral.headline', text: 'variant.viral.text' };
    case 'viralProductShare':
      return { headline: 'variant.viralProductShare.headline', text: 'variant.viralProductShare.text' };
    case 'daba':
      return { headline: 'variant.daba.headline', text: 'variant.daba.text' };
    case 'social-registration':
      return { headline: 'variant.socialRegistration.headline', text: 'variant.socialRegistration.text' };
    case 'social-10-percent-no-mov':
    case 'social-15-percent-no-mov':
    case 'social-15-percent-mov':
    case 'social-20-percent-mov': {
      const voucher = voucherFor(customization);
      return { headline: 'variant.voucher.headline', text: voucher.minimumOrderValue ? 'variant.voucher.mov' : 'variant.voucher.noMov', voucher };
    }
    default:
      return { headline: 'variant.default.headline', text: 'variant.default.text' };
  }
}
