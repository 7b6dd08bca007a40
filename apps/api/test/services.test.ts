import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/lib/password.ts';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { CODE_ALPHABET } from '../src/domain/random-codes.ts';
import { createRegistrationCode } from '../src/services/create-registration-code.ts';
import { listRegistrationCodes } from '../src/services/list-registration-codes.ts';
import { ENGINES, engineDatabase } from './support/engines.ts';
import { insertCode, insertMember } from './support/factories.ts';

describe.each(ENGINES)('admin services on %s', (engine) => {
  const database = engineDatabase(engine);

  describe('createRegistrationCode', () => {
    it('creates an active inviter and the code, normalised', async () => {
      const result = await createRegistrationCode(database.db, {
        inviterFirstName: ' Zoë ',
        balance: 3,
        code: ' spring-26 ',
        expiresAt: new Date('2030-01-01T00:00:00Z'),
        customization: 'viral',
        landingSlug: 'Spring',
        requiresValidityTimestamp: true,
      });
      if (!result.ok) throw new Error(result.errors.join());
      expect(result.value).toMatchObject({
        code: 'SPRING-26',
        balance: 3,
        expiresAt: '2030-01-01T00:00:00.000Z',
        customization: 'viral',
        landingSlug: 'spring',
        requiresValidityTimestamp: true,
      });
      expect(result.value.inviterEmail).toMatch(/^inviter\+zoe-[0-9a-f]{8}@members\.velvetrope\.localhost$/);
      const inviter = await database.db.selectFrom('members').selectAll().where('id', '=', result.value.inviterMemberId).executeTakeFirstOrThrow();
      expect(inviter).toMatchObject({ first_name: 'Zoë', status: 'active' });
    });

    it('generates a readable 8-character code when none is given', async () => {
      const result = await createRegistrationCode(database.db, { inviterFirstName: 'Ana', balance: 1 });
      if (!result.ok) throw new Error(result.errors.join());
      expect(result.value.code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{8}$`));
    });

    it('rejects a duplicate code and leaves no orphan inviter behind', async () => {
      await insertCode(database.db, { code: 'TAKEN' });
      const before = await database.db.selectFrom('members').select('id').execute();
      expect(await createRegistrationCode(database.db, { inviterFirstName: 'Ana', balance: 1, code: 'taken' })).toEqual({
        ok: false,
        errors: ['registration code TAKEN already exists'],
      });
      expect(await database.db.selectFrom('members').select('id').execute()).toHaveLength(before.length);
    });

    it.each([
      [{ balance: -1 }, 'balance must not be negative'],
      [{ balance: 1.5 }, 'balance must be a whole number'],
      [{ code: 'ab' }, 'code must be 4-64 letters, digits or hyphens'],
      [{ code: 'BAD CODE' }, 'code must be 4-64 letters, digits or hyphens'],
      [{ customization: 'fancy' }, 'customization must be one of'],
      [{ inviterFirstName: '  ' }, 'inviter name is required'],
    ])('rejects %j', async (override, message) => {
      const input = { inviterFirstName: 'Ana', balance: 1, ...override } as Parameters<typeof createRegistrationCode>[1];
      const result = await createRegistrationCode(database.db, input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.join('\n')).toContain(message);
    });
  });

  describe('listRegistrationCodes', () => {
    it('lists codes with pending counts and state', async () => {
      await insertCode(database.db, { code: 'L-VALID', inviterFirstName: 'Val', balance: 3, pendingMembers: 1 });
      await insertCode(database.db, { code: 'L-FULL', balance: 1, pendingMembers: 1 });
      await insertCode(database.db, { code: 'L-EXPIRED', expiresAt: '2020-01-01T00:00:00.000Z' });
      await insertCode(database.db, { code: 'L-EMPTY', balance: 0 });
      await insertCode(database.db, { code: 'L-OFF', disabled: true });
      await insertCode(database.db, { code: 'L-BLOCKED', inviterStatus: 'blocked' });
      await insertMember(database.db, { status: 'active' });
      const rows = await listRegistrationCodes(database.db);
      const state = Object.fromEntries(rows.map((r) => [r.code, r.state]));
      expect(state).toEqual({
        'L-VALID': 'valid',
        'L-FULL': 'full',
        'L-EXPIRED': 'expired',
        'L-EMPTY': 'no balance',
        'L-OFF': 'disabled',
        'L-BLOCKED': 'inviter invalid',
      });
      expect(rows.find((r) => r.code === 'L-VALID')).toMatchObject({ inviter: 'Val', balance: 3, pending: 1 });
    });
  });

  describe('createAdminUser', () => {
    it('stores a scrypt hash of the given password under the lower-cased email', async () => {
      const result = await createAdminUser(database.db, { email: ' Admin@Example.TEST ', password: 'correct horse battery' });
      if (!result.ok) throw new Error(result.errors.join());
      expect(result.value).toMatchObject({ email: 'admin@example.test', generatedPassword: null });
      const row = await database.db.selectFrom('admin_users').selectAll().executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
      expect(await verifyPassword('correct horse battery', row.password_hash)).toBe(true);
      expect(await verifyPassword('wrong horse battery', row.password_hash)).toBe(false);
    });

    it('generates a strong password when none is given', async () => {
      const result = await createAdminUser(database.db, { email: 'gen@example.test' });
      if (!result.ok) throw new Error(result.errors.join());
      expect(result.value.generatedPassword).toMatch(/^[\w-]{24}$/);
      const row = await database.db.selectFrom('admin_users').selectAll().executeTakeFirstOrThrow();
      expect(await verifyPassword(result.value.generatedPassword ?? '', row.password_hash)).toBe(true);
    });

    it('rejects a short password, a bad email and a duplicate', async () => {
      expect(await createAdminUser(database.db, { email: 'a@example.test', password: 'short' })).toEqual({
        ok: false,
        errors: ['password must be at least 12 characters'],
      });
      expect(await createAdminUser(database.db, { email: 'not-an-email', password: 'long enough password' })).toEqual({
        ok: false,
        errors: ['email must be a valid email address'],
      });
      await createAdminUser(database.db, { email: 'dup@example.test', password: 'long enough password' });
      expect(await createAdminUser(database.db, { email: 'DUP@example.test', password: 'long enough password' })).toEqual({
        ok: false,
        errors: ['an admin user with this email already exists'],
      });
    });
  });
});
