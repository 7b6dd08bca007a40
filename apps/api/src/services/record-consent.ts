/**
 * Mutation.recordConsent (ADR 011): one row per consent choice, as proof of what a browser
 * agreed to, when, under which version of the texts, in which language and country. The
 * browser is known only by the random id of its consent cookie; no IP address, no email,
 * no member id is stored.
 */
import { randomUUID } from 'node:crypto';
import { supportedCountry } from '@velvet/i18n/locales';
import type { Db } from '../db/connect.ts';
import type { ConsentAction, ConsentSource } from '../db/schema.ts';
import { languageOrDefault } from './join-waitlist.ts';

export interface RecordConsentInput {
  consentId: string;
  action: ConsentAction;
  source: ConsentSource;
  analytics: boolean;
  marketing: boolean;
  version: number;
  language: string;
  country?: string | null;
}

/** A random UUID (v4), as the consent manager generates it: nothing that could name a person. */
const CONSENT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export type RecordConsentResult = { ok: true } | { ok: false; field: 'consentId' | 'version' };

export async function recordConsent(
  deps: { db: Db; now?: Date },
  input: RecordConsentInput,
  /** The country the API detected from the request, used when the input names none it serves. */
  detectedCountry: string | null,
): Promise<RecordConsentResult> {
  const consentId = input.consentId.trim().toLowerCase();
  if (!CONSENT_ID_PATTERN.test(consentId)) return { ok: false, field: 'consentId' };
  if (!Number.isInteger(input.version) || input.version < 0 || input.version > 10_000) return { ok: false, field: 'version' };
  await deps.db
    .insertInto('consent_records')
    .values({
      id: randomUUID(),
      consent_id: consentId,
      action: input.action,
      source: input.source,
      // Rejecting everything grants nothing, whatever else was sent.
      analytics_granted: input.action === 'REJECT_ALL' ? false : input.action === 'ACCEPT_ALL' ? true : input.analytics,
      marketing_granted: input.action === 'REJECT_ALL' ? false : input.action === 'ACCEPT_ALL' ? true : input.marketing,
      version: input.version,
      language: languageOrDefault(input.language),
      country: supportedCountry(input.country) ?? supportedCountry(detectedCountry) ?? null,
      recorded_at: (deps.now ?? new Date()).toISOString(),
    })
    .execute();
  return { ok: true };
}
