/**
 * What an invitation code's traffic says about it (issue 12 §4, ADR 043, ADR 054): every
 * registration on it, every visit from a blocked referrer (a coupon site, a forum, web mail),
 * every code typed that misses it by one character. Each observation is counted
 * (`code_signal_counts`, per 5-minute bucket: what operators read) and remembered once per client
 * network and kind (`code_signal_networks`, with the network's country, never the address).
 *
 * The leak score weighs networks, never repeats (issue 20 §2): each network counts once, at most
 * 2 points, whatever it did and however often. With LEAK_RULES' numbers, over the last day:
 * - a network that registered when the code had no free place left (in the last hour), or came
 *   from a blocked referrer and registered on the code: 2 points;
 * - a network that came from a blocked referrer and never registered: 1 point;
 * - networks that only typed near misses, beyond 3: 1 point each;
 * - the countries of those networks, beyond 1: 2 points each.
 * Registrations within the code's places are never evidence, however many and from wherever: a
 * burst of the inviter's friends is what the places are for. A code reaching
 * CODE_QUARANTINE_SCORE (default 10) is quarantined (code-quarantine.ts): it takes five
 * networks of one country, or three from three countries — never one or two.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { CodeSignalKind, Database, NetworkSignalKind } from '../db/schema.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const LEAK_RULES = {
  /** Registered finding no place left (last hour), or came from a blocked referrer and registered. */
  pointsPerStrongNetwork: 2,
  /** Came from a blocked referrer and never registered: web mail, a look. */
  pointsPerBlockedNetwork: 1,
  /** Only typed near misses: people mistype. */
  plausibleNearMissNetworks: 3,
  pointsPerExtraNearMissNetwork: 1,
  /** Countries of the networks above: an inviter's own circle is mostly in one. */
  plausibleCountries: 1,
  pointsPerExtraCountry: 2,
} as const;

/** Who made an observation: the client's network (IPv4 /24, IPv6 /48) and country, when known. */
export interface SignalSource {
  network: string | null;
  country: string | null;
}

/** Observations are counted per 5-minute bucket (migration 0013). */
const BUCKET_MS = 5 * 60_000;
const bucketOf = (ms: number) => new Date(Math.floor(ms / BUCKET_MS) * BUCKET_MS).toISOString();

/**
 * Records one observation: its bucket's count and what its network did, two upserts of one row
 * each, whatever the code's traffic (the hot path of every registration). Without a network (none
 * known) only the count: it is no evidence against the code.
 */
export async function recordCodeSignal(db: Kysely<Database>, codeId: string, kind: NetworkSignalKind, source: SignalSource, now: Date): Promise<void> {
  const counted: CodeSignalKind = kind === 'registration_beyond_places' ? 'registration' : kind;
  await db
    .insertInto('code_signal_counts')
    .values({ registration_code_id: codeId, kind: counted, bucket_start: bucketOf(now.getTime()), count: 1 })
    .onConflict((oc) => oc.columns(['registration_code_id', 'kind', 'bucket_start']).doUpdateSet({ count: sql<number>`code_signal_counts.count + 1` }))
    .execute();
  if (!source.network) return;
  await db
    .insertInto('code_signal_networks')
    .values({ registration_code_id: codeId, kind, network: source.network, country: source.country, last_seen: now.toISOString() })
    // Never moved back by a request that started earlier and finished later.
    .onConflict((oc) =>
      oc.columns(['registration_code_id', 'kind', 'network']).doUpdateSet({
        last_seen: sql<string>`case when excluded.last_seen > code_signal_networks.last_seen then excluded.last_seen else code_signal_networks.last_seen end`,
        country: sql<string | null>`coalesce(excluded.country, code_signal_networks.country)`,
      }),
    )
    .execute();
}

/** The evidence against a code (ADR 054): each network once. */
export interface LeakEvidence {
  /** Networks that registered finding no place left, in the last hour. */
  networksBeyondPlacesLastHour: number;
  /** Networks that came from a blocked referrer, and those of them that registered on the code. */
  blockedNetworks: number;
  blockedNetworksThatRegistered: number;
  /** Networks that typed a near miss (those that did nothing else weigh, beyond 3). */
  nearMissNetworks: number;
  /** Countries of the networks above. */
  suspiciousCountries: number;
  score: number;
}

/** What operators read: the evidence and the observations, every repeat counted. */
export interface CodeSignals extends LeakEvidence {
  registrationsLastHour: number;
  blockedReferrersLastDay: number;
  nearMissesLastDay: number;
  /** Networks and countries the code was seen from in the last day, any kind. */
  networksLastDay: number;
  countriesLastDay: number;
}

/** The instants a code's windows start at: the last hour and day, from an operator's release at the earliest. */
function windows(now: Date, signalsSince: string | null) {
  const since = signalsSince ? new Date(signalsSince).getTime() : 0;
  const after = (windowMs: number) => new Date(Math.max(now.getTime() - windowMs, since)).toISOString();
  return { hour: after(HOUR_MS), day: after(DAY_MS) };
}

/**
 * The evidence against the code at `now`, from an operator's release at the earliest. Networks
 * are exact: those last seen inside the window.
 *
 * `decideAt`: the score that matters (CODE_QUARANTINE_SCORE). Networks are then read only as far
 * as they can change whether it is reached (`decideAt + 5`), so a code seen from thousands of
 * networks costs what one seen from twenty does; registrations within the places are never read
 * (they are no evidence). Without it (an operator's list) every network is read.
 */
