/**
 * The inviter's email when their code was quarantined or rotated (issue 12 §4, ADR 043): the code
 * travelled further than invitations do, registrations on it wait for a check, and here is a
 * fresh private link to send to the people they invite. In the inviter's language, from the
 * catalogs' `email.privateLink.*` messages, in the club's frame (./layout.tsx).
 */
import type { Locale } from '@velvet/i18n/locales';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';
import type { Company } from '@velvet/validation/shop';
import type { EmailTexts } from './layout.tsx';

export interface PrivateLinkEmailProps {
  locale: Locale;
  /** The imprint's company (COMPANY_* settings); the placeholder without. */
  company?: Company;
  /** The inviter's first name; null when none. */
  firstName: string | null;
  /** The code that was paused. */
  pausedCode: string;
  /** The landing page with the fresh signed link. */
  linkUrl: string;
  /** When the link stops working. */
  expiresAt: Date;
}

function privateLinkEmailTexts(props: PrivateLinkEmailProps): EmailTexts {
  const t = emailTranslator(props.locale);
  return {
    subject: t('email.privateLink.subject'),
    preview: t('email.privateLink.preview'),
    brand: t('brand.name'),
    greeting: props.firstName ? t('email.privateLink.greeting', { firstName: props.firstName }) : t('email.invitation.greeting'),
    intro: t('email.privateLink.intro', { code: props.pausedCode }),
    button: t('email.privateLink.button'),
    linkHint: t('email.activation.linkHint'),
    notes: [t('email.privateLink.expiry', { expiresAt: props.expiresAt }), t('email.privateLink.keepPrivate')],
    tagline: t('email.footer.tagline'),
    reason: t('email.privateLink.reason'),
  };
}

export function renderPrivateLinkEmail(props: PrivateLinkEmailProps): Promise<RenderedEmail> {
  return renderEmail({ locale: props.locale, company: props.company, texts: privateLinkEmailTexts(props), actionUrl: props.linkUrl });
}
