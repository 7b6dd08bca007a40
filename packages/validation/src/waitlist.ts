/**
 * The waiting list and applicants in the admin console (issue 13, ADR 047): the forms of the
 * search, the selection to invite, the batch release and the daily admission capacity. The API
 * parses the same schemas: the browser's checks are a courtesy, the server's are the rule.
 */
import { z } from 'zod';

/** At most this many people are invited by one "invite the next N". */
const RELEASE_MAX = 10_000;
/** The daily admission capacity's upper bound (0 switches it off). */
const CAPACITY_MAX = 100_000;
/** At most this many ticked rows are invited at once (one page's worth, twice). */
const SELECTION_MAX = 100;

export const WAITLIST_STATUSES = ['waiting', 'invited', 'all'] as const;
export const APPLICANT_STATUSES = ['open', 'selected', 'all'] as const;

const wholeNumber = (max: number, min: number, messageId: string) =>
  z.coerce
    .number({ error: messageId })
    .refine((n) => Number.isInteger(n) && n >= min && n <= max, { error: messageId })
    .transform((n) => Math.trunc(n));

export const waitlistReleaseForm = z.object({
  count: wholeNumber(RELEASE_MAX, 1, 'admin.waitlist.release.countInvalid'),
});

export const admissionCapacityForm = z.object({
  dailyLimit: wholeNumber(CAPACITY_MAX, 0, 'admin.waitlist.capacity.invalid'),
});

const ID = z.string().trim().min(1).max(64);

export const invitationSelectionForm = z.object({
  ids: z.array(ID, { error: 'admin.waitlist.selection.empty' }).min(1, { error: 'admin.waitlist.selection.empty' }).max(SELECTION_MAX, { error: 'admin.waitlist.selection.tooMany' }),
});

/** A day as the date input sends it (YYYY-MM-DD); anything else is no date filter. */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The search: an address or its beginning (lower-case; an index range), a day of arrival, a status. */
export function listSearch(raw: { search?: string | null; day?: string | null }): { prefix: string | null; day: string | null } {
  const prefix = raw.search?.trim().toLowerCase().slice(0, 254) || null;
  const day = raw.day && DAY.test(raw.day) && !Number.isNaN(Date.parse(`${raw.day}T00:00:00Z`)) ? raw.day : null;
  return { prefix, day };
}

/** The languages a decline reason is written in (the seven of the site; the same list as @velvet/i18n's LOCALES). */
export const DECLINE_REASON_LANGUAGES = ['en', 'de', 'fr', 'it', 'nl', 'pl', 'sv'] as const;
const REASON_TEXT_MAX = 600;
/** The cool-down's bounds, in days, before a declined applicant may apply again (issue 24 §1). */
const COOLDOWN_MIN_DAYS = 1;
const COOLDOWN_MAX_DAYS = 730;

const reasonText = z
  .string({ error: 'admin.decline.reason.textMissing' })
  .trim()
  .min(1, { error: 'admin.decline.reason.textMissing' })
  .max(REASON_TEXT_MAX, { error: 'admin.decline.reason.textTooLong' });

/** The owner's decline reason: one text in each of the seven languages; a new one has no id yet. */
export const declineReasonForm = z.object({
  id: z.string().trim().max(64).nullish(),
  ...(Object.fromEntries(DECLINE_REASON_LANGUAGES.map((language) => [language, reasonText])) as Record<(typeof DECLINE_REASON_LANGUAGES)[number], typeof reasonText>),
});

/** Declining ticked applicants: the selection, and the reason the email gives. */
export const declineSelectionForm = invitationSelectionForm.extend({
  reasonId: z.string({ error: 'admin.decline.reasonMissing' }).trim().min(1, { error: 'admin.decline.reasonMissing' }).max(64, { error: 'admin.decline.reasonMissing' }),
});

export const cooldownForm = z.object({
  days: wholeNumber(COOLDOWN_MAX_DAYS, COOLDOWN_MIN_DAYS, 'admin.decline.cooldown.invalid'),
});
