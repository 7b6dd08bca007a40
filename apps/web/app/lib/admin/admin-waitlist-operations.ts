/** The console's waiting list and applicants (ADR 047): GraphQL operations, typed from apps/api/schema.graphql (ADR 033); apart from operations.ts so the public pages' shared chunk does not carry them. */
import { graphql, operation } from '../api/operations.ts';

export const getWaitlistPage = operation(
  'waitlistPage',
  graphql(`query waitlistPage($status: WaitlistStatus, $search: String, $day: String, $after: String) {
  waitlist(status: $status, search: $search, day: $day, first: 50, after: $after) {
    entries { id email language joinedAt invitedAt isMember }
    nextCursor
  }
  waitlistAdmission {
    dailyLimit admittedToday timeZone
    releases { id kind requested invited running actorEmail createdAt finishedAt }
  }
}`),
);

export const getApplicantsPage = operation(
  'applicantsPage',
  graphql(`query applicantsPage($status: ApplicantStatus, $search: String, $day: String, $after: String) {
  applicants(status: $status, search: $search, day: $day, first: 50, after: $after) {
    entries { id email language country appliedAt selectedAt isMember }
    nextCursor
  }
}`),
);

export const waitlistInvite = operation(
  'waitlistInvite',
  graphql(`mutation waitlistInvite($ids: [String!]!) { waitlistInvite(ids: $ids) { invited userErrors { code field messageId } } }`),
);

export const waitlistRelease = operation(
  'waitlistRelease',
  graphql(`mutation waitlistRelease($count: Int!) {
  waitlistRelease(count: $count) { release { id requested invited running } userErrors { code field messageId } }
}`),
);

export const waitlistSetCapacity = operation(
  'waitlistSetCapacity',
  graphql(`mutation waitlistSetCapacity($dailyLimit: Int!) {
  waitlistSetCapacity(dailyLimit: $dailyLimit) { admission { dailyLimit } userErrors { code field messageId } }
}`),
);

export const applicantsSelect = operation(
  'applicantsSelect',
  graphql(`mutation applicantsSelect($ids: [String!]!) { applicantsSelect(ids: $ids) { invited userErrors { code field messageId } } }`),
);
