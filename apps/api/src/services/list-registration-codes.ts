/** All registration codes with their inviter, usage and state (admin CLI `code list`). */
import type { Db } from '../db/connect.ts';
import type { Customization } from '@velvet/validation/customization';
import type { MemberStatus } from '../db/schema.ts';

type RegistrationCodeState = 'valid' | 'expired' | 'no balance' | 'full' | 'disabled' | 'inviter invalid' | 'quarantined';

export interface RegistrationCodeSummary {
  code: string;
  inviter: string;
  inviterStatus: MemberStatus;
  balance: number;
  pending: number;
  expiresAt: string | null;
  customization: Customization | null;
  landingSlug: string | null;
  requiresValidityTimestamp: boolean;
  state: RegistrationCodeState;
}

function registrationCodeState(
  row: Pick<RegistrationCodeSummary, 'balance' | 'pending' | 'expiresAt' | 'inviterStatus'> & { disabled: boolean; quarantined: boolean },
  now: Date,
): RegistrationCodeState {
  if (row.disabled) return 'disabled';
  if (row.quarantined) return 'quarantined';
  if (row.inviterStatus !== 'active') return 'inviter invalid';
  if (row.expiresAt !== null && Date.parse(row.expiresAt) <= now.getTime()) return 'expired';
  if (row.balance <= 0) return 'no balance';
  if (row.pending >= row.balance) return 'full';
  return 'valid';
}

export async function listRegistrationCodes(db: Db, now: Date = new Date()): Promise<RegistrationCodeSummary[]> {
  const rows = await db
    .selectFrom('registration_codes as rc')
    .innerJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
    .select((eb) => [
      'rc.code',
      'rc.balance',
      'rc.expires_at',
      'rc.customization',
      'rc.landing_slug',
      'rc.requires_validity_timestamp',
      'rc.disabled',
      'rc.quarantined_at',
      'inviter.first_name',
      'inviter.status',
      eb
        .selectFrom('members as p')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .whereRef('p.registration_code_id', '=', 'rc.id')
        .where('p.status', '=', 'pending')
        .as('pending'),
    ])
    .orderBy('rc.created_at')
    .orderBy('rc.code')
    .execute();
  return rows.map((row) => {
    const summary = {
      code: row.code,
      inviter: row.first_name,
      inviterStatus: row.status,
      balance: row.balance,
      pending: Number(row.pending ?? 0),
      expiresAt: row.expires_at,
      customization: row.customization,
      landingSlug: row.landing_slug,
      requiresValidityTimestamp: row.requires_validity_timestamp,
    };
    return { ...summary, state: registrationCodeState({ ...summary, disabled: row.disabled, quarantined: row.quarantined_at !== null }, now) };
  });
}
