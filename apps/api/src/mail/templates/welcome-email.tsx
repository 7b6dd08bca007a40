/**
 * The welcome email after activation (issue 22 §2, ADR 058): the account is active, and the
 * welcome voucher — code, value, minimum order, validity — exactly as the welcome page shows it
 * (the same catalog messages), framed as a gift; the button leads to the shop. In the member's
 * language, in the club's frame (./layout.tsx).
 */
import type { Locale } from '@velvet/i18n/locales';
import { SHOP_LINKS } from '@velvet/validation/shop';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';
import type { Company } from '@velvet/validation/shop';
import type { EmailTexts } from './layout.tsx';

interface WelcomeVoucherTerms {
  code: string;
  percent: number;
  /** Whole units of `currency`, or null for none. */
  minimumOrderValue: number | null;
  currency: string;
  validUntil: Date;
}

export interface WelcomeEmailProps {
  locale: Locale;
  /** The imprint's company (COMPANY_* settings); the placeholder without. */
  company?: Company;
  firstName: string | null;
  voucher: WelcomeVoucherTerms;
}

function welcomeEmailTexts({ locale, firstName, voucher }: WelcomeEmailProps): EmailTexts {
  const t = emailTranslator(locale);
  // As the welcome page writes it: whole euros, the language's own currency format.
  const minimum = voucher.minimumOrderValue
    ? new Intl.NumberFormat(locale, { style: 'currency', currency: voucher.currency, maximumFractionDigits: 0 }).format(voucher.minimumOrderValue)
    : null;
  return {
    subject: t('email.welcome.subject', { percent: voucher.percent }),
    preview: t('email.welcome.preview', { percent: voucher.percent }),
    brand: t('brand.name'),
    greeting: firstName ? t('email.activation.greeting', { firstName }) : t('email.activation.greetingAnonymous'),
    intro: t('email.welcome.intro'),
    voucher: {
      title: t('activation.voucherTitle'),
      value: t('activation.voucherPercent', { percent: voucher.percent }),
      conditions: [
        minimum ? t('activation.voucherMov', { minimum }) : t('activation.voucherNoMov'),
        t('activation.voucherValidUntil', { date: voucher.validUntil }),
      ],
      codeLabel: t('activation.voucherCode'),
      code: voucher.code,
    },
    button: t('activation.shopNow'),
    notes: [t('activation.voucherHowTo'), t('email.welcome.signIn')],
    tagline: t('email.footer.tagline'),
    reason: t('email.welcome.reason'),
  };
}

export function renderWelcomeEmail(props: WelcomeEmailProps): Promise<RenderedEmail> {
  return renderEmail({ locale: props.locale, company: props.company, texts: welcomeEmailTexts(props), actionUrl: SHOP_LINKS.login });
}
