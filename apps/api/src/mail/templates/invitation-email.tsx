/**
 * The invitation email (waiting list and membership interest): a personal access code and
 * the button to the landing page with it, in the recipient's language, from the catalogs'
 * `email.invitation.*` messages, in the club's frame (./layout.tsx).
 */
import type { Locale } from '@velvet/i18n/locales';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';
import type { Company } from '@velvet/validation/shop';
import type { EmailTexts } from './layout.tsx';
import { statusAside } from './status-link.ts';

/** Why the recipient is invited: they joined the waiting list, or applied for membership. */
type InvitationReason = 'waitlist' | 'interest';

export interface InvitationEmailProps {
  locale: Locale;
  /** The imprint's company (COMPANY_* settings); the placeholder without. */
  company?: Company;
  /** The personal registration code. */
  code: string;
  /** The landing page with the code (?rc=). */
  invitationUrl: string;
  /** When the code stops working. */
  expiresAt: Date;
  reason: InvitationReason;
  /** The person's status link (ADR 063); none for an email queued before, or without one. */
  statusUrl?: string | null;
}

function invitationEmailTexts(props: InvitationEmailProps): EmailTexts {
  const t = emailTranslator(props.locale);
  return {
    subject: t('email.invitation.subject'),
    preview: t('email.invitation.preview'),
    brand: t('brand.name'),
    greeting: t('email.invitation.greeting'),
    intro: t('email.invitation.intro'),
    highlight: t('email.invitation.code', { code: props.code }),
    button: t('email.invitation.button'),
    // The activation email's "copy this address" line says exactly what is needed here too.
    linkHint: t('email.activation.linkHint'),
    notes: [t('email.invitation.expiry', { expiresAt: props.expiresAt })],
    asides: statusAside(t, props.statusUrl ?? null),
    tagline: t('email.footer.tagline'),
    reason: t(props.reason === 'waitlist' ? 'email.invitation.reasonWaitlist' : 'email.invitation.reasonInterest'),
  };
}

export function renderInvitationEmail(props: InvitationEmailProps): Promise<RenderedEmail> {
  return renderEmail({ locale: props.locale, company: props.company, texts: invitationEmailTexts(props), actionUrl: props.invitationUrl });
}
