/**
 * The decline (issue 24 §1, ADR 063): a kind no, the reason the operator chose (the owner's text
 * in the applicant's language), and the way on — the waiting list in one click, or applying
 * again once the cool-down is over — with the status link. In the club's frame (./layout.tsx).
 */
import type { Locale } from '@velvet/i18n/locales';
import type { Company } from '@velvet/validation/shop';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';
import { statusAside } from './status-link.ts';

export interface ApplicationDeclinedEmailProps {
  locale: Locale;
  /** The imprint's company (COMPANY_* settings, ADR 060). */
  company?: Company;
  reason: string;
  reapplyAfter: Date;
  /** The lobby with a signed token for this address: joining the waiting list is one click. */
  lobbyUrl: string;
  lobbyExpiresAt: Date;
  statusUrl: string;
}

export function renderApplicationDeclinedEmail(props: ApplicationDeclinedEmailProps): Promise<RenderedEmail> {
  const t = emailTranslator(props.locale);
  return renderEmail({
    locale: props.locale,
    company: props.company,
    actionUrl: props.lobbyUrl,
    texts: {
      subject: t('email.applicationDeclined.subject'),
      preview: t('email.applicationDeclined.preview'),
      brand: t('brand.name'),
      greeting: t('email.invitation.greeting'),
      intro: t('email.applicationDeclined.intro'),
      paragraphs: [props.reason, t('email.applicationDeclined.wayOn')],
      button: t('email.lobby.button'),
      linkHint: t('email.activation.linkHint'),
      notes: [
        t('email.lobby.expiry', { expiresAt: props.lobbyExpiresAt }),
        t('email.applicationDeclined.reapply', { reapplyAfter: props.reapplyAfter }),
      ],
      asides: statusAside(t, props.statusUrl),
      tagline: t('email.footer.tagline'),
      reason: t('email.invitation.reasonInterest'),
    },
  });
}
