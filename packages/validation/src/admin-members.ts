/**
 * The member look-up and the data-protection page (issue 13, ADR 048): one address, exact, after
 * the normalization every form of the product applies (trimmed, lower-cased; registration.ts).
 * The same schema on the page and in the API, so a malformed address gets the same message.
 */
import { z } from 'zod';
import { email } from './registration.ts';

export const memberLookupForm = z.object({ email: z.string({ error: 'validation.email' }).pipe(email) });

/** What the export file says it is: a reader checks both before reading the rest. */
export const PERSONAL_DATA_EXPORT_SCHEMA = 'velvet-rope/personal-data-export';
export const PERSONAL_DATA_EXPORT_VERSION = 1;
