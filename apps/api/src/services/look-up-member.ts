/**
 * Customer service's look-up (issue 13, ADR 048): everything the club holds about one address,
 * found by exact match on indexed columns only (members, the waiting list and the applications are
 * unique by address; held registrations and the outbox have an index on it). Nobody can browse:
 * without the exact address there is nothing to see.
 */
import { memberLookupForm } from '@velvet/validation/admin-members';
import { fieldError } from '@velvet/validation/user-errors';
import type { Db } from '../db/connect.ts';
import type { MemberStatus } from '../db/schema.ts';
import { privacySubject } from '../domain/privacy-subject.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';

/** The emails of one address shown and exported, newest first (an address gets a handful). */
const EMAILS_SHOWN = 100;

export interface ActivationLinkRecord {
  reason: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  supersededAt: string | null;
  /** current (can be used now), used, superseded (a newer link replaced it) or expired. */
  state: 'current' | 'used' | 'superseded' | 'expired';
}

export interface ConsentProof {
  acceptedAt: string;
  country: string;
  termsVersion: string;
  dataPolicyVersion: string;
  newsletter: boolean;
}

export interface RegistrationRecord {
  id: string;
  status: MemberStatus;
  firstName: string;
  lastName: string;
  gender: string | null;
  country: string | null;
  language: string | null;
  newsletter: boolean;
  createdAt: string;
  activatedAt: string | null;
  code: string | null;
  /** Until when the pending registration holds its place on the code (null: no link, holds it). */
  placeHeldUntil: string | null;
  holdsPlace: boolean;
  activations: ActivationLinkRecord[];
  consents: ConsentProof[];
}

export interface EmailRecord {
  id: string;
  template: string;
  locale: string;
  status: string;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
}

export interface MemberRecord {
  email: string;
  /** The pseudonym the audit log names this address by. */
  reference: string;
  registration: RegistrationRecord | null;
  heldRegistrations: { code: string; createdAt: string; language: string }[];
  waitlist: { joinedAt: string; consentAt: string; invitedAt: string | null; language: string } | null;
  application: { createdAt: string; consentAt: string; selectedAt: string | null; country: string | null; language: string } | null;
  emails: EmailRecord[];
}

/** The address as the product stores it, or why it cannot be one. */
export function normalizedAddress(input: string): Result<string> {
  const parsed = memberLookupForm.safeParse({ email: input });
  if (!parsed.success) return fail(fieldError('email', parsed.error.issues[0]?.message ?? 'validation.email'));
  return ok(parsed.data.email);
}

function linkState(link: { used_at: string | null; superseded_at: string | null; expires_at: string }, now: string): ActivationLinkRecord['state'] {
  if (link.used_at) return 'used';
  if (link.superseded_at) return 'superseded';
  return link.expires_at > now ? 'current' : 'expired';
}

export async function lookUpMember(deps: { db: Db; secret: string; now: Date }, input: string): Promise<Result<{ email: string; record: MemberRecord | null }>> {
  const address = normalizedAddress(input);
  if (!address.ok) return address;
  const email = address.value;
  return ok({ email, record: await recordOf(deps, email) });
}

/** Everything held about `email` (normalized), or null when nothing is. */
export async function recordOf(deps: { db: Db; secret: string; now: Date }, email: string): Promise<MemberRecord | null> {
  const { db } = deps;
  const now = deps.now.toISOString();
  const [member, held, waitlist, application, emails] = await Promise.all([
    db
      .selectFrom('members as m')
      .leftJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
      .select([
        'm.id',
        'm.status',
        'm.first_name',
        'm.last_name',
        'm.gender',
        'm.country',
        'm.language',
        'm.newsletter',
        'm.created_at',
        'm.activated_at',
        'm.place_held_until',
        'rc.code',
      ])
      .where('m.email', '=', email)
      .executeTakeFirst(),
    db
      .selectFrom('held_registrations as h')
      .innerJoin('registration_codes as rc', 'rc.id', 'h.registration_code_id')
      .select(['rc.code', 'h.created_at', 'h.language'])
      .where('h.email', '=', email)
      .orderBy('h.created_at', 'desc')
      .execute(),
    db.selectFrom('waitlist_entries').select(['joined_at', 'consent_at', 'invited_at', 'language']).where('email', '=', email).executeTakeFirst(),
    db
      .selectFrom('membership_applications')
      .select(['created_at', 'consent_at', 'selected_at', 'country', 'language'])
      .where('email', '=', email)
      .executeTakeFirst(),
    db
      .selectFrom('email_outbox')
      .select(['id', 'template', 'locale', 'status', 'attempts', 'created_at', 'sent_at'])
      .where('recipient', '=', email)
      .orderBy('created_at', 'desc')
      .limit(EMAILS_SHOWN)
      .execute(),
  ]);
  if (!member && held.length === 0 && !waitlist && !application && emails.length === 0) return null;
  let registration: RegistrationRecord | null = null;
  if (member) {
    const [links, consents] = await Promise.all([
      db
        .selectFrom('activations')
        .select(['reason', 'created_at', 'expires_at', 'used_at', 'superseded_at'])
        .where('member_id', '=', member.id)
        .orderBy('created_at', 'desc')
        .execute(),
      db
        .selectFrom('consents')
        .select(['accepted_at', 'country', 'terms_pk_string', 'data_policy_pk_string', 'newsletter'])
        .where('member_id', '=', member.id)
        .orderBy('accepted_at', 'desc')
        .execute(),
    ]);
    const holdsPlace = member.status === 'pending' && (member.place_held_until === null || member.place_held_until > now);
    registration = {
      id: member.id,
      status: member.status,
      firstName: member.first_name,
      lastName: member.last_name,
      gender: member.gender,
      country: member.country,
      language: member.language,
      newsletter: member.newsletter,
      createdAt: member.created_at,
      activatedAt: member.activated_at,
      code: member.code,
      placeHeldUntil: member.place_held_until,
      holdsPlace,
      activations: links.map((l) => ({
        reason: l.reason,
        createdAt: l.created_at,
        expiresAt: l.expires_at,
        usedAt: l.used_at,
        supersededAt: l.superseded_at,
        state: linkState(l, now),
      })),
      consents: consents.map((c) => ({
        acceptedAt: c.accepted_at,
        country: c.country,
        termsVersion: c.terms_pk_string,
        dataPolicyVersion: c.data_policy_pk_string,
        newsletter: c.newsletter,
      })),
    };
  }
  return {
    email,
    reference: privacySubject(email, deps.secret),
    registration,
    heldRegistrations: held.map((h) => ({ code: h.code, createdAt: h.created_at, language: h.language })),
    waitlist: waitlist ? { joinedAt: waitlist.joined_at, consentAt: waitlist.consent_at, invitedAt: waitlist.invited_at, language: waitlist.language } : null,
    application: application
      ? { createdAt: application.created_at, consentAt: application.consent_at, selectedAt: application.selected_at, country: application.country, language: application.language }
      : null,
    emails: emails.map((e) => ({
      id: e.id,
      template: e.template,
      locale: e.locale,
      status: e.status,
      attempts: e.attempts,
      createdAt: e.created_at,
      sentAt: e.sent_at,
    })),
  };
}
