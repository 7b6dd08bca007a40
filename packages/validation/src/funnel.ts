/**
 * The vocabulary of the first-party funnel (spec §4 and §8), shared by the web app (which
 * tracks the events) and the API (which stores and reports them). Only these names are ever
 * stored; anything else a client sends is dropped.
 */

/** The registration funnel, in the order of spec §4. */
export const FUNNEL_STEPS = [
  'landing',
  'code_entered',
  'code_submitted',
  'email_submitted',
  'step2_landed',
  'step2_submitted',
  'welcome_landed',
  'activate_account_landed',
  'registration_success',
] as const;

/** Events outside the steps: refusals, the waiting list and the error events of spec §8. */
export const OTHER_TRACKED_EVENTS = [
  'landing_forbidden_referrer',
  'join_waitlist',
  'error_registration_code_no_balance',
  'error_registration_code_expired',
  'error_registration_timestamp_missing',
  'error_registration_account_active',
  'error_registration_account_pending',
  'error_registration_activation_failed',
  'error_registration_activation_not_found',
] as const;

const TRACKED_EVENT_NAMES = [...FUNNEL_STEPS, ...OTHER_TRACKED_EVENTS] as const;
export type TrackedEventName = (typeof TRACKED_EVENT_NAMES)[number];

export function isTrackedEventName(value: unknown): value is TrackedEventName {
  return typeof value === 'string' && (TRACKED_EVENT_NAMES as readonly string[]).includes(value);
}

/**
 * A variant or customization label (`default`, `social-15-percent-mov`, an experiment's
 * `exp-1:1`): short, and made of characters no email address, name or phone number
 * needs all of. Anything else is stored as null.
 */
export const VARIANT_PATTERN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/** A landing slug (`vip`, `lean`): lower-case letters, digits and dashes. */
export const LANDING_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** The per-page-load session id: a random UUID, nothing else. */
export const FUNNEL_SESSION_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Most events one call of recordFunnelEvents (one browser batch) may carry. */
export const MAX_FUNNEL_BATCH = 50;
