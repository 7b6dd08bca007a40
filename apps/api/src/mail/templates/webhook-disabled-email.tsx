/**
 * To every owner when a webhook endpoint failed for 24 hours and was switched off (issue 24 §4,
 * ADR 065): which one, since when, that nothing is lost, and the console's webhooks page, where
 * it is switched on again. From the catalogs' `email.webhookDisabled.*` messages.
 */
import type { Locale } from '@velvet/i18n/locales';
import type { Company } from '@velvet/validation/shop';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';

export interface WebhookDisabledEmailProps {
  locale: Locale;
  company?: Company;
  /** The endpoint's host (its path may carry the receiver's token, so not the whole address). */
  endpointHost: string;
  description: string;
  failingSince: Date;
  consoleUrl: string;
}

export function renderWebhookDisabledEmail(props: WebhookDisabledEmailProps): Promise<RenderedEmail> {
  const t = emailTranslator(props.locale);
  const name = props.description ? `${props.description} (${props.endpointHost})` : props.endpointHost;
  return renderEmail({
    locale: props.locale,
    company: props.company,
    actionUrl: props.consoleUrl,
    texts: {
      subject: t('email.webhookDisabled.subject'),
      preview: t('email.webhookDisabled.preview', { endpoint: name }),
      brand: t('brand.name'),
      greeting: t('email.invitation.greeting'),
      intro: t('email.webhookDisabled.intro', { endpoint: name, failingSince: props.failingSince }),
      paragraphs: [t('email.webhookDisabled.kept')],
      button: t('email.webhookDisabled.button'),
      linkHint: t('email.activation.linkHint'),
      notes: [],
      tagline: t('email.footer.tagline'),
      reason: t('email.webhookDisabled.reason'),
    },
  });
}
