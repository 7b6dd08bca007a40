/**
 * Issues a registration code for a new, active inviter member (admin CLI; later the
 * admin API). Input is validated here so every caller gets the same rules.
 */
import { randomUUID } from 'node:crypto';
import { REGISTRATION_CODE_PATTERN, normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { z } from 'zod';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { CODE_BALANCE_MAX, CODES_PER_BATCH_MAX, LANDING_SLUG_PATTERN } from '@velvet/validation/codes';
import { CUSTOMIZATIONS } from '@velvet/validation/customization';
import type { Customization } from '@velvet/validation/customization';
import { randomCode } from '../domain/random-codes.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';

const GENERATED_CODE_LENGTH = 8;
export const INVITER_EMAIL_DOMAIN = 'members.velvetrope.localhost';

export function generateRegistrationCode(): string {
  return randomCode(GENERATED_CODE_LENGTH);
}

const createRegistrationCodeInput = z.object({
  inviterFirstName: z.string().trim().min(1, 'inviter name is required').max(100, 'inviter name is too long'),
  balance: z.number().int('balance must be a whole number').min(0, 'balance must not be negative').max(CODE_BALANCE_MAX, `balance must be at most ${CODE_BALANCE_MAX}`),
  code: z
    .string()
    .transform(normalizeRegistrationCode)
    .pipe(z.string().regex(REGISTRATION_CODE_PATTERN, 'code must be 4-64 letters, digits or hyphens'))
    .optional(),
  expiresAt: z.date().optional(),
  customization: z.enum(CUSTOMIZATIONS, { error: `customization must be one of: ${CUSTOMIZATIONS.join(', ')}` }).optional(),
  landingSlug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(LANDING_SLUG_PATTERN, 'slug must be lower-case letters, digits and hyphens')
    .optional(),
  requiresValidityTimestamp: z.boolean().default(false),
});
export type CreateRegistrationCodeInput = z.input<typeof createRegistrationCodeInput>;

export interface CreatedRegistrationCode {
  id: string;
  code: string;
  inviterMemberId: string;
  inviterEmail: string;
  balance: number;
  expiresAt: string | null;
  customization: Customization | null;
  landingSlug: string | null;
  requiresValidityTimestamp: boolean;
}

function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return slug || 'member';
}

export async function createRegistrationCode(
  db: Db,
  rawInput: CreateRegistrationCodeInput,
  now: Date = new Date(),
): Promise<Result<CreatedRegistrationCode, string>> {
  const result = await createRegistrationCodes(db, rawInput, 1, now);
  return result.ok ? ok(result.value[0] as CreatedRegistrationCode) : result;
}

/**
 * `count` codes for one new inviter member, in one transaction (the console's "create many",
 * ADR 046). `within` runs in that transaction after the inserts (the console's audit record),
 * so the codes and their record are written together or not at all.
 */
export async function createRegistrationCodes(
  db: Db,
  rawInput: CreateRegistrationCodeInput,
  count: number,
  now: Date = new Date(),
  within?: (trx: Transaction<Database>, created: CreatedRegistrationCode[]) => Promise<void>,
): Promise<Result<CreatedRegistrationCode[], string>> {
  const parsed = createRegistrationCodeInput.safeParse(rawInput);
  if (!parsed.success) return fail(...parsed.error.issues.map((issue) => issue.message));
  const input = parsed.data;
  if (input.expiresAt && Number.isNaN(input.expiresAt.getTime())) return fail('expiry must be a valid date');
  if (!Number.isInteger(count) || count < 1 || count > CODES_PER_BATCH_MAX) return fail(`count must be 1-${CODES_PER_BATCH_MAX}`);
  if (input.code !== undefined && count !== 1) return fail('a chosen code is one code');

  const createdAt = now.toISOString();
  const inviterMemberId = randomUUID();
  const inviterEmail = `inviter+${slugify(input.inviterFirstName)}-${inviterMemberId.slice(0, 8)}@${INVITER_EMAIL_DOMAIN}`;

  for (let attempt = 0; attempt < 5; attempt++) {
    const codes = new Set<string>();
    while (codes.size < count) codes.add(input.code ?? generateRegistrationCode());
    const created: CreatedRegistrationCode[] = [...codes].map((code) => ({
      id: randomUUID(),
      code,
      inviterMemberId,
      inviterEmail,
      balance: input.balance,
      expiresAt: input.expiresAt?.toISOString() ?? null,
      customization: input.customization ?? null,
      landingSlug: input.landingSlug ?? null,
      requiresValidityTimestamp: input.requiresValidityTimestamp,
    }));
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('members')
          .values({
            id: inviterMemberId,
            email: inviterEmail,
            first_name: input.inviterFirstName,
            last_name: 'Inviter',
            gender: null,
            country: null,
            language: null,
            status: 'active',
            registration_code_id: null,
            newsletter: false,
            created_at: createdAt,
            activated_at: createdAt,
          })
          .execute();
        await trx
          .insertInto('registration_codes')
          .values(
            created.map((one) => ({
              id: one.id,
              code: one.code,
              inviter_member_id: inviterMemberId,
              balance: one.balance,
              expires_at: one.expiresAt,
              customization: one.customization,
              landing_slug: one.landingSlug,
              requires_validity_timestamp: one.requiresValidityTimestamp,
              disabled: false,
              created_at: createdAt,
            })),
          )
          .execute();
        await within?.(trx, created);
      });
      return ok(created);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (input.code !== undefined) return fail(`registration code ${input.code} already exists`);
      // A generated code collided: draw others.
    }
  }
  return fail('could not generate a unique code, try again');
}
