/**
 * What the console reads about invitations (issue 13, ADR 046): the code list, newest first, a
 * page at a time with a keyset cursor, searched by code (exact) and inviter (first name,
 * case-insensitive), filtered by customization, slug and state; and one code with its visits,
 * registrations, activations, funnel and the last 30 days. Every filter is served by an index
 * (migration 0009) on SQLite and PostgreSQL.
 */
import { CODE_STATES } from '@velvet/validation/codes';
import type { CodeState } from '@velvet/validation/codes';
import type { Customization } from '@velvet/validation/customization';
import { FUNNEL_STEPS } from '@velvet/validation/funnel';
import { isRegistrationCodeFormat, normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { sql } from 'kysely';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database, MemberStatus } from '../db/schema.ts';

export interface CodeFilter {
  code?: string | null;
  inviter?: string | null;
  customization?: string | null;
  slug?: string | null;
  state?: string | null;
}

export interface CodeRow {
  id: string;
  code: string;
  inviterName: string;
  inviterStatus: MemberStatus;
  balance: number;
  pending: number;
  expiresAt: string | null;
  customization: Customization | null;
  landingSlug: string | null;
  requiresValidityTimestamp: boolean;
  createdAt: string;
  quarantinedAt: string | null;
  revokedAt: string | null;
  revokedReason: 'revoked' | 'rotated' | null;
  state: CodeState;
}

type Eb = ExpressionBuilder<Database & { rc: Database['registration_codes'] }, 'rc'>;

/** The state's condition; the order of CODE_STATES is the precedence (a revoked, expired code is revoked). */
function stateCondition(eb: Eb, state: CodeState, now: string) {
  const live = [eb('rc.revoked_at', 'is', null), eb('rc.disabled', '=', false), eb('rc.quarantined_at', 'is', null)];
  const current = eb.or([eb('rc.expires_at', 'is', null), eb('rc.expires_at', '>', now)]);
  switch (state) {
    case 'revoked':
      return eb('rc.revoked_at', 'is not', null);
    case 'quarantined':
      return eb.and([eb('rc.revoked_at', 'is', null), eb('rc.disabled', '=', false), eb('rc.quarantined_at', 'is not', null)]);
    case 'expired':
      return eb.and([...live, eb('rc.expires_at', '<=', now)]);
    case 'exhausted':
      return eb.and([...live, current, eb('rc.balance', '<=', eb.ref('rc.pending_members'))]);
    case 'valid':
      return eb.and([...live, current, eb('rc.balance', '>', eb.ref('rc.pending_members'))]);
  }
}

function stateOf(row: { revoked_at: string | null; disabled: boolean; quarantined_at: string | null; expires_at: string | null; balance: number; pending_members: number }, now: Date): CodeState {
  if (row.revoked_at !== null || row.disabled) return 'revoked';
  if (row.quarantined_at !== null) return 'quarantined';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return 'expired';
  if (row.balance <= row.pending_members) return 'exhausted';
  return 'valid';
}

/** `<created_at>~<id>` in base64url; anything else is the first page. */
function encodeCursor(row: { created_at: string; id: string }): string {
  return Buffer.from(`${row.created_at}~${row.id}`).toString('base64url');
}
function decodeCursor(cursor: string | null | undefined): { createdAt: string; id: string } | null {
  if (!cursor || cursor.length > 200) return null;
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('~');
  if (!createdAt || !id || rest.length > 0 || Number.isNaN(Date.parse(createdAt)) || !/^[0-9a-f-]{1,64}$/.test(id)) return null;
  return { createdAt: new Date(createdAt).toISOString(), id };
}

function baseQuery(db: Db) {
  return db
    .selectFrom('registration_codes as rc')
    .innerJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
    .select([
      'rc.id',
      'rc.code',
      'rc.balance',
      'rc.pending_members',
      'rc.expires_at',
      'rc.customization',
      'rc.landing_slug',
      'rc.requires_validity_timestamp',
      'rc.disabled',
      'rc.created_at',
      'rc.quarantined_at',
      'rc.revoked_at',
      'rc.revoked_reason',
      'inviter.first_name',
      'inviter.status',
    ]);
}

type BaseRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function toCodeRow(row: BaseRow, now: Date): CodeRow {
  return {
    id: row.id,
    code: row.code,
    inviterName: row.first_name,
    inviterStatus: row.status,
    balance: row.balance,
    pending: Number(row.pending_members),
    expiresAt: row.expires_at,
    customization: row.customization,
    landingSlug: row.landing_slug,
    requiresValidityTimestamp: row.requires_validity_timestamp,
    createdAt: row.created_at,
    quarantinedAt: row.quarantined_at,
    revokedAt: row.revoked_at,
    revokedReason: row.revoked_reason,
    state: stateOf({ ...row, pending_members: Number(row.pending_members) }, now),
  };
}

