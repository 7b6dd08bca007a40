/**
 * The waiting list and applicants (ADR 047), as the admin page asks for them
 * (apps/web/app/lib/admin/admin-waitlist-operations.ts: waitlistPage, applicantsPage). Each list pages by (arrival, id)
 * through a partial index per status, or by address through the unique email index when searching.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webOperation } from '../lib/graphql.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WAITLIST_PAGE = webOperation(root, 'waitlistPage', 'admin/admin-waitlist-operations.ts');
const APPLICANTS_PAGE = webOperation(root, 'applicantsPage', 'admin/admin-waitlist-operations.ts');

/** A cursor in the middle of the list: arrivals after 1 June 2026 (the page's own cursors look the same). */
const MIDDLE = 'WyIyMDI2LTA2LTAxVDAwOjAwOjAwLjAwMFoiLCIiXQ';

/** @type {import('../admin-lists.mjs').AdminListCase[]} */
export const cases = [
  { label: 'waitlist: first page, status=waiting (with the admission panel)', query: WAITLIST_PAGE, variables: { status: 'WAITING' } },
  { label: 'waitlist: a page deep in the list, status=invited', query: WAITLIST_PAGE, variables: { status: 'INVITED', after: MIDDLE } },
  { label: 'waitlist: address prefix search, status=waiting', query: WAITLIST_PAGE, variables: { status: 'WAITING', search: 'w' } },
  { label: 'waitlist: exact address, all', query: WAITLIST_PAGE, variables: (seed) => ({ status: 'ALL', search: seed.sample.waitlistEmail }) },
  { label: 'waitlist: arrived on a day, status=waiting', query: WAITLIST_PAGE, variables: { status: 'WAITING', day: '2026-06-01' } },
  { label: 'applicants: first page, status=open', query: APPLICANTS_PAGE, variables: { status: 'OPEN' } },
  { label: 'applicants: address prefix search, status=selected', query: APPLICANTS_PAGE, variables: { status: 'SELECTED', search: 'a' } },
  { label: 'applicants: exact address, all', query: APPLICANTS_PAGE, variables: (seed) => ({ status: 'ALL', search: seed.sample.applicationEmail }) },
  { label: 'applicants: arrived on a day, all', query: APPLICANTS_PAGE, variables: { status: 'ALL', day: '2026-06-01' } },
];
