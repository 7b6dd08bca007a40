/**
 * A registration on a quarantined code (issue 12 §4, ADR 043): kept as submitted — nothing else
 * is written, no email goes out, no place is taken — until an operator releases the code
 * (`code release`), when it registers for real. One per address and code.
 */
import { randomUUID } from 'node:crypto';
import type { RegisterInput } from '@velvet/validation/registration';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ERRORS_ONLY, answer } from './outcomes.ts';
import type { RegisterDeps, RegistrationRun, SocialRegistrationExtras, ValidFields } from './outcomes.ts';

/** What a held registration keeps: the form as sent (its proof of work spent) and the provider's word. */
export interface HeldSubmission {
  input: Omit<RegisterInput, 'proofOfWork'>;
  social: SocialRegistrationExtras | null;
}

export async function holdRegistration(
  trx: Kysely<Database>,
  registrationCodeId: string,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras | null,
  now: Date,
): Promise<void> {
  const { proofOfWork: _spent, ...kept } = input;
  const submission: HeldSubmission = { input: kept, social };
  await trx
    .insertInto('held_registrations')
    .values({
      id: randomUUID(),
      registration_code_id: registrationCodeId,
      email: values.email,
      language: values.language,
      submission: JSON.stringify(submission),
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['registration_code_id', 'email']).doNothing())
    .execute();
}

/** A new address on a quarantined code, held in a transaction of its own (the code is not locked: no place is taken). */
export async function holdNewRegistration(
  deps: RegisterDeps,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras | null,
  now: Date,
): Promise<RegistrationRun> {
  const code = await deps.db.selectFrom('registration_codes').select('id').where('code', '=', normalizeRegistrationCode(input.registrationCode)).executeTakeFirst();
  if (!code) return ERRORS_ONLY([], ['REGISTRATION_CODE_INVALID']);
  await holdRegistration(deps.db, code.id, input, values, social, now);
  deps.logger?.info({}, 'registration: held for review (quarantined code)');
  return answer('PENDING_REVIEW', null);
}
