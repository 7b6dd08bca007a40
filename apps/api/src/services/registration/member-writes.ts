/** The rows every registration path writes beside the member, and the place check under the code's lock. */
import { randomUUID } from 'node:crypto';
import type { RegisterInput, ShoppingPreference } from '@velvet/validation/registration';
import type { Kysely, Transaction } from 'kysely';
import { engineOf } from '../../db/engine.ts';
import type { Database } from '../../db/schema.ts';
import { placesFull } from '../../domain/invitation-places.ts';
import type { SocialRegistrationExtras } from './outcomes.ts';

/**
 * The code a registration takes a place on, with its inviter's name, locked for the rest of
 * the transaction (the code's row first, as everywhere) in the same statement: `FOR UPDATE OF
 * rc` on PostgreSQL; on SQLite the transaction holds the database's write lock already
 * (db/lock.ts). Undefined when the code is unknown.
 */
export async function lockCodeWithInviter(trx: Transaction<Database>, code: string) {
  const query = trx
    .selectFrom('registration_codes as rc')
    .innerJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
    .select(['rc.id', 'rc.customization', 'rc.balance', 'rc.pending_members', 'rc.quarantined_at', 'rc.revoked_at', 'rc.revoked_reason', 'inviter.first_name as inviter_name'])
    .where('rc.code', '=', code);
  return (engineOf(trx as unknown as Kysely<unknown>) === 'postgres' ? query.forUpdate('rc') : query).executeTakeFirst();
}

/**
 * Under the code's row lock: the code error when it has no free place, else null. `code` is the
 * row lockCodeWithInviter read in the same statement that took the lock (its latest version).
 */
export async function placeTaken(
  trx: Kysely<Database>,
  code: { id: string; balance: number; pending_members: number },
  now: Date,
): Promise<'REGISTRATION_CODE_NO_BALANCE_LEFT' | 'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS' | null> {
  if (code.balance <= 0) return 'REGISTRATION_CODE_NO_BALANCE_LEFT';
  // Pending registrations hold places until their link expires; an activation at once spends one.
  if (await placesFull(trx, code, now)) return 'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS';
  return null;
}

/** The consent given with this submission (a new row each time: consents are a history). */
export async function recordConsent(trx: Kysely<Database>, memberId: string, country: string, input: RegisterInput, now: Date) {
  await trx
    .insertInto('consents')
    .values({
      id: randomUUID(),
      member_id: memberId,
      country,
      terms_pk_string: input.termsPkString,
      data_policy_pk_string: input.dataPolicyPkString,
      newsletter: input.newsletter,
      accepted_at: now.toISOString(),
    })
    .execute();
}

/**
 * The shopping preferences, and the provider account — the latter only for a verified
 * address: linking an account whose address nobody proved would let whoever signed in with
 * it into the account the address's owner activates later (pre-account hijacking).
 * An identity already linked (to this or another member) stays as it is.
 */
export async function recordSocialDetails(
  trx: Kysely<Database>,
  memberId: string,
  preferences: readonly ShoppingPreference[],
  social: SocialRegistrationExtras,
  now: Date,
) {
  if (preferences.length > 0) {
    await trx
      .insertInto('member_preferences')
      .values(preferences.map((preference) => ({ member_id: memberId, preference })))
      .onConflict((oc) => oc.columns(['member_id', 'preference']).doNothing())
      .execute();
  }
  if (social.emailVerified) {
    await trx
      .insertInto('member_social_identities')
      .values({ provider: social.identity.provider, subject: social.identity.subject, member_id: memberId, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
      .execute();
  }
}
