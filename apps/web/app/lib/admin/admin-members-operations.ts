/** The console's member look-up and data protection (ADR 048): GraphQL operations, typed from apps/api/schema.graphql (ADR 033); apart from operations.ts so the public pages' shared chunk does not carry them. */
import { graphql, operation } from '../api/operations.ts';

export const memberLookup = operation(
  'memberLookup',
  graphql(`query memberLookup($email: String!) {
  memberLookup(email: $email) {
    record {
      email reference
      registration {
        id status firstName lastName country language newsletter createdAt activatedAt code holdsPlace placeHeldUntil
        activationLinks { reason state createdAt expiresAt }
        consents { acceptedAt country termsVersion dataPolicyVersion newsletter }
      }
      heldRegistrations { code createdAt }
      waitlist { joinedAt consentAt invitedAt }
      application { createdAt consentAt selectedAt }
      emails { id template status attempts createdAt sentAt }
    }
    userErrors { code field messageId }
  }
}`),
);

export const memberResendActivation = operation(
  'memberResendActivation',
  graphql(`mutation memberResendActivation($memberId: String!) { memberResendActivation(memberId: $memberId) { done userErrors { code field messageId } } }`),
);

export const memberFreePlace = operation(
  'memberFreePlace',
  graphql(`mutation memberFreePlace($memberId: String!) { memberFreePlace(memberId: $memberId) { done userErrors { code field messageId } } }`),
);

export const personalDataExport = operation(
  'personalDataExport',
  graphql(`mutation personalDataExport($email: String!) { personalDataExport(email: $email) { fileName document userErrors { code field messageId } } }`),
);

export const personalDataErase = operation(
  'personalDataErase',
  graphql(`mutation personalDataErase($email: String!) {
  personalDataErase(email: $email) { erasure { erasureId reference erasedAt removed keptConsentProofs anonymisedInviter } userErrors { code field messageId } }
}`),
);

/** Privacy requests that need a person, with their legal deadline (issue 24 §2, ADR 066). */
export const privacyRequests = operation(
  'privacyRequests',
  graphql(`query privacyRequests { privacyRequests { id email kind message language receivedAt dueAt doneAt } }`),
);

export const markPrivacyRequestDone = operation(
  'markPrivacyRequestDone',
  graphql(`mutation markPrivacyRequestDone($id: String!) { markPrivacyRequestDone(id: $id) }`),
);
