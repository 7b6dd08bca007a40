/**
 * The funnel and error events of spec §4 and §8, in one typed module (ADR 011).
 *
 * `track()` does two things with an event:
 * - it sends it, without personal data, to the first-party funnel (`funnel.ts`), always;
 * - it queues it for the data layer. The queue waits for consent readiness (spec §4, §9:
 *   `consent.ts`); then it is flushed in order to `window.dataLayer` if the visitor granted
 *   analytics, and dropped if not. Later events go straight through (or nowhere).
 * Email addresses and registration ids only ever reach the data layer as SHA-256 hex: a
 * hash field that is not one is hashed here, and so is any value that looks like an email.
 */
import { isTrackedEventName, type TrackedEventName } from '@velvet/validation/funnel';
import { asciiEmail } from '@velvet/validation/email-domain';
import { consentState, startConsent, subscribeConsent } from '../consent/consent.ts';
import type { RegistrationFlow } from '@velvet/validation/registration';
import { sendFunnelEvent } from './funnel.ts';
import { whenRuntimeConfig } from '../page/runtime-config.ts';
import { assertTagManagerId, loadTagManager } from './tag-manager.ts';

/** The flow of a second step (spec §3): the lean flow's names, or the social sign-up's second step. */
type SecondStepFlow = Extract<RegistrationFlow, 'leanStep2' | 'socialRegistration'>;

/** The steps of spec §4, in its order; `flow` carries the registration flow value of spec §3. */
export type FunnelEvent =
  | { event: 'landing'; variant: string; hasCode: boolean }
  | { event: 'code_entered' }
  | { event: 'code_submitted' }
  | { event: 'email_submitted'; flow: Exclude<RegistrationFlow, 'leanStep2'>; emailHash?: string }
  | { event: 'step2_landed'; flow: SecondStepFlow }
  | { event: 'step2_submitted'; flow: SecondStepFlow }
  | { event: 'welcome_landed' }
  | { event: 'activate_account_landed' }
  | { event: 'registration_success'; registrationIdHash?: string }
  | { event: 'landing_forbidden_referrer'; referrerHost: string }
  | { event: 'join_waitlist'; method: 'Google' };

/** The error events of spec §8 (@velvet/validation/funnel). */
type ErrorEvent = { event: Extract<TrackedEventName, `error_${string}`> };

/** Spec §3: a visitor was assigned to an experiment's variation (ADR 012); data layer only. */
type ExperimentEvent = { event: 'assign_experiment'; experiment_id: string; variation_id: string; acq_anonymous_id: string };

export type TrackedEvent = FunnelEvent | ErrorEvent | ExperimentEvent;

const pending: TrackedEvent[] = [];
const trackedThisPage = new Set<string>();

/**
 * Tracks a step of the funnel once per page load: a form counts it when submitted, and the
 * page of the outcome counts it only if that did not happen in this page load (the form was
 * posted before the page's scripts ran, so the outcome is a new page).
 */
export function trackStep(event: FunnelEvent): void {
  if (trackedThisPage.has(event.event)) return;
  trackedThisPage.add(event.event);
  track(event);
}
let chain: Promise<void> = Promise.resolve();

export function track(event: TrackedEvent): void {
  if (typeof window === 'undefined') return;
  // The first-party funnel stores the events of packages/validation/src/funnel.ts only.
  if (isTrackedEventName(event.event)) sendFunnelEvent(event.event, 'variant' in event ? event.variant : undefined);
  pending.push(event);
  drain();
}

/** Flushes the queue once consent is known: to the data layer with analytics consent, else nowhere. */
function drain(): void {
  const consent = consentState();
  if (!consent.ready || pending.length === 0) return;
  const batch = pending.splice(0);
  if (!consent.analytics) return;
  for (const event of batch) {
    chain = chain.then(async () => {
      const safe = await withoutPersonalData(event);
      window.dataLayer ??= [];
      window.dataLayer.push(safe);
    });
  }
}

const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Hash fields are SHA-256 hex, and nothing that looks like an email address passes unhashed. */
export async function withoutPersonalData(event: TrackedEvent): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(event).map(async ([key, value]): Promise<[string, unknown]> => {
      if (typeof value !== 'string' || key === 'event') return [key, value];
      // An address's hash is of the form the club keeps (domain in ASCII, ADR 042), however the page holds it.
      if (key.endsWith('Hash')) return [key, SHA256_HEX.test(value) ? value : await sha256(asciiEmail(value))];
      return [key, EMAIL.test(value) ? await sha256(value) : value];
    }),
  );
  return Object.fromEntries(entries);
}

let started = false;

let tagManager: { scriptUrl: string; containerId: string } | null = null;

function onConsent(): void {
  drain();
  const consent = consentState();
  if (tagManager && consent.ready && consent.analytics) loadTagManager(tagManager.scriptUrl, tagManager.containerId);
}

/**
 * Starts consent readiness (once per page, from the root route) and, once the runtime
 * settings are read (spec §7.1), the tag manager: it loads when analytics is granted, and
 * only with a valid container id — an invalid one throws (spec §5).
 */
export function startAnalytics(options: { cmpOnPage: boolean; tagManagerScriptUrl: string }): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  subscribeConsent(onConsent);
  startConsent({ cmpOnPage: options.cmpOnPage });
  onConsent();
  void whenRuntimeConfig().then(({ gtmContainerId }) => {
    if (!gtmContainerId) return;
    tagManager = { scriptUrl: options.tagManagerScriptUrl, containerId: assertTagManagerId(gtmContainerId) };
    onConsent();
  });
}

/** Hex SHA-256, for the email and the registration id (spec §9). */
export async function sha256(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value.trim().toLowerCase()));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Where the arrival rule keeps a refused invitation and its referrer (spec §4). */
export const DENIED_INVITATION_KEY = 'acq.deniedInvitation';
