/**
 * A pending member's address registered again: a fresh link supersedes the older ones and the
 * email goes out again — at most RESENDS_PER_HOUR times an hour; beyond, silently none.
 */
import type { Locale } from '@velvet/i18n/locales';
import { lockRow } from '../../db/lock.ts';
import { issueActivation } from '../../domain/activation-links.ts';
import { answer } from './outcomes.ts';
import type { RegisterDeps, RegistrationRun } from './outcomes.ts';

/** Activation emails a pending member can have sent again per hour; beyond, the outcome is the same but no email goes out. */
export const RESENDS_PER_HOUR = 3;

export async function resendActivation(deps: RegisterDeps, memberId: string, language: Locale, now: Date): Promise<RegistrationRun> {
  const hourAgo = new Date(now.getTime() - 60 * 60 * 1000).toISOString();
  const outboxId = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockRow(trx, 'members', memberId))) return null;
    const member = await trx
      .selectFrom('members as m')
      .leftJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
      .leftJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
      .select(['m.email', 'm.first_name', 'm.status', 'inviter.first_name as inviter_name'])
      .where('m.id', '=', memberId)
      .executeTakeFirstOrThrow();
    if (member.status !== 'pending') return null;
    const recent = await trx
      .selectFrom('activations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('member_id', '=', memberId)
      .where('reason', '=', 'resend')
      .where('created_at', '>', hourAgo)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= RESENDS_PER_HOUR) return null;
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
  } else {
    deps.logger?.info({ memberId }, 'registration: resend limit reached, no email');
  }
  return answer('ACCOUNT_PENDING', null);
}
