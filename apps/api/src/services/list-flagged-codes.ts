/** `code flagged` (issue 12 §4, ADR 043): the quarantined codes, their signals and held registrations, for an operator's decision. */
import type { Db } from '../db/connect.ts';
import { readCodeSignals } from '../domain/code-signals.ts';
import type { CodeSignals } from '../domain/code-signals.ts';

export interface FlaggedCode {
  code: string;
  inviter: string;
  balance: number;
  quarantinedAt: string;
  /** Registrations held for review on it. */
  held: number;
  signals: CodeSignals;
}

export async function listFlaggedCodes(db: Db, now: Date = new Date()): Promise<FlaggedCode[]> {
  const rows = await db
    .selectFrom('registration_codes as rc')
    .innerJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
    .select((eb) => [
      'rc.id',
      'rc.code',
      'rc.balance',
      'rc.quarantined_at',
      'inviter.first_name',
      eb
        .selectFrom('held_registrations as h')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .whereRef('h.registration_code_id', '=', 'rc.id')
        .as('held'),
    ])
    .where('rc.quarantined_at', 'is not', null)
    .orderBy('rc.quarantined_at', 'desc')
    .execute();
  return Promise.all(
    rows.map(async (row) => ({
      code: row.code,
      inviter: row.first_name,
      balance: row.balance,
      quarantinedAt: row.quarantined_at ?? '',
      held: Number(row.held ?? 0),
      // Signals of the day before the quarantine, as the operator needs them to decide.
      signals: await readCodeSignals(db, { id: row.id, signalsSince: null }, now),
    })),
  );
}
