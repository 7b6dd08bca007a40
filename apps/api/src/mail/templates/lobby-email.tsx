/**
 * The lobby email (ADR 029): the link to the waiting-list lobby for an address someone gave
 * on the site, so only the address's owner can join the list. In the recipient's language,
 * from the catalogs' `email.lobby.*` messages, in the club's frame (./layout.tsx).
 */
import type { Locale } from '@velvet/i18n/locales';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { renderEmail } from './layout.tsx';
import type { Company } from '@velvet/validation/shop';
import type { EmailTexts } from './layout.tsx';

export interface LobbyEmailProps {
  locale: Locale;
  /** The imprint's company (COMPANY_* settings); the placeholder without. */
  company?: Company;
  /** The lobby page with the signed token (?token=). */
  lobbyUrl: string;
  /** When the link stops working. */
  expiresAt: Date;
}

function lobbyEmailTexts(props: LobbyEmailProps): EmailTexts {
  const t = emailTranslator(props.locale);
  return {
    subject: t('email.lobby.subject'),
    preview: t('email.lobby.preview'),
    brand: t('brand.name'),
    greeting: t('email.invitation.greeting'),
    intro: t('email.lobby.intro'),
    button: t('email.lobby.button'),
    linkHint: t('email.activation.linkHint'),
    notes: [t('email.lobby.expiry', { expiresAt: props.expiresAt }), t('email.lobby.notYou')],
    tagline: t('email.footer.tagline'),
    reason: t('email.lobby.reason'),
  };
}

export function renderLobbyEmail(props: LobbyEmailProps): Promise<RenderedEmail> {
  return renderEmail({ locale: props.locale, company: props.company, texts: lobbyEmailTexts(props), actionUrl: props.lobbyUrl });
}
