import { randomUUID } from 'node:crypto';
import type { RegisterInput } from '@velvet/validation/registration';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { activationExpiry, issueActivation } from '../../domain/activation-links.ts';
import { grantWelcomeVoucher, spendInvitation } from '../../domain/member-activation.ts';
import { isLinkMadeSince } from '../../domain/registration-link.ts';
import { enqueueWebhookEvent } from '../../webhooks/events.ts';
import { holdRegistration } from './hold-registration.ts';
import { lockAdmittedCode, recordConsent, recordSocialDetails } from './member-writes.ts';
import { ERRORS_ONLY, answer, publishActive } from './outcomes.ts';
import type { RegisterDeps, RegistrationRun, SocialRegistrationExtras, ValidFields } from './outcomes.ts';

/**
 * A new member on the code: pending with an activation email, or — the address vouched for
 * by an identity provider — active at once with the invitation spent and the welcome voucher.
 */
export async function createMember(
  deps: RegisterDeps,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras | null,
  now: Date,
): Promise<RegistrationRun> {
  const code = normalizeRegistrationCode(input.registrationCode);
  const at = now.toISOString();
  const activeAtOnce = social?.emailVerified === true;
  const created = await deps.db.transaction().execute(async (trx) => {
    // Withdrawn, replaced (ADR 046) or otherwise refused since the check: refused under the lock too.
    const admitted = await lockAdmittedCode(trx, deps, input, now);
    if (admitted.refused) return { codeErrors: admitted.refused };
    const codeRow = admitted.code;
    // A quarantined code (ADR 043): held for review, unless it came through the inviter's fresh private link.
    if (codeRow.quarantined_at && !isLinkMadeSince(code, input.validityTimestamp, new Date(codeRow.quarantined_at), deps.secret, now)) {
      await holdRegistration(trx, codeRow.id, input, values, social, now);
      return { codeErrors: null, held: true as const };
    }
    if (admitted.full.length > 0) return { codeErrors: admitted.full };

    const memberId = randomUUID();
    await trx
      .insertInto('members')
      .values({
        id: memberId,
        email: values.email,
        first_name: values.firstName,
        last_name: values.lastName,
        gender: values.gender,
        country: values.country,
        language: values.language,
        status: activeAtOnce ? 'active' : 'pending',
        registration_code_id: codeRow.id,
        newsletter: input.newsletter,
        created_at: at,
        activated_at: activeAtOnce ? at : null,
        // Pending: the place is held until the first link, issued below, expires.
        place_held_until: activeAtOnce ? null : activationExpiry(now),
        mail_domain_unverified: values.mailDomainUnverified,
      })
      .execute();
    await recordConsent(trx, memberId, values.country, input, now);
    await enqueueWebhookEvent(
      trx,
      { type: 'member.registered', data: { memberId, status: activeAtOnce ? 'active' : 'pending', code, country: values.country, language: values.language } },
      now,
    );
    if (activeAtOnce) await enqueueWebhookEvent(trx, { type: 'member.activated', data: { memberId, country: values.country, language: values.language } }, now);
    if (social) await recordSocialDetails(trx, memberId, values.shoppingPreferences, social, now);
    if (activeAtOnce) {
      await spendInvitation(trx, codeRow.id);
      const voucher = await grantWelcomeVoucher(trx, memberId, codeRow.customization, now);
      return { codeErrors: null, memberId, outboxId: null, voucher };
    }
    const { outboxId } = await issueActivation(
      trx,
      {
        memberId,
        recipient: values.email,
        locale: values.language,
        firstName: values.firstName || null,
        inviterName: codeRow.inviter_name,
        reason: 'registration',
      },
      { secret: deps.secret, now, firstLink: true },
    );
    return { codeErrors: null, memberId, outboxId, voucher: null };
  });

  if (created.codeErrors) return ERRORS_ONLY([], created.codeErrors);
  if ('held' in created) {
    deps.logger?.info({}, 'registration: held for review (quarantined code)');
    return answer('PENDING_REVIEW', null);
  }
  if (created.voucher) {
    deps.logger?.info({ memberId: created.memberId }, 'registration: member active at once (verified address)');
    await publishActive(deps, created.memberId);
    return { ...answer('ACTIVATED', created.memberId), voucher: created.voucher, firstName: values.firstName || null };
  }
  deps.outboxSignal?.notify();
  deps.logger?.info({ memberId: created.memberId, outboxId: created.outboxId }, 'registration: pending member created');
  return answer('FORM_FINISHED', created.memberId);
}
