/**
 * Personal invitations for the waiting list and membership applicants (operators, through
 * the CLI): a registration code for one person (balance 1, valid 30 days, default landing
 * texts) whose inviter is the club itself — a system member "Velvet Rope", created once —
 * and the invitation email with the code, in the person's language. For each person, code,
 * "invited" mark and outbox row are one transaction: an email exists exactly when its code
 * does, and nobody is invited twice (the entry's row is locked and re-read first).
 * Someone who became an active member meanwhile (by another invitation) is not invited:
 * the waiting list shows them as members and `interest select` refuses them.
 * The email carries the person's status link (ADR 063), which then says "invited"; without
 * APP_SECRET (null) it goes without one.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { isLocale } from '@velvet/i18n/locales';
import type { Locale } from '@velvet/i18n/locales';
import { email as emailField } from '@velvet/validation/registration';
import type { Db } from '../db/connect.ts';
import { lockRow } from '../db/lock.ts';
import type { Database } from '../db/schema.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';
import { enqueueEmail } from '../mail/outbox.ts';
import type { InvitationEmailPayload } from '../mail/outbox.ts';
import { issueStatusReference } from './application-status.ts';
import { INVITER_EMAIL_DOMAIN, generateRegistrationCode } from './create-registration-code.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';

export const PERSONAL_CODE_VALIDITY_DAYS = 30;
const PERSONAL_CODE_BALANCE = 1;
const SYSTEM_INVITER_NAME = 'Velvet Rope';
/** The system member's address: on the inviter domain, never a deliverable one. */
export const SYSTEM_INVITER_EMAIL = `club@${INVITER_EMAIL_DOMAIN}`;
const DAY_MS = 24 * 60 * 60 * 1000;
const CODE_ATTEMPTS = 5;

/** The member "Velvet Rope" that personal codes name as their inviter; created on first use. */
export async function ensureSystemInviter(db: Db, now: Date = new Date()): Promise<string> {
  const find = () => db.selectFrom('members').select('id').where('email', '=', SYSTEM_INVITER_EMAIL).executeTakeFirst();
  const existing = await find();
  if (existing) return existing.id;
  const at = now.toISOString();
  await db
    .insertInto('members')
    .values({
      id: randomUUID(),
      email: SYSTEM_INVITER_EMAIL,
      first_name: SYSTEM_INVITER_NAME,
      last_name: '',
      gender: null,
      country: null,
      language: null,
      status: 'active',
      registration_code_id: null,
      newsletter: false,
      created_at: at,
      activated_at: at,
    })
    // Two operators at once: the other insert won, use its row.
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const created = await find();
  if (!created) throw new Error('could not create the system inviter');
  return created.id;
}

export interface IssuedInvitation {
  email: string;
  language: Locale;
  code: string;
  codeId: string;
  expiresAt: string;
  outboxId: string;
}

/** Inside the caller's transaction: the personal code and the invitation email, with a status link to the entry or application it invites. */
async function issuePersonalInvitation(
  trx: Kysely<Database>,
  input: { inviterId: string; email: string; language: Locale; reason: InvitationEmailPayload['reason']; targetId: string; secret: string | null },
  now: Date,
): Promise<IssuedInvitation> {
  const code = generateRegistrationCode();
  const codeId = randomUUID();
  const expiresAt = new Date(now.getTime() + PERSONAL_CODE_VALIDITY_DAYS * DAY_MS).toISOString();
  await trx
    .insertInto('registration_codes')
    .values({
      id: codeId,
      code,
      inviter_member_id: input.inviterId,
      balance: PERSONAL_CODE_BALANCE,
      expires_at: expiresAt,
      customization: 'default',
      landing_slug: null,
      requires_validity_timestamp: false,
      disabled: false,
      created_at: now.toISOString(),
      // For this one person: the email's signed link needs no proof of work (ADR 041).
      single_use: true,
    })
    .execute();
  const kind = input.reason === 'waitlist' ? 'waitlist' : 'application';
  const sealedStatusReference = input.secret === null ? undefined : await issueStatusReference(trx, kind, input.targetId, input.secret, now);
  const outboxId = await enqueueEmail(
    trx,
    { template: 'invitation', recipient: input.email, locale: input.language, payload: { code, expiresAt, reason: input.reason, sealedStatusReference } },
    now,
  );
  return { email: input.email, language: input.language, code, codeId, expiresAt, outboxId };
}

