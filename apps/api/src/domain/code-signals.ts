/**
 * What an invitation code's traffic says about it (issue 12 §4, ADR 043): every registration on
 * it, every visit from a blocked referrer (a coupon site, a forum), every code typed that misses
 * it by one character. Each observation is counted (`code_signal_counts`, per 5-minute bucket)
 * and its client network and country remembered (`code_signal_sources`, never the address); the
 * leak score reads them over their windows, at a cost that does not grow with the traffic.
 *
 * The score, with LEAK_RULES' numbers: registrations in the last hour beyond what the code's
 * balance (at least 5) makes plausible, 2 points each; client networks seen in the last day
 * beyond 5, 1 point each; countries beyond 2, 2 points each; blocked-referrer visits in the last
 * day, 3 points each; near-miss codes typed in the last day beyond 3, 1 point each. A code
 * reaching CODE_QUARANTINE_SCORE (default 10) is quarantined (code-quarantine.ts).
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { CodeSignalKind, Database } from '../db/schema.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const LEAK_RULES = {
  /** Registrations an hour a code of any balance may have before they count. */
  plausibleRegistrationsPerHour: 5,
  pointsPerExtraRegistration: 2,
  plausibleNetworks: 5,
  pointsPerExtraNetwork: 1,
  plausibleCountries: 2,
  pointsPerExtraCountry: 2,
  pointsPerBlockedReferrer: 3,
  plausibleNearMisses: 3,
  pointsPerExtraNearMiss: 1,
} as const;

/** Who made an observation: the client's network (IPv4 /24, IPv6 /64) and country, when known. */
export interface SignalSource {
  network: string | null;
  country: string | null;
}

/** Observations are counted per 5-minute bucket (migration 0013). */
const BUCKET_MS = 5 * 60_000;
const bucketOf = (ms: number) => new Date(Math.floor(ms / BUCKET_MS) * BUCKET_MS).toISOString();

/**
 * Records one observation: its bucket's count and the sources it came from, two or three
 * upserts of one row each, whatever the code's traffic (the hot path of every registration).
 */
export async function recordCodeSignal(db: Kysely<Database>, codeId: string, kind: CodeSignalKind, source: SignalSource, now: Date): Promise<void> {
  await db
    .insertInto('code_signal_counts')
    .values({ registration_code_id: codeId, kind, bucket_start: bucketOf(now.getTime()), count: 1 })
    .onConflict((oc) => oc.columns(['registration_code_id', 'kind', 'bucket_start']).doUpdateSet({ count: sql<number>`code_signal_counts.count + 1` }))
    .execute();
  const sources = [
    ...(source.network ? [{ dimension: 'network' as const, value: source.network }] : []),
    ...(source.country ? [{ dimension: 'country' as const, value: source.country }] : []),
  ];
  if (sources.length === 0) return;
  const seen = now.toISOString();
  await db
    .insertInto('code_signal_sources')
    .values(sources.map((s) => ({ registration_code_id: codeId, ...s, last_seen: seen })))
    // Never moved back by a request that started earlier and finished later.
    .onConflict((oc) =>
      oc.columns(['registration_code_id', 'dimension', 'value']).doUpdateSet({ last_seen: sql<string>`case when excluded.last_seen > code_signal_sources.last_seen then excluded.last_seen else code_signal_sources.last_seen end` }),
    )
    .execute();
}

export interface CodeSignals {
  registrationsLastHour: number;
  networksLastDay: number;
  countriesLastDay: number;
  blockedReferrersLastDay: number;
  nearMissesLastDay: number;
  score: number;
}

/**
 * The code's signals at `now`, counted from `since` at the earliest (an operator's release).
 * Counts are of whole 5-minute buckets: a window reaches back to the start of the bucket its
 * start falls in (up to 5 minutes more), and after a release only buckets that began after it
 * count (what came in the rest of that bucket is forgiven with the rest). Networks and
 * countries are exact.
 *
 * `decideAt`: the score that matters (CODE_QUARANTINE_SCORE). Networks and countries are then
 * counted only as far as they can change whether it is reached (each alone reaches it at
 * `decideAt + plausible`), so a code seen from thousands of networks costs what one seen from
 * twenty does. Without it (an operator's list) everything is counted.
 */
