/** The admin funnel's GraphQL operation (validated against apps/api/schema.graphql by a test). */
import type { Operation } from './operations.ts';

export interface FunnelCount {
  event: string;
  events: number;
  sessions: number;
}

export interface FunnelReportData {
  steps: FunnelCount[];
  otherEvents: FunnelCount[];
  sessions: number;
  options: {
    languages: string[];
    countries: string[];
    variants: string[];
    invitationLinks: { registrationCodeId: string; code: string; landingSlug: string | null }[];
  };
}

export interface FunnelFilter {
  language?: string | null;
  country?: string | null;
  variant?: string | null;
  registrationCodeId?: string | null;
}

export const getFunnelReport: Operation<{ funnelReport: FunnelReportData }, { filter: FunnelFilter }> = {
  name: 'funnelReport',
  document: /* GraphQL */ `query funnelReport($filter: FunnelFilter) {
  funnelReport(filter: $filter) {
    steps { event events sessions }
    otherEvents { event events sessions }
    sessions
    options { languages countries variants invitationLinks { registrationCodeId code landingSlug } }
  }
}`,
};