export async function readLeakEvidence(db: Kysely<Database>, code: { id: string; signalsSince: string | null }, now: Date, decideAt?: number): Promise<LeakEvidence> {
  const { hour, day } = windows(now, code.signalsSince);
  const cap = decideAt === undefined ? Number.MAX_SAFE_INTEGER : decideAt + 5;
  // Each kind read on its own through the index (code, kind, last seen): the code's many
  // registrations within the places are never touched.
  const suspicious = (kind: NetworkSignalKind, after: string) =>
    sql`select network, country, kind from code_signal_networks where registration_code_id = ${code.id} and kind = ${kind} and last_seen > ${after}`;
  // One row per network that did anything suspicious: what it did, its country, whether it registered.
  const { rows } = await sql<{ country: string | null; beyond: number | string; blocked: number | string; nearMiss: number | string; registered: boolean | number }>`
    select max(s.country) as country,
           max(case when s.kind = 'registration_beyond_places' then 1 else 0 end) as beyond,
           max(case when s.kind = 'blocked_referrer' then 1 else 0 end) as blocked,
           max(case when s.kind = 'near_miss' then 1 else 0 end) as "nearMiss",
           exists (select 1 from code_signal_networks r
                   where r.registration_code_id = ${code.id} and r.network = s.network
                     and r.kind in ('registration', 'registration_beyond_places') and r.last_seen > ${day}) as registered
    from (${suspicious('blocked_referrer', day)} union all ${suspicious('near_miss', day)} union all ${suspicious('registration_beyond_places', hour)}) s
    group by s.network
    limit ${cap}
  `.execute(db);
  const r = LEAK_RULES;
  const networks = rows.map((row) => ({
    country: row.country,
    beyond: Number(row.beyond) === 1,
    blocked: Number(row.blocked) === 1,
    nearMiss: Number(row.nearMiss) === 1,
    registered: Number(row.registered) === 1,
  }));
  const strong = networks.filter((n) => n.beyond || (n.blocked && n.registered)).length;
  const blockedOnly = networks.filter((n) => n.blocked && !n.registered && !n.beyond).length;
  const nearMissOnly = networks.filter((n) => n.nearMiss && !n.blocked && !n.beyond).length;
  const countries = new Set(networks.flatMap((n) => (n.country ? [n.country] : []))).size;
  const extra = (count: number, plausible: number) => Math.max(0, count - plausible);
  return {
    networksBeyondPlacesLastHour: networks.filter((n) => n.beyond).length,
    blockedNetworks: networks.filter((n) => n.blocked).length,
    blockedNetworksThatRegistered: networks.filter((n) => n.blocked && n.registered).length,
    nearMissNetworks: networks.filter((n) => n.nearMiss).length,
    suspiciousCountries: countries,
    score:
      strong * r.pointsPerStrongNetwork +
      blockedOnly * r.pointsPerBlockedNetwork +
      extra(nearMissOnly, r.plausibleNearMissNetworks) * r.pointsPerExtraNearMissNetwork +
      extra(countries, r.plausibleCountries) * r.pointsPerExtraCountry,
  };
}

/**
 * The code's signals for an operator: the evidence, every network read, and the observations.
 * Observation counts are of whole 5-minute buckets: a window reaches back to the start of the
 * bucket its start falls in (up to 5 minutes more), and after a release only buckets that began
 * after it count.
 */
export async function readCodeSignals(db: Kysely<Database>, code: { id: string; signalsSince: string | null }, now: Date): Promise<CodeSignals> {
  const since = code.signalsSince ? new Date(code.signalsSince).getTime() : null;
  const bucketsFrom = (windowMs: number) => {
    const start = Math.floor((now.getTime() - windowMs) / BUCKET_MS) * BUCKET_MS;
    const afterRelease = since === null ? start : (Math.floor(since / BUCKET_MS) + 1) * BUCKET_MS;
    return new Date(Math.max(start, afterRelease)).toISOString();
  };
  const { day } = windows(now, code.signalsSince);
  const counted = (kind: CodeSignalKind, from: string) =>
    sql<number>`(select coalesce(sum(count), 0) from code_signal_counts where registration_code_id = ${code.id} and kind = ${kind} and bucket_start >= ${from})`;
  type Row = Record<'registrations' | 'blocked' | 'nearMisses' | 'networks' | 'countries', number | string>;
  const { rows } = await sql<Row>`
    select ${counted('registration', bucketsFrom(HOUR_MS))} as registrations,
           ${counted('blocked_referrer', bucketsFrom(DAY_MS))} as blocked,
           ${counted('near_miss', bucketsFrom(DAY_MS))} as "nearMisses",
           (select count(distinct network) from code_signal_networks where registration_code_id = ${code.id} and last_seen > ${day}) as networks,
           (select count(distinct country) from code_signal_networks where registration_code_id = ${code.id} and last_seen > ${day}) as countries
  `.execute(db);
  // PostgreSQL answers sums and counts as bigint strings.
  const n = (key: keyof Row) => Number(rows[0]?.[key] ?? 0);
  return {
    ...(await readLeakEvidence(db, code, now)),
    registrationsLastHour: n('registrations'),
    blockedReferrersLastDay: n('blocked'),
    nearMissesLastDay: n('nearMisses'),
    networksLastDay: n('networks'),
    countriesLastDay: n('countries'),
  };
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
