/** The one customization table: the voucher the landing page promises is the one the API issues. */
import { describe, expect, it } from 'vitest';
import { CUSTOMIZATIONS, WELCOME_VOUCHER_VALIDITY_DAYS, customizationTexts, isCustomization, voucherFor } from '../src/customization.ts';

describe('welcome voucher by customization', () => {
  const table: [string | null, number, number | null][] = [
    ['social-10-percent-no-mov', 10, null],
    ['social-15-percent-no-mov', 15, null],
    ['social-15-percent-mov', 15, 100],
    ['social-20-percent-mov', 20, 150],
    ['default', 10, null],
    ['social', 10, null],
    ['viral', 10, null],
    ['viralProductShare', 10, null],
    ['daba', 10, null],
    ['social-registration', 10, null],
    [null, 10, null],
    ['no-such-campaign', 10, null],
  ];
  it.each(table)('%s → %i %% (minimum order value %s)', (customization, percent, minimumOrderValue) => {
    expect(voucherFor(customization)).toEqual({ percent, minimumOrderValue });
  });
  it('covers every customization a code can carry', () => {
    expect(table.map(([c]) => c).filter(isCustomization).sort()).toEqual([...CUSTOMIZATIONS].sort());
  });
  it('is valid two weeks (spec §9)', () => {
    expect(WELCOME_VOUCHER_VALIDITY_DAYS).toBe(14);
  });
});

describe('landing texts by customization', () => {
  it('states the percent of the campaign, never the default 10 % on a 15 % campaign', () => {
    expect(customizationTexts('social-15-percent-mov')).toEqual({
      headline: 'variant.voucher.headline',
      text: 'variant.voucher.mov',
      voucher: { percent: 15, minimumOrderValue: 100 },
    });
    expect(customizationTexts('social-15-percent-no-mov')).toMatchObject({ text: 'variant.voucher.noMov', voucher: { percent: 15 } });
  });
  it('shows a voucher text only on the voucher campaigns', () => {
    for (const customization of CUSTOMIZATIONS) {
      const texts = customizationTexts(customization);
      expect(texts.voucher === null).toBe(!customization.includes('percent'));
      if (texts.voucher) expect(texts.voucher).toEqual(voucherFor(customization));
    }
  });
  it('uses the default texts for none or an unknown customization', () => {
    expect(customizationTexts(null)).toEqual({ headline: 'variant.default.headline', text: 'variant.default.text', voucher: null });
    expect(customizationTexts('toString')).toEqual({ headline: 'variant.default.headline', text: 'variant.default.text', voucher: null });
  });
});
