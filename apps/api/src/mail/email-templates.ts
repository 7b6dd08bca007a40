/**
 * The emails the outbox sends, one entry per template: the payload a row of it carries (checked
 * before anything is rendered: a row of another shape fails its delivery instead of sending a
 * broken email), the page the email links to, and how it renders in the row's language. A new
 * email is a payload in outbox.ts, a component in templates/ and an entry here; the type below
 * refuses a template without one.
 */
import { isLocale } from '@velvet/i18n/locales';
import type { Locale } from '@velvet/i18n/locales';
import { COMPANY } from '@velvet/validation/shop';
import type { Company } from '@velvet/validation/shop';
import type { z } from 'zod';
import type { EmailOutboxRow } from '../db/schema.ts';
import { signValidityTimestamp } from '../domain/registration-link.ts';
import type { RenderedEmail } from './intl.ts';
import { activationUrl, dataUrl, invitationUrl, lobbyUrl, statusUrl, waitlistLeaveUrl } from './links.ts';
import { OUTBOX_PAYLOADS, unsealFromOutbox } from './outbox.ts';
import type { EmailPayload, EmailTemplate } from './outbox.ts';
import { renderActivationEmail } from './templates/activation-email.tsx';
import { renderApplicationDeclinedEmail } from './templates/application-declined-email.tsx';
import { renderApplicationReceivedEmail } from './templates/application-received-email.tsx';
import { renderDataLinkEmail } from './templates/data-link-email.tsx';
import { renderInvitationEmail } from './templates/invitation-email.tsx';
import { renderLobbyEmail } from './templates/lobby-email.tsx';
import { renderPrivateLinkEmail } from './templates/private-link-email.tsx';
import { renderWaitlistJoinedEmail } from './templates/waitlist-joined-email.tsx';
import { renderWebhookDisabledEmail } from './templates/webhook-disabled-email.tsx';
import { renderWelcomeEmail } from './templates/welcome-email.tsx';
import { withFooterLinks } from './templates/layout.tsx';

/** What an email's link is built from besides its payload. */
interface EmailLinkContext {
  /** PUBLIC_URL: the web app's address. */
  publicUrl: string;
  /** APP_SECRET: unseals the payload's secrets and signs invitation links. */
  secret: string;
  locale: Locale;
}

/** What every email is rendered with besides its payload and link. */
interface EmailFrameContext {
  locale: Locale;
  /** The imprint's company (COMPANY_* settings, ADR 060). */
  company: Company;
}

interface EmailTemplateEntry<P> {
  payload: z.ZodType<P>;
  /** The address on the site the email links to; null for an email that links only to the shop, or nowhere. */
  url(payload: P, context: EmailLinkContext): string | null;
  render(payload: P, frame: EmailFrameContext, url: string | null, context: EmailLinkContext): Promise<RenderedEmail>;
}

/** The status link of a payload that carries its sealed reference (ADR 063); null for a row queued before. */
function statusLink(payload: { sealedStatusReference?: string | undefined }, { publicUrl, secret, locale }: EmailLinkContext): string | null {
  return payload.sealedStatusReference ? statusUrl(publicUrl, locale, unsealFromOutbox(payload.sealedStatusReference, secret)) : null;
}

/** The link of an email that has one (its `url` never answers null). */
function linked(url: string | null): string {
  if (url === null) throw new Error('this email needs its link');
  return url;
}

