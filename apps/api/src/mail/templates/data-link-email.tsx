/**
 * The "manage my data" email (issue 24 §2, ADR 066): the link to the page where a person at the
 * door sees, downloads or deletes what the club holds about them, asked for on the public form.
 * The same email whether the club knows the address or not (the page then says nothing is held).
 */
import type { Locale } from '@velvet/i18n/locales';
import type { Company } from '@velvet/validation/shop';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';

export function renderDataLinkEmail(props: { locale: Locale; company?: Company; dataUrl: string; expiresAt: Date }): Promise<RenderedEmail> {
  const t = emailTranslator(props.locale);
  return renderEmail({
    locale: props.locale,
    company: props.company,
    actionUrl: props.dataUrl,
    texts: {
      subject: t('email.dataLink.subject'),
      preview: t('email.dataLink.preview'),
      brand: t('brand.name'),
      greeting: t('email.invitation.greeting'),
      intro: t('email.dataLink.intro'),
      button: t('email.dataLink.button'),
      linkHint: t('email.activation.linkHint'),
      notes: [t('email.dataLink.expiry', { expiresAt: props.expiresAt }), t('email.dataLink.notYou')],
      tagline: t('email.footer.tagline'),
      reason: t('email.dataLink.reason'),
    },
  });
}
