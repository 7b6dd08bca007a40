import type { RegisterInput } from '@velvet/validation/registration';
import { lockRow } from '../../db/lock.ts';
import { issueActivation } from '../../domain/activation-links.ts';
import { holdsPlace } from '../../domain/invitation-places.ts';
import { activateLocked } from './activate-pending-member.ts';
import { createMember } from './create-member.ts';
import { lockAdmittedCode } from './member-writes.ts';
import { ERRORS_ONLY, answer, publishActive } from './outcomes.ts';
import type { RegisterDeps, RegistrationRun, SocialRegistrationExtras, ValidFields } from './outcomes.ts';

/**
 * A pending member whose link expired registers again: their place went back to their
 * code, so they take a free one on the code used now — under that code's lock, like a new
 * address — and the member moves to it. Then a fresh link and email (ACCOUNT_PENDING, no
 * id: the address was known), or, vouched for, the activation on that code (ACTIVATED).
 * Their data stays as it was, as with a resend; the vouched-for path replaces it as in
 * activateKnownPendingMember.
 */
export async function renewPlace(
  deps: RegisterDeps,
  memberId: string,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras | null,
  now: Date,
): Promise<RegistrationRun> {
  const result = await deps.db.transaction().execute(async (trx) => {
    // The same lock order as everywhere: the code's row, then the member's.
    const admitted = await lockAdmittedCode(trx, deps, input, now);
    if (admitted.refused) return { run: ERRORS_ONLY([], admitted.refused) };
    const codeRow = admitted.code;
    if (!(await lockRow(trx, 'members', memberId))) return { run: null };
    const member = await trx
      .selectFrom('members')
      .select(['email', 'first_name', 'last_name', 'gender', 'status', 'registration_code_id'])
      .where('id', '=', memberId)
      .executeTakeFirstOrThrow();
    if (member.status !== 'pending') return { run: answer('ACCOUNT_ACTIVE', null) };
    // Renewed by a concurrent registration of the same address meanwhile.
    if (await holdsPlace(trx, memberId, now)) return { run: answer('ACCOUNT_PENDING', null) };
    if (admitted.full.length > 0) return { run: ERRORS_ONLY([], admitted.full) };
    await trx.updateTable('members').set({ registration_code_id: codeRow.id }).where('id', '=', memberId).execute();
    if (social?.emailVerified) {
      const run = await activateLocked(trx, memberId, { ...member, registration_code_id: codeRow.id, customization: codeRow.customization }, input, values, social, now);
      return { run, activated: true };
    }
    const issued = await issueActivation(
      trx,
      {
        memberId,
        recipient: member.email,
        locale: values.language,
        firstName: member.first_name || null,
        inviterName: codeRow.inviter_name,
        reason: 'registration',
      },
      { secret: deps.secret, now },
    );
    return { run: answer('ACCOUNT_PENDING', null), outboxId: issued.outboxId };
  });
  // Deleted meanwhile (the retention pass): the address is new again.
  if (!result.run) return createMember(deps, input, values, social, now);
  if ('activated' in result) {
    deps.logger?.info({ memberId }, 'registration: pending member activated on a renewed place (verified address)');
    await publishActive(deps, memberId);
  } else if ('outboxId' in result) {
    deps.outboxSignal?.notify();
    deps.logger?.info({ memberId, outboxId: result.outboxId }, 'registration: expired registration took a place again');
  }
  return result.run;
}
