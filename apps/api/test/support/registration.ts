/** Registration helpers for tests: a valid form, the mutations, and the link id an email would carry. */
import type { UserError } from '@velvet/validation/user-errors';
import type { Db } from '../../src/db/connect.ts';
import type { ActivationEmailPayload } from '../../src/mail/outbox.ts';
import { unsealFromOutbox } from '../../src/mail/outbox.ts';
import type { RegisterInput } from '@velvet/validation/registration';
import { TEST_SECRET } from './env.ts';

let counter = 0;
export function uniqueEmail(prefix = 'visitor'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}

/** A form that passes every rule, for `code`. */
export function validInput(registrationCode: string, overrides: Partial<RegisterInput> = {}): RegisterInput {
  return {
    registrationCode,
    email: uniqueEmail(),
    gender: 'FEMALE',
    firstName: 'Zoë',
    lastName: 'O’Brien-Núñez',
    country: 'DE',
    newsletter: true,
    termsAccepted: true,
    termsPkString: 'terms-DE-2026-01',
    dataPolicyPkString: 'data-policy-DE-2026-01',
    language: 'en',
    flow: 'DEFAULT',
    ...overrides,
  };
}

export const REGISTER = /* GraphQL */ `
  mutation register($input: RegisterInput!) {
    register(input: $input) {
      outcome
      memberId
      userErrors { code field messageId }
    }
  }
`;

export const ACTIVATE = /* GraphQL */ `
  mutation activate($activationId: String!) {
    activateAccount(activationId: $activationId) {
      outcome
      voucher { percent minimumOrderValue currency validUntil code }
      firstName
      language
      memberId
      userErrors { code field messageId }
    }
  }
`;

export interface RegisterPayload {
  outcome: string | null;
  memberId: string | null;
  userErrors: UserError[];
}

/** The activation ids of the emails queued for `recipient`, oldest first (what the emails would link to). */
export async function activationIdsFor(db: Db, recipient: string): Promise<string[]> {
  const rows = await db
    .selectFrom('email_outbox')
    .select(['payload', 'created_at', 'id'])
    .where('recipient', '=', recipient)
    .where('template', '=', 'activation')
    .orderBy('created_at')
    .execute();
  return rows.map((row) => unsealFromOutbox((JSON.parse(row.payload) as ActivationEmailPayload).sealedActivationId, TEST_SECRET));
}

export async function latestActivationId(db: Db, recipient: string): Promise<string> {
  const ids = await activationIdsFor(db, recipient);
  const last = ids.at(-1);
  if (!last) throw new Error('no activation email queued');
  return last;
}
