/**
 * What an invitation code's traffic says about it (issue 12 §4, ADR 043): every registration on
 * it, every visit from a blocked referrer (a coupon site, a forum), every code typed that misses
 * it by one character. Each observation is a row (`code_signals`, the client's network and
 * country, never the address); the leak score reads them over their windows.
 *
 * The score, with LEAK_RULES' numbers: registrations in the last hour beyond what the code's
 * balance (at least 5) makes plausible, 2 points each; client networks seen in the last day
 * beyond 5, 1 point each; countries beyond 2, 2 points each; blocked-referrer visits in the last
 * day, 3 points each; near-miss codes typed in the last day beyond 3, 1 point each. A code
 * reaching CODE_QUARANTINE_SCORE (default 10) is quarantined (code-quarantine.ts).
 */
import { randomUUID } from 'node:crypto';
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

export async function recordCodeSignal(db: Kysely<Database>, codeId: string, kind: CodeSignalKind, source: SignalSource, now: Date): Promise<void> {
  await db
    .insertInto('code_signals')
    .values({ id: randomUUID(), registration_code_id: codeId, kind, network: source.network, country: source.country, created_at: now.toISOString() })
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

/** The code's signals at `now`, counted from `since` at the earliest (an operator's release). */
export async function readCodeSignals(db: Kysely<Database>, code: { id: string; balance: number; signalsSince: string | null }, now: Date): Promise<CodeSignals> {
  const from = (windowMs: number) => {
    const start = new Date(now.getTime() - windowMs).toISOString();
    return code.signalsSince && code.signalsSince > start ? code.signalsSince : start;
  };
  const rows = await db
    .selectFrom('code_signals')
    .select(['kind', 'network', 'country', 'created_at'])
    .where('registration_code_id', '=', code.id)
    .where('created_at', '>', from(DAY_MS))
    .execute();
  const hourStart = from(HOUR_MS);
  const registrationsLastHour = rows.filter((r) => r.kind === 'registration' && r.created_at > hourStart).length;
  const networksLastDay = new Set(rows.map((r) => r.network).filter(Boolean)).size;
  const countriesLastDay = new Set(rows.map((r) => r.country).filter(Boolean)).size;
  const blockedReferrersLastDay = rows.filter((r) => r.kind === 'blocked_referrer').length;
  const nearMissesLastDay = rows.filter((r) => r.kind === 'near_miss').length;
  const extra = (count: number, plausible: number) => Math.max(0, count - plausible);
  const r = LEAK_RULES;
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