export async function readCodeSignals(
  db: Kysely<Database>,
  code: { id: string; balance: number; signalsSince: string | null },
  now: Date,
  decideAt?: number,
): Promise<CodeSignals> {
  const since = code.signalsSince ? new Date(code.signalsSince).getTime() : null;
  const bucketsFrom = (windowMs: number) => {
    const start = Math.floor((now.getTime() - windowMs) / BUCKET_MS) * BUCKET_MS;
    const afterRelease = since === null ? start : (Math.floor(since / BUCKET_MS) + 1) * BUCKET_MS;
    return new Date(Math.max(start, afterRelease)).toISOString();
  };
  const seenAfter = new Date(Math.max(now.getTime() - DAY_MS, since ?? 0)).toISOString();
  const r = LEAK_RULES;
  const cap = decideAt === undefined ? Number.MAX_SAFE_INTEGER : decideAt + Math.max(r.plausibleNetworks, r.plausibleCountries);
  const counted = (kind: CodeSignalKind, from: string) =>
    sql<number>`(select coalesce(sum(count), 0) from code_signal_counts where registration_code_id = ${code.id} and kind = ${kind} and bucket_start >= ${from})`;
  const sources = (dimension: 'network' | 'country') =>
    sql<number>`(select count(*) from (select 1 from code_signal_sources where registration_code_id = ${code.id} and dimension = ${dimension} and last_seen > ${seenAfter} limit ${cap}) seen)`;
  const { rows } = await sql<Record<'registrations' | 'networks' | 'countries' | 'blocked' | 'nearMisses', number | string>>`
    select ${counted('registration', bucketsFrom(HOUR_MS))} as registrations,
           ${sources('network')} as networks,
           ${sources('country')} as countries,
           ${counted('blocked_referrer', bucketsFrom(DAY_MS))} as blocked,
           ${counted('near_miss', bucketsFrom(DAY_MS))} as "nearMisses"
  `.execute(db);
  const row = rows[0];
  // PostgreSQL answers sums and counts as bigint strings.
  const n = (key: keyof NonNullable<typeof row>) => Number(row?.[key] ?? 0);
  const registrationsLastHour = n('registrations');
  const networksLastDay = n('networks');
  const countriesLastDay = n('countries');
  const blockedReferrersLastDay = n('blocked');
  const nearMissesLastDay = n('nearMisses');
  const extra = (count: number, plausible: number) => Math.max(0, count - plausible);
  const score =
    extra(registrationsLastHour, Math.max(r.plausibleRegistrationsPerHour, code.balance)) * r.pointsPerExtraRegistration +
    extra(networksLastDay, r.plausibleNetworks) * r.pointsPerExtraNetwork +
    extra(countriesLastDay, r.plausibleCountries) * r.pointsPerExtraCountry +
    blockedReferrersLastDay * r.pointsPerBlockedReferrer +
    extra(nearMissesLastDay, r.plausibleNearMisses) * r.pointsPerExtraNearMiss;
  return { registrationsLastHour, networksLastDay, countriesLastDay, blockedReferrersLastDay, nearMissesLastDay, score };
}

/** Code characters (REGISTRATION_CODE_PATTERN). */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-';
/** Longer typed codes are not searched for neighbours (the candidates grow with the length). */
const NEAR_MISS_MAX_LENGTH = 24;

/** Every code one edit away from `code`: a character changed, dropped, added, or two swapped. */
function neighbours(code: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i <= code.length; i++) {
    for (const c of ALPHABET) {
      found.add(code.slice(0, i) + c + code.slice(i));
      if (i < code.length) found.add(code.slice(0, i) + c + code.slice(i + 1));
    }
    if (i < code.length) found.add(code.slice(0, i) + code.slice(i + 1));
    if (i < code.length - 1) found.add(code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2));
  }
  found.delete(code);
  return [...found];
}

/** The id of an issued code one character away from `code` (an unknown code someone typed), or null. */
export async function nearMissOf(db: Kysely<Database>, code: string): Promise<string | null> {
  if (code.length > NEAR_MISS_MAX_LENGTH) return null;
  const candidates = neighbours(code);
  for (let i = 0; i < candidates.length; i += 500) {
    const row = await db
      .selectFrom('registration_codes')
      .select('id')
      .where('code', 'in', candidates.slice(i, i + 500))
      .executeTakeFirst();
    if (row) return row.id;
  }
  return null;
}

/** The client's country as the edge's trusted header names it (any ISO 3166 code), else null. */
export function signalCountry(headers: Headers, trustedHeader: string | undefined): string | null {
  const value = trustedHeader ? headers.get(trustedHeader)?.trim().toUpperCase() : undefined;
  return value && /^[A-Z]{2}$/.test(value) ? value : null;
}
