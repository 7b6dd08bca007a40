/**
 * Mutation.requestActivationLink (UX review of 27 Nov, row 12; ADR 057): the activation error
 * page's "send me a new link". A pending account of the address gets a fresh activation email
 * (resend-activation.ts: older links void, at most RESENDS_PER_HOUR an hour per person, the
 * visitor's own and support's counted together). The answer is the same whether the address has
 * a pending account, an active one or none, so it tells no one who is a member; only a
 * malformed address is refused (validation.email / validation.emailTooLong). No email ever goes
 * to an address without a pending account, so the form cannot send mail to strangers.
 */
import type { Locale } from '@velvet/i18n/locales';
import { email as emailField } from '@velvet/validation/registration';
import type { Db } from '../db/connect.ts';
import type { Logger } from '../logger.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { languageOrDefault } from './join-waitlist.ts';
import type { FieldError } from './registration/outcomes.ts';
import { resendActivation } from './registration/resend-activation.ts';

export interface RequestActivationLinkResult {
  /** True for every well-formed address, whether or not an email went out. */
  sent: boolean;
  fieldErrors: FieldError[];
}

export async function requestActivationLink(
  deps: { db: Db; secret: string; outboxSignal?: OutboxSignal; logger?: Logger; now?: Date },
  input: { email: string; language?: string | null },
): Promise<RequestActivationLinkResult> {
  const parsed = emailField.safeParse(input.email);
  if (!parsed.success) return { sent: false, fieldErrors: [{ field: 'email', code: parsed.error.issues[0]?.message ?? 'validation.email' }] };
  const member = await deps.db.selectFrom('members').select(['id', 'status']).where('email', '=', parsed.data).executeTakeFirst();
  if (member?.status === 'pending') {
    const language: Locale = languageOrDefault(input.language);
    await resendActivation({ ...deps, referrerBlocklist: [] }, member.id, language, deps.now ?? new Date());
  } else {
    deps.logger?.info({}, 'activation link: no pending account for the address, no email');
  }
  return { sent: true, fieldErrors: [] };
}
