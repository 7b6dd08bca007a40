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
