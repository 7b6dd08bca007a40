/**
 * Mutation.activateAccount (spec §4): the emailed link makes a pending member active.
 * In one transaction (locking the code's row, then the member's): the link is used, the
 * member active, the code's balance one lower (never below 0: a pending member's place was
 * held, so activation still succeeds when the balance is meanwhile 0), the member's other
 * links superseded, the welcome voucher created and its email queued. Then ACTIVE is published for
 * Subscription.registrationStatus.
 */
import { isLocale } from '@velvet/i18n/locales';
import type { Db } from '../db/connect.ts';
import { lockRow } from '../db/lock.ts';
import { TOKEN_PATTERN, hashToken } from '../lib/tokens.ts';
import type { Logger } from '../logger.ts';
import { activatePendingMember } from '../domain/member-activation.ts';
import type { IssuedWelcomeVoucher } from '../domain/member-activation.ts';
import type { RegistrationEvents } from '../domain/registration-events.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';

type ActivationOutcome = 'ACTIVATED' | 'ALREADY_ACTIVE' | 'NOT_FOUND' | 'FAILED';

export interface ActivationResult {
  outcome: ActivationOutcome;
  voucher: IssuedWelcomeVoucher | null;
  firstName: string | null;
  /** The member's language, so the web can answer in it (also on FAILED). */
  language: string | null;
  memberId: string | null;
}

export interface ActivateDeps {
  db: Db;
  events?: RegistrationEvents;
  /** Wakes the outbox worker for the welcome email (ADR 058). */
  outboxSignal?: OutboxSignal;
  logger?: Logger;
  now?: Date;
}

const NOT_FOUND: ActivationResult = { outcome: 'NOT_FOUND', voucher: null, firstName: null, language: null, memberId: null };

export async function activateAccount(deps: ActivateDeps, activationId: string): Promise<ActivationResult> {
  const now = deps.now ?? new Date();
  const at = now.toISOString();
  const token = activationId.trim();
  if (!TOKEN_PATTERN.test(token)) return NOT_FOUND;
  const tokenHash = hashToken(token);

  const found = await deps.db
    .selectFrom('activations as a')
    .innerJoin('members as m', 'm.id', 'a.member_id')
    .select(['a.id', 'a.member_id', 'm.registration_code_id'])
    .where('a.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!found) return NOT_FOUND;

  const result = await deps.db.transaction().execute(async (trx): Promise<ActivationResult> => {
    if (found.registration_code_id) await lockRow(trx, 'registration_codes', found.registration_code_id);
    await lockRow(trx, 'members', found.member_id);
    // Read again under the locks: a concurrent activation may have committed meanwhile.
    const row = await trx
      .selectFrom('activations as a')
      .innerJoin('members as m', 'm.id', 'a.member_id')
      .leftJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
      .select([
        'a.expires_at',
        'a.used_at',
        'a.superseded_at',
        'm.status',
        'm.first_name',
        'm.language',
        'm.registration_code_id',
        'rc.customization',
      ])
      .where('a.id', '=', found.id)
      .executeTakeFirstOrThrow();
    const failed: ActivationResult = {
      outcome: 'FAILED',
      voucher: null,
      firstName: null,
      language: row.language,
      memberId: found.member_id,
    };
    // The member is active already (this link was used, or a newer one was): say so, and
    // the web offers the login, rather than "your attempt failed" (a second click).
    if (row.status === 'active') {
      return { ...failed, outcome: 'ALREADY_ACTIVE', firstName: row.first_name || null };
    }
    if (row.used_at !== null || row.superseded_at !== null) return failed;
    if (Date.parse(row.expires_at) <= now.getTime()) return failed;
    if (row.status !== 'pending') return failed;

    await trx.updateTable('activations').set({ used_at: at }).where('id', '=', found.id).execute();
    const voucher = await activatePendingMember(
      trx,
      { id: found.member_id, registrationCodeId: row.registration_code_id, customization: row.customization },
      now,
    );
    return {
      outcome: 'ACTIVATED',
      voucher,
      firstName: row.first_name || null,
      language: row.language && isLocale(row.language) ? row.language : null,
      memberId: found.member_id,
    };
  });

  if (result.outcome === 'ACTIVATED' && result.memberId) {
    deps.outboxSignal?.notify();
    deps.logger?.info({ memberId: result.memberId }, 'activation: member activated');
    await deps.events?.publish({ memberId: result.memberId, state: 'ACTIVE' }).catch((error: unknown) => {
      deps.logger?.warn({ err: error }, 'activation: could not publish the status change');
    });
  } else {
    deps.logger?.info({ memberId: result.memberId, outcome: result.outcome }, 'activation: refused');
  }
  return result;
}

export type RegistrationStatusState = 'PENDING' | 'ACTIVE';

/** Query.registrationStatus: PENDING or ACTIVE; null for unknown ids (and blocked members, which are not revealed). */
export async function registrationStatus(
  db: Db,
  memberId: string,
): Promise<{ memberId: string; state: RegistrationStatusState } | null> {
  const id = memberId.trim();
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const member = await db.selectFrom('members').select(['id', 'status']).where('id', '=', id.toLowerCase()).executeTakeFirst();
  if (!member || member.status === 'blocked') return null;
  return { memberId: member.id, state: member.status === 'active' ? 'ACTIVE' : 'PENDING' };
}
