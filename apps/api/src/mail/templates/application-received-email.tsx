/**
 * "We received your application" (issue 22 §2, ADR 058): sent once per address after a
 * membership application, so the wait feels like membership has begun. It asks for nothing,
 * so it has no button; it ends with the status link (issue 24 §1, ADR 063). In the applicant's
 * language, in the club's frame (./layout.tsx).
 */
import type { Locale } from '@velvet/i18n/locales';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';
import type { Company } from '@velvet/validation/shop';
import { statusAside } from './status-link.ts';

export function renderApplicationReceivedEmail({ locale, company, statusUrl }: { locale: Locale; company?: Company; statusUrl: string | null }): Promise<RenderedEmail> {
  const t = emailTranslator(locale);
  return renderEmail({
    locale,
    company,
    texts: {
      subject: t('email.applicationReceived.subject'),
      preview: t('email.applicationReceived.preview'),
      brand: t('brand.name'),
      greeting: t('email.invitation.greeting'),
      intro: t('email.applicationReceived.intro'),
      notes: [t('email.applicationReceived.next'), t('email.applicationReceived.notYou')],
      asides: statusAside(t, statusUrl),
      tagline: t('email.footer.tagline'),
      reason: t('email.invitation.reasonInterest'),
    },
  });
}
