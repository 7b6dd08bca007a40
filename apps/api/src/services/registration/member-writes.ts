/** The rows every registration path writes beside the member, and the code's admission under its lock. */
import { randomUUID } from 'node:crypto';
import type { RegisterInput } from '@velvet/validation/registration';
import type { ShoppingPreference } from '@velvet/validation/registration-options';
import { isBlocking, normalizeRegistrationCode } from '@velvet/validation/registration-code';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import type { Kysely, Transaction } from 'kysely';
import { engineOf } from '../../db/engine.ts';
import type { Database } from '../../db/schema.ts';
import { ADMISSION_COLUMNS, admitRegistration, inviterColumn, isPlaceError } from '../../domain/code-admission.ts';
import { placesFull } from '../../domain/invitation-places.ts';
import type { RegisterDeps, SocialRegistrationExtras } from './outcomes.ts';

/**
 * The code a registration takes a place on, with its inviter, locked for the rest of the
 * transaction (the code's row first, as everywhere) in the same statement: `FOR UPDATE OF rc` on
 * PostgreSQL; on SQLite the transaction holds the database's write lock already (db/lock.ts).
 */
function lockCodeWithInviter(trx: Transaction<Database>, code: string) {
  const query = trx
    .selectFrom('registration_codes as rc')
    .select([...ADMISSION_COLUMNS, 'rc.id', 'rc.customization', 'rc.pending_members', 'rc.quarantined_at', (eb) => inviterColumn(eb, 'first_name').as('inviter_name')])
    .where('rc.code', '=', code);
  return (engineOf(trx as unknown as Kysely<unknown>) === 'postgres' ? query.forUpdate('rc') : query).executeTakeFirst();
}

type LockedCode = NonNullable<Awaited<ReturnType<typeof lockCodeWithInviter>>>;

/**
 * The registration's code locked (lockCodeWithInviter), and the code check's admission rules
 * (domain/code-admission.ts) applied again to its row as the lock found it: what changed since
 * the check refuses here. `refused`: the code's blocking errors when one of them is not about
 * its places — nothing may be written then; otherwise `full`: the errors of a code without a
 * free place, for the caller to apply where a place is taken (counted under the lock: no other
 * registration on this code can commit in between).
 */
export async function lockAdmittedCode(
  trx: Transaction<Database>,
  deps: Pick<RegisterDeps, 'secret' | 'referrerBlocklist'>,
  input: RegisterInput,
  now: Date,
): Promise<{ refused: RegistrationCodeError[] } | { refused: null; code: LockedCode; full: RegistrationCodeError[] }> {
  const code = await lockCodeWithInviter(trx, normalizeRegistrationCode(input.registrationCode));
  const { errors } = admitRegistration(code, input, {
    now,
    secret: deps.secret,
    referrerBlocklist: deps.referrerBlocklist,
    placesFull: code !== undefined && (await placesFull(trx, code, now)),
  });
  const blocking = errors.filter(isBlocking);
  if (!code || blocking.some((error) => !isPlaceError(error))) return { refused: blocking };
  return { refused: null, code, full: blocking };
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
