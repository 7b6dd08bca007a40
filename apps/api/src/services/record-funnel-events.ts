/**
 * Mutation.recordFunnelEvents (ADR 011): the first-party funnel. Every field is checked
 * against what it may be, and anything else is dropped or stored as null, so no personal
 * data reaches the table even when a client sends it: unknown event names are skipped,
 * a registration code is stored only as the id of a known code (never the code itself),
 * the time only as the hour it arrived in.
 */
import { randomUUID } from 'node:crypto';
import { isLocale, supportedCountry } from '@velvet/i18n/locales';
import {
  FUNNEL_SESSION_PATTERN,
  LANDING_SLUG_PATTERN,
  MAX_FUNNEL_BATCH,
  VARIANT_PATTERN,
  isTrackedEventName,
} from '@velvet/validation/funnel';
import { isRegistrationCodeFormat, normalizeRegistrationCode } from '@velvet/validation/registration-code';
import type { Db } from '../db/connect.ts';

export interface FunnelEventInput {
  name: string;
  sessionId: string;
  language?: string | null;
  country?: string | null;
  variant?: string | null;
  registrationCode?: string | null;
  landingSlug?: string | null;
  analyticsConsent?: boolean | null;
}

export type RecordFunnelEventsResult = { ok: true; stored: number } | { ok: false; reason: 'TOO_MANY' };

/** 2026-11-22T10:37:12.345Z → 2026-11-22T10:00:00.000Z */
function hourOf(date: Date): string {
  const hour = new Date(date);
  hour.setUTCMinutes(0, 0, 0);
  return hour.toISOString();
}

/** A value that fits `pattern` and does not look like an email address; else null. */
function label(value: string | null | undefined, pattern: RegExp): string | null {
  const trimmed = value?.trim();
  return trimmed && pattern.test(trimmed) && !trimmed.includes('@') ? trimmed : null;
}

export async function recordFunnelEvents(
  deps: { db: Db; now?: Date },
  events: FunnelEventInput[],
  detectedCountry: string | null,
): Promise<RecordFunnelEventsResult> {
  if (events.length > MAX_FUNNEL_BATCH) return { ok: false, reason: 'TOO_MANY' };
  const hour = hourOf(deps.now ?? new Date());
  const kept = events.filter((e) => isTrackedEventName(e.name) && FUNNEL_SESSION_PATTERN.test(e.sessionId));
  if (kept.length === 0) return { ok: true, stored: 0 };

  const codes = [...new Set(kept.map((e) => (e.registrationCode ? normalizeRegistrationCode(e.registrationCode) : undefined)).filter((c): c is string => c !== undefined && isRegistrationCodeFormat(c)))];
  const codeIds = new Map<string, string>();
  if (codes.length > 0) {
    const rows = await deps.db.selectFrom('registration_codes').select(['id', 'code']).where('code', 'in', codes).execute();
    for (const row of rows) codeIds.set(row.code, row.id);
  }
  const fallbackCountry = supportedCountry(detectedCountry) ?? null;

  await deps.db
    .insertInto('funnel_events')
    .values(
      kept.map((e) => ({
        id: randomUUID(),
        event: e.name,
        session_id: e.sessionId,
        hour,
        language: isLocale(e.language) ? e.language : null,
        country: supportedCountry(e.country) ?? fallbackCountry,
        variant: label(e.variant, VARIANT_PATTERN),
        registration_code_id: codeIds.get(e.registrationCode ? normalizeRegistrationCode(e.registrationCode) : '') ?? null,
        landing_slug: label(e.landingSlug, LANDING_SLUG_PATTERN),
        analytics_consent: e.analyticsConsent === true,
      })),
    )
    .execute();
  return { ok: true, stored: kept.length };
}
