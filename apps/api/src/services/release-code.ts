/**
 * `code release --code X` (issue 12 §4, ADR 043): the operator found the code's traffic honest.
 * The quarantine ends (signals before now no longer count), and the registrations held on it
 * register for real, oldest first, as they would have: a pending member and the activation email
 * each, while the code has places (a registration past them hears nothing more and is dropped,
 * as one refused at the time would have been).
 */
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';
import type { Logger } from '../logger.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { runRegistration } from './register-member.ts';
import type { HeldSubmission } from './registration/hold-registration.ts';

export interface ReleaseReport {
  code: string;
  /** Held registrations now registered (pending with an email, or active when a provider vouched). */
  registered: number;
  /** Held registrations the code or their data no longer allowed. */
  dropped: number;
}

/** Written with the end of the quarantine, in its transaction (the console's audit entry). */
type OnRelease = (trx: Transaction<Database>, released: { code: string; quarantinedAt: string; held: number }) => Promise<void>;

export async function releaseCode(
  deps: { db: Db; secret: string; referrerBlocklist: readonly string[]; outboxSignal?: OutboxSignal; logger?: Logger },
  rawCode: string,
  now: Date = new Date(),
  onRelease?: OnRelease,
): Promise<Result<ReleaseReport, string>> {
  const code = normalizeRegistrationCode(rawCode);
  const row = await deps.db.selectFrom('registration_codes').select(['id', 'quarantined_at']).where('code', '=', code).executeTakeFirst();
  if (!row) return fail(`no registration code ${code}`);
  const quarantinedAt = row.quarantined_at;
  if (!quarantinedAt) return fail(`${code} is not quarantined`);
  // Only one release registers the held ones: a second one at the same time finds the quarantine over.
  const ended = await deps.db.transaction().execute(async (trx) => {
    const cleared = await trx
      .updateTable('registration_codes')
      .set({ quarantined_at: null, signals_since: now.toISOString() })
      .where('id', '=', row.id)
      .where('quarantined_at', 'is not', null)
      .executeTakeFirst();
    if (Number(cleared.numUpdatedRows) === 0) return false;
    if (onRelease) {
      const { held } = await trx.selectFrom('held_registrations').select((eb) => eb.fn.countAll<string | number>().as('held')).where('registration_code_id', '=', row.id).executeTakeFirstOrThrow();
      await onRelease(trx, { code, quarantinedAt, held: Number(held) });
    }
    return true;
  });
  if (!ended) return fail(`${code} is not quarantined`);
  const held = await deps.db
    .selectFrom('held_registrations')
    .select(['id', 'submission'])
    .where('registration_code_id', '=', row.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  let registered = 0;
  for (const entry of held) {
    const { input, social } = JSON.parse(entry.submission) as HeldSubmission;
    // As the person sent it, without the gate (they passed it) and without counting it again.
    const run = await runRegistration({ ...deps, now }, input, social);
    if (run.outcome === 'FORM_FINISHED' || run.outcome === 'ACTIVATED') registered += 1;
    await deps.db.deleteFrom('held_registrations').where('id', '=', entry.id).execute();
  }
  deps.logger?.info({ registered, dropped: held.length - registered }, 'code released from quarantine');
  return ok({ code, registered, dropped: held.length - registered });
}
