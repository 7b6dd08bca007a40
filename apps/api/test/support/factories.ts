/** Test data written straight to the database, with unique values per call. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/connect.ts';
import type { Customization } from '@velvet/validation/customization';
import type { MemberStatus } from '../../src/db/schema.ts';

const NOW = () => new Date().toISOString();

function uniqueCode(prefix = 'T'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`.toUpperCase();
}

export async function insertMember(
  db: Db,
  fields: { email?: string; firstName?: string; status?: MemberStatus; registrationCodeId?: string | null } = {},
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('members')
    .values({
      id,
      email: fields.email ?? `member-${id}@example.test`,
      first_name: fields.firstName ?? 'Member',
      last_name: 'Test',
      gender: null,
      country: null,
      language: null,
      status: fields.status ?? 'active',
      registration_code_id: fields.registrationCodeId ?? null,
      newsletter: false,
      created_at: NOW(),
      activated_at: null,
    })
    .execute();
  return id;
}

export interface CodeFields {
  code?: string;
  inviterFirstName?: string;
  inviterStatus?: MemberStatus;
  balance?: number;
  expiresAt?: string | null;
  customization?: Customization | null;
  landingSlug?: string | null;
  requiresValidityTimestamp?: boolean;
  disabled?: boolean;
  pendingMembers?: number;
  /** A personal invitation's code (issue 12 §2). */
  singleUse?: boolean;
}

/** Inserts an inviter and a code; returns the code string and ids. */
export async function insertCode(db: Db, fields: CodeFields = {}) {
  const inviterId = await insertMember(db, {
    firstName: fields.inviterFirstName ?? 'Ines',
    status: fields.inviterStatus ?? 'active',
  });
  const id = randomUUID();
  const code = fields.code ?? uniqueCode();
  await db
    .insertInto('registration_codes')
    .values({
      id,
      code,
      inviter_member_id: inviterId,
      balance: fields.balance ?? 5,
      expires_at: fields.expiresAt ?? null,
      customization: fields.customization ?? null,
      landing_slug: fields.landingSlug ?? null,
      requires_validity_timestamp: fields.requiresValidityTimestamp ?? false,
      disabled: fields.disabled ?? false,
      created_at: NOW(),
      single_use: fields.singleUse ?? false,
    })
    .execute();
  for (let i = 0; i < (fields.pendingMembers ?? 0); i++) {
    await insertMember(db, { status: 'pending', registrationCodeId: id });
  }
  return { id, code, inviterId };
}
