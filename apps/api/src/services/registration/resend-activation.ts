/**
 * A pending member's address registered again: a fresh link supersedes the older ones and the
 * email goes out again — at most RESENDS_PER_HOUR times an hour; beyond, none, and the answer
 * says so (resendLimitReached).
 */
import type { Locale } from '@velvet/i18n/locales';
import type { Transaction } from 'kysely';
import { lockRow } from '../../db/lock.ts';
import type { Database } from '../../db/schema.ts';
import { issueActivation } from '../../domain/activation-links.ts';
import { answer } from './outcomes.ts';
import type { RegisterDeps, RegistrationRun } from './outcomes.ts';

/** Activation emails a pending member can have sent again per hour; beyond, the outcome is the same but no email goes out (resendLimitReached). */
export const RESENDS_PER_HOUR = 3;

/**
 * What a resend needs of a member (read under their row lock, which the caller holds): their
 * address, names and status, and how many resends the last hour already saw — the visitor's
 * own and support's, counted together.
 */
export async function memberToRemind(trx: Transaction<Database>, memberId: string, now: Date) {
  const member = await trx
    .selectFrom('members as m')
    .leftJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
    .leftJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
    .select(['m.email', 'm.first_name', 'm.status', 'm.language', 'm.place_held_until', 'inviter.first_name as inviter_name'])
    .where('m.id', '=', memberId)
    .executeTakeFirstOrThrow();
  const recent = await trx
    .selectFrom('activations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('member_id', '=', memberId)
    .where('reason', '=', 'resend')
    .where('created_at', '>', new Date(now.getTime() - 60 * 60 * 1000).toISOString())
    .executeTakeFirstOrThrow();
  return { member, recentResends: Number(recent.n) };
}

export async function resendActivation(deps: RegisterDeps, memberId: string, language: Locale, now: Date): Promise<RegistrationRun> {
  const outboxId = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockRow(trx, 'members', memberId))) return null;
    const { member, recentResends } = await memberToRemind(trx, memberId, now);
    if (member.status !== 'pending' || recentResends >= RESENDS_PER_HOUR) return null;
    const issued = await issueActivation(
      trx,
      {
        memberId,
        recipient: member.email,
        locale: language,
        firstName: member.first_name || null,
        inviterName: member.inviter_name,
        reason: 'resend',
      },
      { secret: deps.secret, now },
    );
    return issued.outboxId;
  });
  if (outboxId) {
    deps.outboxSignal?.notify();
    deps.logger?.info({ memberId, outboxId }, 'registration: activation email sent again');
    return answer('ACCOUNT_PENDING', null);
  }
  deps.logger?.info({ memberId }, 'registration: resend limit reached, no email');
  return { ...answer('ACCOUNT_PENDING', null), resendLimitReached: true };
}
