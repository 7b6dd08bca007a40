/**
 * The code's admission rules under its row lock (domain/code-admission.ts): a code that stops
 * admitting between the code check and the registration's transaction — withdrawn, replaced, its
 * inviter blocked, expired, disabled, without a place — refuses the registration there with the
 * errors the code check gives for it, and nothing is written. The registration steps are called
 * as they are after a check that passed: the code changed in between.
 */
import type { RegisterInput } from '@velvet/validation/registration';
import { isBlocking } from '@velvet/validation/registration-code';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import { describe, expect, it } from 'vitest';
import { checkRegistrationCode } from '../src/services/check-registration-code.ts';
import { createMember } from '../src/services/registration/create-member.ts';
import type { RegisterDeps, ValidFields } from '../src/services/registration/outcomes.ts';
import { renewPlace } from '../src/services/registration/renew-place.ts';
import { ENGINES, engineDatabase } from './support/engines.ts';
import { TEST_SECRET } from './support/env.ts';
import type { CodeFields } from './support/factories.ts';
import { insertCode, insertMember } from './support/factories.ts';
import { validInput } from './support/registration.ts';

const PAST = '2020-01-01T00:00:00.000Z';

function fieldsOf(input: RegisterInput): ValidFields {
  return {
    email: input.email,
    gender: null,
    firstName: input.firstName ?? '',
    lastName: input.lastName ?? '',
    country: input.country,
    language: 'en',
    shoppingPreferences: [],
    mailDomainUnverified: false,
  };
}

const CHANGES: [string, CodeFields, { revokedReason?: 'revoked' | 'rotated' }, RegistrationCodeError[]][] = [
  ['withdrawn', {}, { revokedReason: 'revoked' }, ['REGISTRATION_CODE_REVOKED']],
  ['replaced', {}, { revokedReason: 'rotated' }, ['REGISTRATION_CODE_REPLACED']],
  ['disabled', { disabled: true }, {}, ['REGISTRATION_CODE_INVALID']],
  ['expired', { expiresAt: PAST }, {}, ['REGISTRATION_CODE_EXPIRED']],
  ['its inviter blocked', { inviterStatus: 'blocked' }, {}, ['INVITER_INVALID']],
  ['its inviter blocked and no balance left', { inviterStatus: 'blocked', balance: 0 }, {}, ['INVITER_INVALID', 'REGISTRATION_CODE_NO_BALANCE_LEFT']],
  ['no balance left', { balance: 0 }, {}, ['REGISTRATION_CODE_NO_BALANCE_LEFT']],
  ['every place held', { balance: 1, pendingMembers: 1 }, {}, ['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']],
];

describe.each(ENGINES)('admission under the code lock on %s', (engine) => {
  const database = engineDatabase(engine);
  const deps = (): RegisterDeps => ({ db: database.db, secret: TEST_SECRET, referrerBlocklist: [] });

  async function changedCode(fields: CodeFields, change: { revokedReason?: 'revoked' | 'rotated' }) {
    const inserted = await insertCode(database.db, fields);
    if (change.revokedReason) {
      await database.db
        .updateTable('registration_codes')
        .set({ revoked_at: new Date().toISOString(), revoked_reason: change.revokedReason })
        .where('id', '=', inserted.id)
        .execute();
    }
    return inserted;
  }

  it.each(CHANGES)('a new address on a code %s since the check: refused with the check’s errors, nothing written', async (_, fields, change, expected) => {
    const { code } = await changedCode(fields, change);
    const input = validInput(code);
    const check = await checkRegistrationCode(deps(), input);
    expect(check.errors.filter(isBlocking)).toEqual(expected);

    const run = await createMember(deps(), input, fieldsOf(input), null, new Date());
    expect(run).toMatchObject({ outcome: null, memberId: null, codeErrors: expected });
    expect(await database.db.selectFrom('members').select('id').where('email', '=', input.email).executeTakeFirst()).toBeUndefined();
  });

  it.each(CHANGES)('an expired registration renewing its place on a code %s since the check: refused with the check’s errors', async (_, fields, change, expected) => {
    const { id: oldCodeId } = await insertCode(database.db);
    const input = validInput((await changedCode(fields, change)).code);
    const memberId = await insertMember(database.db, { email: input.email, status: 'pending', registrationCodeId: oldCodeId });
    // Their link expired: the place went back to their old code.
    await database.db.updateTable('members').set({ place_held_until: PAST }).where('id', '=', memberId).execute();

    const run = await renewPlace(deps(), memberId, input, fieldsOf(input), null, new Date());
    expect(run).toMatchObject({ outcome: null, memberId: null, codeErrors: expected });
    const member = await database.db.selectFrom('members').select(['registration_code_id', 'place_held_until']).where('id', '=', memberId).executeTakeFirstOrThrow();
    expect(member).toEqual({ registration_code_id: oldCodeId, place_held_until: PAST });
  });
});
