/**
 * Customer service's two changes to a pending registration (issue 13, ADR 048), each in one
 * transaction with its audit record:
 * - resend the activation: a new link through the outbox, the older ones superseded (voided) —
 *   counted with the visitor's own resends, at most RESENDS_PER_HOUR an hour, so nobody (support
 *   included) can fill a person's inbox;
 * - free the place: the registration's current link ends now and so does the place it held on
 *   its code (`place_held_until`, ADR 036): the code's balance has the place back at once, as
 *   when a link expires by itself. The person can register again while the code has a place.
 */
import { isLocale } from '@velvet/i18n/locales';
import type { UserError } from '@velvet/validation/user-errors';
import type { Db } from '../db/connect.ts';
import { lockRow } from '../db/lock.ts';
import { issueActivation } from '../domain/activation-links.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { privacySubject } from '../domain/privacy-subject.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { RESENDS_PER_HOUR, memberToRemind } from './registration/resend-activation.ts';

export interface SupportDeps {
  db: Db;
  secret: string;
  now: Date;
  outboxSignal?: OutboxSignal;
}

const refused = (code: UserError['code'], messageId: string): Result<true> => fail({ code, field: null, messageId });
const NOT_FOUND = () => refused('MEMBER_NOT_FOUND', 'admin.members.notFound');
const NOT_PENDING = () => refused('MEMBER_NOT_PENDING', 'admin.members.notPending');

/** At most 64 characters of an id: anything longer is no member's. */
const memberIdOf = (id: string) => id.trim().slice(0, 64);

export async function resendActivationBySupport(deps: SupportDeps, actor: AuditActor, input: { memberId: string }): Promise<Result<true>> {
  const memberId = memberIdOf(input.memberId);
  const { now } = deps;
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Result<true>> => {
    if (!(await lockRow(trx, 'members', memberId))) return NOT_FOUND();
    const { member, recentResends } = await memberToRemind(trx, memberId, now);
    if (member.status !== 'pending') return NOT_PENDING();
    if (recentResends >= RESENDS_PER_HOUR) return refused('RESEND_LIMIT_REACHED', 'admin.members.resendLimit');
    const issued = await issueActivation(
      trx,
      {
        memberId,
        recipient: member.email,
        locale: isLocale(member.language) ? member.language : 'en',
        firstName: member.first_name || null,
        inviterName: member.inviter_name,
        reason: 'resend',
      },
      { secret: deps.secret, now },
    );
    await recordAudit(
      trx,
      actor,
      {
        action: 'member.activation-resent',
        target: privacySubject(member.email, deps.secret),
        details: { memberId, before: { placeHeldUntil: member.place_held_until }, after: { placeHeldUntil: issued.expiresAt, outboxId: issued.outboxId } },
      },
      now,
    );
    return ok(true);
  });
  if (outcome.ok) deps.outboxSignal?.notify();
  return outcome;
}

export async function freePlaceBySupport(deps: SupportDeps, actor: AuditActor, input: { memberId: string }): Promise<Result<true>> {
  const memberId = memberIdOf(input.memberId);
  const at = deps.now.toISOString();
  return deps.db.transaction().execute(async (trx): Promise<Result<true>> => {
    // The code's row first, then the member's: the lock order of every registration (renew-place.ts).
    const found = await trx.selectFrom('members').select(['registration_code_id']).where('id', '=', memberId).executeTakeFirst();
    if (!found) return NOT_FOUND();
    if (found.registration_code_id) await lockRow(trx, 'registration_codes', found.registration_code_id);
    if (!(await lockRow(trx, 'members', memberId))) return NOT_FOUND();
    const member = await trx
      .selectFrom('members as m')
      .leftJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
      .select(['m.email', 'm.status', 'm.place_held_until', 'rc.code'])
      .where('m.id', '=', memberId)
      .executeTakeFirstOrThrow();
    if (member.status !== 'pending') return NOT_PENDING();
    if (member.place_held_until !== null && member.place_held_until <= at) return refused('PLACE_NOT_HELD', 'admin.members.placeNotHeld');
    // The current link ends now: it could otherwise still activate the account on a place it no longer holds.
    await trx
      .updateTable('activations')
      .set({ expires_at: at })
      .where('member_id', '=', memberId)
      .where('used_at', 'is', null)
      .where('superseded_at', 'is', null)
      .where('expires_at', '>', at)
      .execute();
    await trx.updateTable('members').set({ place_held_until: at }).where('id', '=', memberId).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: 'member.place-freed',
        target: privacySubject(member.email, deps.secret),
        details: { memberId, code: member.code, before: { placeHeldUntil: member.place_held_until }, after: { placeHeldUntil: at } },
      },
      deps.now,
    );
    return ok(true);
  });
}
