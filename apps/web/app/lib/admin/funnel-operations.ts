/** The admin funnel's GraphQL operation (types inferred from apps/api/schema.graphql, ADR 033). */
import { graphql, operation, type DataOf, type InputOf } from '../api/operations.ts';

export const getFunnelReport = operation(
  'funnelReport',
  graphql(`query funnelReport($filter: FunnelFilter) {
  funnelReport(filter: $filter) {
    steps { event events sessions }
    otherEvents { event events sessions }
    sessions
    options { languages countries variants invitationLinks { registrationCodeId code landingSlug } }
  }
}`),
);

export type FunnelCount = DataOf<typeof getFunnelReport>['funnelReport']['steps'][number];
export type FunnelFilter = NonNullable<InputOf<typeof getFunnelReport>['filter']>;
