/**
 * Demo data for local use and the README: a few inviters and one code per
 * registration-code state. Runs only when SEED_DEMO is true and the members table is
 * empty, so it never touches a database that has real members, and running it twice
 * changes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Env } from './config.ts';
import { isUniqueViolation } from './lib/db-errors.ts';
import { createAdminUser } from './services/create-admin-user.ts';
import type { Db } from './db/connect.ts';
import type { MemberStatus, NewMember, NewRegistrationCode } from './db/schema.ts';
import type { Customization } from '@velvet/validation/customization';

const DOMAIN = 'members.velvetrope.localhost';
const SEEDED_AT = '2026-01-01T00:00:00.000Z';

interface DemoCode {
  code: string;
  inviter: string;
  balance: number;
  expiresAt?: string;
  customization?: Customization;
  landingSlug?: string;
  requiresValidityTimestamp?: boolean;
  pendingMembers?: number;
}

/** The demo codes, listed in the README. */
export const DEMO_CODES: readonly DemoCode[] = [
  { code: 'WELCOME2026', inviter: 'Sophie', balance: 25, customization: 'default' },
  { code: 'VIP-ANNA', inviter: 'Anna', balance: 10, customization: 'social-15-percent-mov', landingSlug: 'vip' },
  { code: 'EXPIRED2025', inviter: 'Marc', balance: 10, expiresAt: '2025-12-31T23:59:59.000Z' },
  { code: 'NOBALANCE', inviter: 'Julia', balance: 0 },
  { code: 'FULLHOUSE', inviter: 'Lukas', balance: 2, pendingMembers: 2 },
  { code: 'BLOCKED', inviter: 'Eva', balance: 10 },
  { code: 'LINKONLY', inviter: 'Sophie', balance: 5, requiresValidityTimestamp: true },
];

const INVITER_STATUS: Record<string, MemberStatus> = { Eva: 'blocked' };

/**
 * Members who registered on WELCOME2026, so the register outcomes can be shown:
 * registering pending@example.com again answers ACCOUNT_PENDING (and sends a new
 * activation email), member@example.com answers ACCOUNT_ACTIVE.
 */
export const DEMO_MEMBERS = [
  { email: 'pending@example.com', firstName: 'Paula', lastName: 'Pending', status: 'pending', code: 'WELCOME2026' },
  { email: 'member@example.com', firstName: 'Max', lastName: 'Member', status: 'active', code: 'WELCOME2026' },
] as const satisfies readonly { email: string; firstName: string; lastName: string; status: MemberStatus; code: string }[];

/**
 * Creates the admin user named by ADMIN_EMAIL and ADMIN_PASSWORD (both must be set) unless
 * it exists; an existing admin's password is never changed here. Runs on every start,
 * independent of SEED_DEMO, so a fresh deployment can have its first admin.
 */
export async function seedAdminUser(
  db: Db,
  env: Partial<Pick<Env, 'ADMIN_EMAIL' | 'ADMIN_PASSWORD'>>,
): Promise<'not-configured' | 'created' | 'exists'> {
  if (!env.ADMIN_EMAIL || !env.ADMIN_PASSWORD) return 'not-configured';
  const existing = await db.selectFrom('admin_users').select('id').where('email', '=', env.ADMIN_EMAIL.toLowerCase()).executeTakeFirst();
  if (existing) return 'exists';
  const created = await createAdminUser(db, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
  if (created.ok) return 'created';
  if (created.errors.some((e) => e.includes('already exists'))) return 'exists';
  throw new Error(`ADMIN_EMAIL/ADMIN_PASSWORD rejected: ${created.errors.join('; ')}`);
}

export type SeedOutcome = { seeded: true; codes: number } | { seeded: false; reason: 'disabled' | 'not-empty' };

export async function seedDemoData(db: Db, env: Pick<Env, 'SEED_DEMO'>): Promise<SeedOutcome> {
  if (!env.SEED_DEMO) return { seeded: false, reason: 'disabled' };
  try {
    return await insertDemoData(db);
  } catch (error) {
    // Another instance seeded the same empty database at the same moment.
    if (isUniqueViolation(error)) return { seeded: false, reason: 'not-empty' };
    throw error;
  }
}

function insertDemoData(db: Db): Promise<SeedOutcome> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('members').select('id').limit(1).executeTakeFirst();
    if (existing) return { seeded: false, reason: 'not-empty' } as const;

    const inviters = new Map<string, string>();
    const members: NewMember[] = [];
    const codes: NewRegistrationCode[] = [];
    const pending: NewMember[] = [];
    for (const demo of DEMO_CODES) {
      let inviterId = inviters.get(demo.inviter);
      if (!inviterId) {
        inviterId = randomUUID();
        inviters.set(demo.inviter, inviterId);
        const status = INVITER_STATUS[demo.inviter] ?? 'active';
        members.push({
          id: inviterId,
          email: `inviter+${demo.inviter.toLowerCase()}@${DOMAIN}`,
          first_name: demo.inviter,
          last_name: 'Demo',
          gender: null,
          country: 'DE',
          language: 'en',
          status,
          registration_code_id: null,
          newsletter: false,
          created_at: SEEDED_AT,
          activated_at: status === 'active' ? SEEDED_AT : null,
        });
      }
      const codeId = randomUUID();
      codes.push({
        id: codeId,
        code: demo.code,
        inviter_member_id: inviterId,
        balance: demo.balance,
        expires_at: demo.expiresAt ?? null,
        customization: demo.customization ?? null,
        landing_slug: demo.landingSlug ?? null,
        requires_validity_timestamp: demo.requiresValidityTimestamp ?? false,
        disabled: false,
        created_at: SEEDED_AT,
      });
      for (let i = 1; i <= (demo.pendingMembers ?? 0); i++) {
        pending.push({
          id: randomUUID(),
          email: `pending+${demo.code.toLowerCase()}-${i}@${DOMAIN}`,
          first_name: `Pending${i}`,
          last_name: 'Demo',
          gender: null,
          country: 'DE',
          language: 'en',
          status: 'pending',
          registration_code_id: codeId,
          newsletter: false,
          created_at: SEEDED_AT,
          activated_at: null,
        });
      }
    }
    const codeIds = new Map(codes.map((c) => [c.code, c.id]));
    for (const demo of DEMO_MEMBERS) {
      const active = demo.status === 'active';
      pending.push({
        id: randomUUID(),
        email: demo.email,
        first_name: demo.firstName,
        last_name: demo.lastName,
        gender: 'FEMALE',
        country: 'DE',
        language: 'en',
        status: demo.status,
        registration_code_id: codeIds.get(demo.code) ?? null,
        newsletter: false,
        created_at: SEEDED_AT,
        activated_at: active ? SEEDED_AT : null,
      });
    }
    await trx.insertInto('members').values(members).execute();
    await trx.insertInto('registration_codes').values(codes).execute();
    if (pending.length > 0) await trx.insertInto('members').values(pending).execute();
    const registered = pending.filter((m) => DEMO_MEMBERS.some((d) => d.email === m.email));
    await trx
      .insertInto('consents')
      .values(
        registered.map((m) => ({
          id: randomUUID(),
          member_id: m.id ?? '',
          country: 'DE',
          terms_pk_string: 'terms-DE-2026-01',
          data_policy_pk_string: 'data-policy-DE-2026-01',
          newsletter: false,
          accepted_at: SEEDED_AT,
        })),
      )
      .execute();
    return { seeded: true, codes: codes.length } as const;
  });
}
