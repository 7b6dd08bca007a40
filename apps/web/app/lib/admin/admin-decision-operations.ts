/** The console's decisions on applicants (issue 24 §1, ADR 063): GraphQL operations, typed from apps/api/schema.graphql (ADR 033). */
import { graphql, operation } from '../api/operations.ts';

export const getDecisionSettings = operation(
  'decisionSettings',
  graphql(`query decisionSettings {
  declineReasons { id position updatedAt texts { en de fr it nl pl sv } }
  applicationCooldownDays
}`),
);

export const getApplicantHistory = operation(
  'applicantHistory',
  graphql(`query applicantHistory($email: String!) {
  applicantHistory(email: $email) { kind at reasonId reason decidedBy reapplyAfter }
}`),
);

export const applicantsDecline = operation(
  'applicantsDecline',
  graphql(`mutation applicantsDecline($ids: [String!]!, $reasonId: String!) {
  applicantsDecline(ids: $ids, reasonId: $reasonId) { declined userErrors { code field messageId } }
}`),
);

export const declineReasonSave = operation(
  'declineReasonSave',
  graphql(`mutation declineReasonSave($input: DeclineReasonInput!) {
  declineReasonSave(input: $input) { reason { id } userErrors { code field messageId } }
}`),
);

export const applicationCooldownSet = operation(
  'applicationCooldownSet',
  graphql(`mutation applicationCooldownSet($days: Int!) {
  applicationCooldownSet(days: $days) { cooldownDays userErrors { code field messageId } }
}`),
);

export const getDeclinesPage = operation(
  'declinesPage',
  graphql(`query declinesPage($reasonId: String, $day: String, $after: String) {
  applicationDeclines(reasonId: $reasonId, day: $day, after: $after) { entries { id declinedAt reasonId reason decidedBy reapplyAfter language } nextCursor }
  declineReasons { id position updatedAt texts { en de fr it nl pl sv } }
}`),
);
