import type { RegisterInput } from '@velvet/validation/registration';
import type { Customization } from '@velvet/validation/customization';
import type { Kysely } from 'kysely';
import { lockRow } from '../../db/lock.ts';
import type { Database } from '../../db/schema.ts';
import { activatePendingMember } from '../../domain/member-activation.ts';
import { recordConsent, recordSocialDetails } from './member-writes.ts';
import { answer, publishActive } from './outcomes.ts';
import type { RegisterDeps, RegistrationRun, SocialRegistrationExtras, ValidFields } from './outcomes.ts';

/**
 * A pending member's address, now vouched for by an identity provider. Answering
 * ACCOUNT_PENDING would send the person back to an inbox whose ownership the provider has
 * just confirmed — the activation link would prove nothing more — so the pending member is
 * activated instead, exactly as their link would have done (the place they held on their
 * own code is spent, their links stop working, the voucher follows their code). The data
 * of this submission replaces what the pending registration held: whoever typed that
 * address in earlier did not prove they own it, the person now does (this also disarms a
 * pre-registration of someone else's address with names of the registrant's choosing).
 */
export async function activateKnownPendingMember(
  deps: RegisterDeps,
  memberId: string,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras,
  now: Date,
): Promise<RegistrationRun> {
  const known = await deps.db.selectFrom('members').select('registration_code_id').where('id', '=', memberId).executeTakeFirst();
  if (!known) return answer('ACCOUNT_ACTIVE', null);
  const result = await deps.db.transaction().execute(async (trx): Promise<RegistrationRun> => {
    // The same lock order as activateAccount: the code's row, then the member's.
    if (known.registration_code_id) await lockRow(trx, 'registration_codes', known.registration_code_id);
    if (!(await lockRow(trx, 'members', memberId))) return answer('ACCOUNT_ACTIVE', null);
    const member = await trx
      .selectFrom('members as m')
      .leftJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
      .select(['m.status', 'm.first_name', 'm.last_name', 'm.gender', 'm.registration_code_id', 'rc.customization'])
      .where('m.id', '=', memberId)
      .executeTakeFirstOrThrow();
    // Activated (or blocked) meanwhile, e.g. through the emailed link.
    if (member.status !== 'pending') return answer('ACCOUNT_ACTIVE', null);
    return activateLocked(trx, memberId, member, input, values, social, now);
  });
  if (result.outcome === 'ACTIVATED') {
    deps.logger?.info({ memberId }, 'registration: pending member activated (verified address)');
    await publishActive(deps, memberId);
  }
  return result;
}

/** activateKnownPendingMember's writes, under its locks (also renewPlace's, on the code it moved the member to). */
export async function activateLocked(
  trx: Kysely<Database>,
  memberId: string,
  member: { first_name: string; last_name: string; gender: string | null; registration_code_id: string | null; customization: Customization | null },
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras,
  now: Date,
): Promise<RegistrationRun> {
  const firstName = values.firstName || member.first_name;
  await trx
    .updateTable('members')
    .set({
      first_name: firstName,
      last_name: values.lastName || member.last_name,
      gender: values.gender ?? member.gender,
      country: values.country,
      language: values.language,
      newsletter: input.newsletter,
    })
    .where('id', '=', memberId)
    .execute();
  await recordConsent(trx, memberId, values.country, input, now);
  await recordSocialDetails(trx, memberId, values.shoppingPreferences, social, now);
  const voucher = await activatePendingMember(
    trx,
    { id: memberId, registrationCodeId: member.registration_code_id, customization: member.customization },
    now,
  );
  return { ...answer('ACTIVATED', memberId), voucher, firstName: firstName || null };
}