const EMAIL_TEMPLATES: { [T in EmailTemplate]: EmailTemplateEntry<EmailPayload<T>> } = {
  activation: {
    payload: OUTBOX_PAYLOADS.activation,
    url: (payload, { publicUrl, secret, locale }) => activationUrl(publicUrl, locale, unsealFromOutbox(payload.sealedActivationId, secret)),
    render: (payload, frame, url) =>
      renderActivationEmail({ ...frame, firstName: payload.firstName, inviterName: payload.inviterName, activationUrl: linked(url), expiresAt: new Date(payload.expiresAt) }),
  },
  invitation: {
    payload: OUTBOX_PAYLOADS.invitation,
    // Signed up to the code's expiry: the person's own link, single use by the code's one place (ADR 041).
    url: (payload, { publicUrl, secret, locale }) =>
      invitationUrl(publicUrl, locale, payload.code, signValidityTimestamp(payload.code, new Date(payload.expiresAt), secret)),
    render: (payload, frame, url, context) =>
      renderInvitationEmail({
        ...frame,
        code: payload.code,
        invitationUrl: linked(url),
        expiresAt: new Date(payload.expiresAt),
        reason: payload.reason,
        statusUrl: statusLink(payload, context),
      }),
  },
  lobby: {
    payload: OUTBOX_PAYLOADS.lobby,
    // The short reference (ADR 060); a row queued before it carries only the signed token.
    url: (payload, { publicUrl, secret, locale }) => lobbyUrl(publicUrl, locale, unsealFromOutbox(payload.sealedReference ?? payload.sealedToken, secret)),
    render: (payload, frame, url) => renderLobbyEmail({ ...frame, lobbyUrl: linked(url), expiresAt: new Date(payload.expiresAt) }),
  },
  'private-link': {
    payload: OUTBOX_PAYLOADS['private-link'],
    url: (payload, { publicUrl, secret, locale }) =>
      invitationUrl(publicUrl, locale, payload.linkCode, signValidityTimestamp(payload.linkCode, new Date(payload.expiresAt), secret)),
    render: (payload, frame, url) =>
      renderPrivateLinkEmail({ ...frame, firstName: payload.firstName, pausedCode: payload.pausedCode, linkUrl: linked(url), expiresAt: new Date(payload.expiresAt) }),
  },
  'application-received': {
    payload: OUTBOX_PAYLOADS['application-received'],
    url: (payload, context) => statusLink(payload, context),
    render: (_payload, frame, url) => renderApplicationReceivedEmail({ ...frame, statusUrl: url }),
  },
  'application-declined': {
    payload: OUTBOX_PAYLOADS['application-declined'],
    url: (payload, context) => lobbyUrl(context.publicUrl, context.locale, unsealFromOutbox(payload.sealedLobbyReference ?? payload.sealedLobbyToken, context.secret)),
    render: (payload, frame, url, context) =>
      renderApplicationDeclinedEmail({
        ...frame,
        reason: payload.reason,
        reapplyAfter: new Date(payload.reapplyAfter),
        lobbyUrl: linked(url),
        lobbyExpiresAt: new Date(payload.lobbyExpiresAt),
        statusUrl: linked(statusLink(payload, context)),
      }),
  },
  'waitlist-joined': {
    payload: OUTBOX_PAYLOADS['waitlist-joined'],
    url: (payload, { publicUrl, secret, locale }) => waitlistLeaveUrl(publicUrl, locale, unsealFromOutbox(payload.sealedLeaveReference, secret)),
    render: (payload, frame, url, context) => renderWaitlistJoinedEmail({ ...frame, leaveUrl: linked(url), statusUrl: statusLink(payload, context) }),
  },
  'data-link': {
    payload: OUTBOX_PAYLOADS['data-link'],
    url: (payload, { publicUrl, secret, locale }) => dataUrl(publicUrl, locale, unsealFromOutbox(payload.sealedReference, secret)),
    render: (payload, frame, url) => renderDataLinkEmail({ ...frame, dataUrl: linked(url), expiresAt: new Date(payload.expiresAt) }),
  },
  'webhook-disabled': {
    payload: OUTBOX_PAYLOADS['webhook-disabled'],
    // The console is not under a language segment (ADR 059).
    url: (_payload, { publicUrl }) => `${publicUrl}/admin/webhooks`,
    render: (payload, frame, url) =>
      renderWebhookDisabledEmail({ ...frame, endpointHost: payload.endpointHost, description: payload.description, failingSince: new Date(payload.failingSince), consoleUrl: linked(url) }),
  },
  welcome: {
    payload: OUTBOX_PAYLOADS.welcome,
    url: () => null,
    render: ({ firstName, voucher }, frame) =>
      renderWelcomeEmail({ ...frame, firstName, voucher: { ...voucher, validUntil: new Date(voucher.validUntil) } }),
  },
};

const isEmailTemplate = (template: string): template is EmailTemplate => Object.hasOwn(EMAIL_TEMPLATES, template);

/** The email an outbox row stands for, in its language (English for a language no longer offered). */
export async function renderOutboxEmail(
  row: Pick<EmailOutboxRow, 'template' | 'locale' | 'payload'>,
  env: {
    publicUrl: string;
    secret: string;
    company?: Company;
    /** Makes the recipient's "manage my data" reference (ADR 066), once the payload is known to be good. */
    dataReference?: (() => Promise<string>) | undefined;
  },
): Promise<RenderedEmail> {
  if (!isEmailTemplate(row.template)) throw new Error(`unknown email template ${row.template}`);
  const entry: EmailTemplateEntry<unknown> = EMAIL_TEMPLATES[row.template];
  const locale = isLocale(row.locale) ? row.locale : 'en';
  const payload = entry.payload.parse(JSON.parse(row.payload));
  const context = { publicUrl: env.publicUrl, secret: env.secret, locale };
  // The footer's "manage my data" link (issue 24 §2, ADR 066), for the door's emails to people without an account.
  const manageDataUrl = env.dataReference ? dataUrl(env.publicUrl, locale, await env.dataReference()) : null;
  return withFooterLinks({ manageDataUrl }, () => entry.render(payload, { locale, company: env.company ?? COMPANY }, entry.url(payload, context), context));
}

/** The door's emails to people without an account (applicants, waitlisters, pending invitees): their footer links to their data (ADR 066). */
export const MANAGE_DATA_TEMPLATES: ReadonlySet<string> = new Set<EmailTemplate>(['activation', 'lobby', 'application-received', 'application-declined', 'waitlist-joined', 'invitation']);
