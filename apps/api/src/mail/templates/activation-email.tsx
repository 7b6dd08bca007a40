/**
 * The activation email (spec §2 verify-email, §4): in the member's language, from the
 * catalogs' `email.activation.*` messages, in the club's frame (./layout.tsx).
 */
import type { Locale } from '@velvet/i18n/locales';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';
import type { Company } from '@velvet/validation/shop';
import type { EmailTexts } from './layout.tsx';

export interface ActivationEmailProps {
  locale: Locale;
  /** The imprint's company (COMPANY_* settings); the placeholder without. */
  company?: Company;
  firstName: string | null;
  inviterName: string | null;
  activationUrl: string;
  /** When the link stops working. */
  expiresAt: Date;
}

function activationEmailTexts(props: ActivationEmailProps): EmailTexts {
  const t = emailTranslator(props.locale);
  return {
    subject: t('email.activation.subject'),
    preview: t('email.activation.preview'),
    brand: t('brand.name'),
    greeting: props.firstName ? t('email.activation.greeting', { firstName: props.firstName }) : t('email.activation.greetingAnonymous'),
    intro: props.inviterName
      ? t('email.activation.intro', { inviterName: props.inviterName })
      : t('email.activation.introNoInviter'),
    button: t('email.activation.button'),
    linkHint: t('email.activation.linkHint'),
    notes: [t('email.activation.expiry', { expiresAt: props.expiresAt }), t('email.activation.notYou')],
    tagline: t('email.footer.tagline'),
    reason: t('email.footer.reason'),
  };
}

export function renderActivationEmail(props: ActivationEmailProps): Promise<RenderedEmail> {
  return renderEmail({ locale: props.locale, company: props.company, texts: activationEmailTexts(props), actionUrl: props.activationUrl });
}
