/**
 * "You are on the waiting list" (issue 22 §2, ADR 058): sent when an address joins the list,
 * with the status link (issue 24 §1, ADR 063) and the way to leave it — a short link whose
 * random reference removes the entry. In the language the lobby was opened in, in the club's
 * frame (./layout.tsx).
 */
import type { Locale } from '@velvet/i18n/locales';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';
import type { Company } from '@velvet/validation/shop';
import { statusAside } from './status-link.ts';

export function renderWaitlistJoinedEmail({
  locale,
  company,
  leaveUrl,
  statusUrl,
}: {
  locale: Locale;
  company?: Company;
  leaveUrl: string;
  statusUrl: string | null;
}): Promise<RenderedEmail> {
  const t = emailTranslator(locale);
  return renderEmail({
    locale,
    company,
    texts: {
      subject: t('email.waitlistJoined.subject'),
      preview: t('email.waitlistJoined.preview'),
      brand: t('brand.name'),
      greeting: t('email.invitation.greeting'),
      intro: t('email.waitlistJoined.intro'),
      notes: [t('email.waitlistJoined.next')],
      asides: [...statusAside(t, statusUrl), { text: t('email.waitlistJoined.leaveText'), label: t('email.waitlistJoined.leaveLink'), url: leaveUrl }],
      tagline: t('email.footer.tagline'),
      reason: t('email.invitation.reasonWaitlist'),
    },
  });
}