export async function listCodes(
  db: Db,
  filter: CodeFilter,
  page: { first: number; after?: string | null },
  now: Date,
): Promise<{ codes: CodeRow[]; nextCursor: string | null }> {
  let query = baseQuery(db);
  const code = filter.code?.trim();
  if (code) {
    // Exact: a code that cannot exist finds nothing without a look-up.
    if (!isRegistrationCodeFormat(code)) return { codes: [], nextCursor: null };
    query = query.where('rc.code', '=', normalizeRegistrationCode(code));
  }
  const inviter = filter.inviter?.trim().toLowerCase().slice(0, 100);
  if (inviter) query = query.where(sql<string>`lower(inviter.first_name)`, '=', inviter);
  if (filter.customization) query = query.where('rc.customization', '=', filter.customization.slice(0, 64) as Customization);
  const slug = filter.slug?.trim().toLowerCase().slice(0, 64);
  if (slug) query = query.where('rc.landing_slug', '=', slug);
  const state = CODE_STATES.find((s) => s === filter.state);
  const at = now.toISOString();
  if (state) query = query.where((eb) => stateCondition(eb as unknown as Eb, state, at));
  const cursor = decodeCursor(page.after);
  if (cursor) query = query.where((eb) => eb(eb.refTuple('rc.created_at', 'rc.id'), '<', eb.tuple(cursor.createdAt, cursor.id)));
  const rows = await query.orderBy('rc.created_at', 'desc').orderBy('rc.id', 'desc').limit(page.first + 1).execute();
  const last = rows[page.first - 1];
  return { codes: rows.slice(0, page.first).map((row) => toCodeRow(row, now)), nextCursor: rows.length > page.first && last ? encodeCursor(last) : null };
}

export interface CodeDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  visits: number;
  registrations: number;
  activations: number;
}

export interface CodeDetail extends CodeRow {
  /** Page loads of the code's landing page (the funnel's `landing` events). */
  visits: number;
  registrations: number;
  activations: number;
  /** Page-load sessions that reached each step of the funnel, in the funnel's order. */
  funnel: { event: string; sessions: number }[];
  /** The last 30 days, oldest first. */
  days: CodeDay[];
}

const DAYS = 30;
const dayOf = (iso: string) => new Date(iso).toISOString().slice(0, 10);

export async function readCode(db: Db, rawCode: string, now: Date): Promise<CodeDetail | null> {
  const code = normalizeRegistrationCode(rawCode);
  if (!isRegistrationCodeFormat(code)) return null;
  const row = await baseQuery(db).where('rc.code', '=', code).executeTakeFirst();
  if (!row) return null;
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (DAYS - 1))).toISOString();

  const [members, funnel, visitsByHour, visits, recentMembers] = await Promise.all([
    db
      .selectFrom('members')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('registration_code_id', '=', row.id)
      .groupBy('status')
      .execute(),
    db
      .selectFrom('funnel_events')
      .select(['event', (eb) => eb.fn.count<number | string>('session_id').distinct().as('n')])
      .where('registration_code_id', '=', row.id)
      .groupBy('event')
      .execute(),
    db
      .selectFrom('funnel_events')
      .select(['hour', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('registration_code_id', '=', row.id)
      .where('event', '=', 'landing')
      .where('hour', '>=', since)
      .groupBy('hour')
      .execute(),
    db
      .selectFrom('funnel_events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('registration_code_id', '=', row.id)
      .where('event', '=', 'landing')
      .executeTakeFirst(),
    db
      .selectFrom('members')
      .select(['created_at', 'activated_at', 'status'])
      .where('registration_code_id', '=', row.id)
      .where((eb) => eb.or([eb('created_at', '>=', since), eb('activated_at', '>=', since)]))
      .execute(),
  ]);

  const days = new Map<string, CodeDay>();
  for (let i = 0; i < DAYS; i++) {
    const day = dayOf(new Date(Date.parse(since) + i * 86_400_000).toISOString());
    days.set(day, { day, visits: 0, registrations: 0, activations: 0 });
  }
  for (const hour of visitsByHour) {
    const entry = days.get(dayOf(hour.hour));
    if (entry) entry.visits += Number(hour.n);
  }
  for (const member of recentMembers) {
    const registered = days.get(dayOf(member.created_at));
    if (registered) registered.registrations += 1;
    const activated = member.activated_at && member.status === 'active' ? days.get(dayOf(member.activated_at)) : undefined;
    if (activated) activated.activations += 1;
  }
  const sessions = new Map(funnel.map((f) => [f.event, Number(f.n)]));
  const count = (status: MemberStatus | null) => members.reduce((sum, m) => sum + (status === null || m.status === status ? Number(m.n) : 0), 0);
  return {
    ...toCodeRow(row, now),
    visits: Number(visits?.n ?? 0),
    registrations: count(null),
    activations: count('active'),
    funnel: FUNNEL_STEPS.map((event) => ({ event, sessions: sessions.get(event) ?? 0 })),
    days: [...days.values()],
  };
}