/** Runs `work` in a transaction, again with a fresh code when a generated one collided. */
export async function withFreshCode<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt < CODE_ATTEMPTS && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

const languageOf = (value: string): Locale => (isLocale(value) ? value : 'en');

/** Whether an active member has this (normalized) address. */
async function isActiveMember(db: Kysely<Database>, email: string): Promise<boolean> {
  const member = await db.selectFrom('members').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
  return member !== undefined;
}

/**
 * Invites the `count` earliest entries of the waiting list not invited yet and not active
 * members, one transaction each. Returns those invited (fewer when the list has fewer such
 * entries).
 */
/**
 * The earliest entries still to invite: not invited, and no active member has the address
 * (first come first served; the partial index waitlist_entries_waiting_idx serves the order).
 */
export function uninvitedCandidates(db: Kysely<Database>, limit: number): Promise<{ id: string }[]> {
  return db
    .selectFrom('waitlist_entries')
    .select('id')
    .where('invited_at', 'is', null)
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('members')
            .select('members.id')
            .whereRef('members.email', '=', 'waitlist_entries.email')
            .where('members.status', '=', 'active'),
        ),
      ),
    )
    .orderBy('joined_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export type EntryRefusal = 'not-found' | 'already-invited' | 'member';

/**
 * Inside the caller's transaction: invites waiting-list entry `id` (its row locked and re-read
 * first), or says why not — another operator invited it meanwhile, or it became a member.
 */
export async function inviteWaitlistEntry(
  trx: Transaction<Database>,
  id: string,
  inviterId: string,
  now: Date,
  secret: string | null,
): Promise<{ ok: true; invitation: IssuedInvitation } | { ok: false; reason: EntryRefusal }> {
  if (!(await lockRow(trx, 'waitlist_entries', id))) return { ok: false, reason: 'not-found' };
  const entry = await trx.selectFrom('waitlist_entries').select(['email', 'language', 'invited_at']).where('id', '=', id).executeTakeFirstOrThrow();
  if (entry.invited_at !== null) return { ok: false, reason: 'already-invited' };
  if (await isActiveMember(trx, entry.email)) return { ok: false, reason: 'member' };
  const invitation = await issuePersonalInvitation(trx, { inviterId, email: entry.email, language: languageOf(entry.language), reason: 'waitlist', targetId: id, secret }, now);
  await trx.updateTable('waitlist_entries').set({ invited_at: now.toISOString(), registration_code_id: invitation.codeId }).where('id', '=', id).execute();
  return { ok: true, invitation };
}

/**
 * Inside the caller's transaction: selects application `id` (its row locked and re-read first),
 * or says why not.
 */
export async function selectApplication(
  trx: Transaction<Database>,
  id: string,
  inviterId: string,
  now: Date,
  secret: string | null,
): Promise<{ ok: true; invitation: IssuedInvitation } | { ok: false; reason: EntryRefusal }> {
  if (!(await lockRow(trx, 'membership_applications', id))) return { ok: false, reason: 'not-found' };
  const row = await trx.selectFrom('membership_applications').select(['email', 'language', 'country', 'selected_at']).where('id', '=', id).executeTakeFirstOrThrow();
  if (row.selected_at !== null) return { ok: false, reason: 'already-invited' };
  if (await isActiveMember(trx, row.email)) return { ok: false, reason: 'member' };
  const invitation = await issuePersonalInvitation(trx, { inviterId, email: row.email, language: languageOf(row.language), reason: 'interest', targetId: id, secret }, now);
  await trx.updateTable('membership_applications').set({ selected_at: now.toISOString(), registration_code_id: invitation.codeId }).where('id', '=', id).execute();
  await enqueueWebhookEvent(
    trx,
    { type: 'application.decided', data: { applicationId: id, decision: 'approved', reasonId: null, country: row.country, language: row.language } },
    now,
  );
  return { ok: true, invitation };
}

/**
 * Invites the `count` earliest entries of the waiting list not invited yet and not active
 * members, one transaction each. Returns those invited (fewer when the list has fewer such
 * entries).
 */
export async function inviteFromWaitlist(db: Db, count: number, now: Date = new Date(), secret: string | null = null): Promise<IssuedInvitation[]> {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive whole number');
  const inviterId = await ensureSystemInviter(db, now);
  const invited: IssuedInvitation[] = [];
  // Another operator may take the same candidates at once: skipped ones are invited (or
  // members) by then, so the next round's query passes over them to the next entries.
  while (invited.length < count) {
    const candidates = await uninvitedCandidates(db, count - invited.length);
    if (candidates.length === 0) break;
    for (const { id } of candidates) {
      const issued = await withFreshCode(db, (trx) => inviteWaitlistEntry(trx, id, inviterId, now, secret));
      if (issued.ok) invited.push(issued.invitation);
    }
  }
  return invited;
}

/** Selects the applicant with this address: a personal code and the invitation email. */
export async function selectMembershipApplication(db: Db, rawEmail: string, now: Date = new Date(), secret: string | null = null): Promise<Result<IssuedInvitation, string>> {
  const parsed = emailField.safeParse(rawEmail);
  if (!parsed.success) return fail(`${rawEmail.trim() || '(empty)'} is not a valid email address`);
  const email = parsed.data;
  const application = await db.selectFrom('membership_applications').select('id').where('email', '=', email).executeTakeFirst();
  if (!application) return fail(`no membership application from ${email}`);
  const inviterId = await ensureSystemInviter(db, now);
  const issued = await withFreshCode(db, (trx) => selectApplication(trx, application.id, inviterId, now, secret));
  if (issued.ok) return ok(issued.invitation);
  if (issued.reason === 'member') return fail(`${email} is already an active member: no invitation needed`);
  const selected = await db.selectFrom('membership_applications').select('selected_at').where('id', '=', application.id).executeTakeFirst();
  return fail(`${email} was already selected on ${selected?.selected_at ?? 'an earlier day'}`);
}

export interface WaitlistRow {
  email: string;
  language: string;
  joinedAt: string;
  invitedAt: string | null;
  /** An active member has this address (joined by another invitation): never invited from the list. */
  isMember: boolean;
}

/** The waiting list, earliest first. */
export async function listWaitlist(db: Db): Promise<WaitlistRow[]> {
  const rows = await db
    .selectFrom('waitlist_entries')
    .leftJoin('members', (join) => join.onRef('members.email', '=', 'waitlist_entries.email').on('members.status', '=', 'active'))
    .select(['waitlist_entries.email', 'waitlist_entries.language', 'waitlist_entries.joined_at', 'waitlist_entries.invited_at', 'members.id as member_id'])
    .orderBy('waitlist_entries.joined_at')
    .orderBy('waitlist_entries.id')
    .execute();
  return rows.map((r) => ({ email: r.email, language: r.language, joinedAt: r.joined_at, invitedAt: r.invited_at, isMember: r.member_id !== null }));
}

export interface ApplicationRow {
  email: string;
  language: string;
  country: string | null;
  appliedAt: string;
  selectedAt: string | null;
}

/** The membership applications, earliest first. */
export async function listMembershipApplications(db: Db): Promise<ApplicationRow[]> {
  const rows = await db
    .selectFrom('membership_applications')
    .select(['email', 'language', 'country', 'created_at', 'selected_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ email: r.email, language: r.language, country: r.country, appliedAt: r.created_at, selectedAt: r.selected_at }));
}
