/**
 * The GraphQL operations the web app sends. Their result and variable types are not written
 * here: gql.tada infers them at compile time from each document and the introspection of
 * apps/api/schema.graphql in `graphql-env.d.ts` (ADR 033), so a document that selects a field
 * the schema lacks, or a result used as a shape the schema does not give, fails
 * `npm run typecheck`. At run time an operation is its name and document text, sent as they are.
 */
import type { graphql as tadaGraphql, TadaDocumentNode } from 'gql.tada';

export interface Operation<TData, TVariables> {
  name: string;
  document: string;
  /** Phantom field: carries the types, never set. */
  readonly __types?: { data: TData; variables: TVariables };
}

/**
 * gql.tada's `graphql`, used for its types only: the type checker parses the document against
 * the schema, while at run time the document stays the text written here (no parsing, no
 * printing, nothing added to the browser bundle). Only `operation()` reads what it returns.
 */
export const graphql = ((document: string) => document) as unknown as typeof tadaGraphql;

export function operation<TData, TVariables>(name: string, document: TadaDocumentNode<TData, TVariables>): Operation<TData, TVariables> {
  return { name, document: document as unknown as string };
}

export const checkRegistrationCode = operation(
  'checkRegistrationCode',
  graphql(`query checkRegistrationCode($registrationCode: String!, $validityTimestamp: String, $slug: String, $referrer: String) {
  registrationCodeDetails(registrationCode: $registrationCode, validityTimestamp: $validityTimestamp, slug: $slug, referrer: $referrer) {
    errors
    errorDetails { error }
    invitorName
    countryOptions { isoCode termsPkString dataPolicyPkString }
    customization
    heldForReview
  }
}`),
);

export const getCountryDetails = operation(
  'countryDetails',
  graphql(`query countryDetails { countryDetails { country } }`),
);

export const register = operation(
  'register',
  graphql(`mutation register($input: RegisterInput!) {
  register(input: $input) { outcome memberId resendLimitReached emailSuggestion userErrors { code field messageId } }
}`),
);

export const activateAccount = operation(
  'activateAccount',
  graphql(`mutation activateAccount($activationId: String!) {
  activateAccount(activationId: $activationId) {
    outcome firstName language memberId memberToken
    voucher { percent minimumOrderValue currency validUntil code }
    userErrors { code field messageId }
  }
}`),
);

export const getRegistrationStatus = operation(
  'registrationStatusSnapshot',
  graphql(`query registrationStatusSnapshot($memberId: String!) {
  registrationStatus(memberId: $memberId) { memberId state }
}`),
);

/** Sent by the browser over graphql-ws (see verify-email page and live-status.ts). */
export const registrationStatusSubscription = operation(
  'registrationStatus',
  graphql(`subscription registrationStatus($memberId: String!) {
  registrationStatus(memberId: $memberId) { memberId state }
}`),
);

export const adminLogin = operation(
  'adminLogin',
  graphql(`mutation adminLogin($email: String!, $password: String!, $language: String) {
  adminLogin(email: $email, password: $password, language: $language) { token expiresAt secondFactorChallenge userErrors { code field messageId } }
}`),
);

export const adminVerifySecondFactor = operation(
  'adminVerifySecondFactor',
  graphql(`mutation adminVerifySecondFactor($challenge: String!, $code: String!, $language: String) {
  adminVerifySecondFactor(challenge: $challenge, code: $code, language: $language) { token expiresAt userErrors { code field messageId } }
}`),
);

export const adminLogout = operation(
  'adminLogout',
  graphql(`mutation adminLogout { adminLogout }`),
);

export const getAdminSession = operation(
  'adminSession',
  graphql(`query adminSession { adminSession { email expiresAt role permissions secondFactorEnabled secondFactorRequired } }`),
);

export const adminStartSecondFactorSetup = operation(
  'adminStartSecondFactorSetup',
  graphql(`mutation adminStartSecondFactorSetup { adminStartSecondFactorSetup { secret uri setupToken } }`),
);

export const adminConfirmSecondFactorSetup = operation(
  'adminConfirmSecondFactorSetup',
  graphql(`mutation adminConfirmSecondFactorSetup($setupToken: String!, $code: String!) {
  adminConfirmSecondFactorSetup(setupToken: $setupToken, code: $code) { recoveryCodes userErrors { code field messageId } }
}`),
);

export const adminChangePassword = operation(
  'adminChangePassword',
  graphql(`mutation adminChangePassword($currentPassword: String!, $newPassword: String!) {
  adminChangePassword(currentPassword: $currentPassword, newPassword: $newPassword) { done userErrors { code field messageId } }
}`),
);

export const getAdmins = operation(
  'admins',
  graphql(`query admins { admins { id email role secondFactorEnabled disabled } adminSecurityPolicy }`),
);

export const adminCreate = operation(
  'adminCreate',
  graphql(`mutation adminCreate($email: String!, $role: AdminRole!) {
  adminCreate(email: $email, role: $role) { admin { email role } password userErrors { code field messageId } }
}`),
);

export const adminSetRole = operation(
  'adminSetRole',
  graphql(`mutation adminSetRole($adminId: String!, $role: AdminRole!) { adminSetRole(adminId: $adminId, role: $role) { done userErrors { code field messageId } } }`),
);

export const adminDisable = operation(
  'adminDisable',
  graphql(`mutation adminDisable($adminId: String!) { adminDisable(adminId: $adminId) { done userErrors { code field messageId } } }`),
);

export const adminSetSecurityPolicy = operation(
  'adminSetSecurityPolicy',
  graphql(`mutation adminSetSecurityPolicy($requireSecondFactor: Boolean!) { adminSetSecurityPolicy(requireSecondFactor: $requireSecondFactor) { done } }`),
);

export const getAuditLog = operation(
  'auditLog',
  graphql(`query auditLog($action: String, $actor: String, $target: String, $after: String) {
  auditLog(action: $action, actor: $actor, target: $target, first: 50, after: $after) {
    entries { id at actorEmail clientAddress action target details }
    nextCursor
  }
}`),
);

export const generateRegistrationLink = operation(
  'generateRegistrationLink',
  graphql(`mutation generateRegistrationLink($registrationCode: String!) {
  generateRegistrationLink(registrationCode: $registrationCode) { url expiresAt userErrors { code field messageId } }
}`),
);

export const joinWaitlist = operation(
  'joinWaitlist',
  graphql(`mutation joinWaitlist($token: String!, $language: String) {
  joinWaitlist(token: $token, language: $language) { outcome email userErrors { code field messageId } }
}`),
);

/** The confirmation email's "leave the waiting list" link (ADR 058). */
export const leaveWaitlist = operation(
  'leaveWaitlist',
  graphql(`mutation leaveWaitlist($reference: String!) {
  leaveWaitlist(reference: $reference) { outcome }
}`),
);

/** The status link of every applicant's and waitlister's email (issue 24 §1, ADR 063). */
export const getApplicationStatus = operation(
  'applicationStatus',
  graphql(`query applicationStatus($reference: String!) {
  applicationStatus(reference: $reference) { state onWaitlist since decidedAt expectedWaitDays reason reapplyAfter canWithdraw }
}`),
);

export const withdrawByStatus = operation(
  'withdrawByStatus',
  graphql(`mutation withdrawByStatus($reference: String!) {
  withdrawByStatus(reference: $reference) { outcome }
}`),
);

/** The welcome voucher of the member a Bearer token names: for the verify-email page once the account is active (ADR 058). */
export const getViewerWelcomeVoucher = operation(
  'viewerWelcomeVoucher',
  graphql(`query viewerWelcomeVoucher {
  viewer { welcomeVoucher { percent minimumOrderValue currency validUntil code } }
}`),
);

export const requestLobbyLink = operation(
  'requestLobbyLink',
  graphql(`mutation requestLobbyLink($email: String!, $language: String, $proofOfWork: String) {
  requestLobbyLink(email: $email, language: $language, proofOfWork: $proofOfWork) { sent emailSuggestion userErrors { code field messageId } }
}`),
);

export const requestActivationLink = operation(
  'requestActivationLink',
  graphql(`mutation requestActivationLink($email: String!, $language: String) {
  requestActivationLink(email: $email, language: $language) { sent emailSuggestion userErrors { code field messageId } }
}`),
);

export const lobbyToken = operation(
  'lobbyToken',
  graphql(`query lobbyToken($token: String!) {
  lobbyToken(token: $token) { email onWaitlist userErrors { code field messageId } }
}`),
);

export const applyForMembership = operation(
  'applyForMembership',
  graphql(`mutation applyForMembership($email: String!, $language: String, $country: String, $proofOfWork: String) {
  applyForMembership(email: $email, language: $language, country: $country, proofOfWork: $proofOfWork) { accepted emailSuggestion reapplyAfter userErrors { code field messageId } }
}`),
);

export const proofOfWorkChallenge = operation(
  'proofOfWorkChallenge',
  graphql(`query proofOfWorkChallenge($form: ProofOfWorkForm!, $registrationCode: String, $validityTimestamp: String) {
  proofOfWorkChallenge(form: $form, registrationCode: $registrationCode, validityTimestamp: $validityTimestamp) { challenge }
}`),
);

export const completeSocialRegistration = operation(
  'completeSocialRegistration',
  graphql(`mutation completeSocialRegistration($input: CompleteSocialRegistrationInput!) {
  completeSocialRegistration(input: $input) {
    outcome memberId firstName memberToken
    voucher { percent minimumOrderValue currency validUntil code }
    userErrors { code field messageId }
  }
}`),
);

/** The result and variable types of an operation, for naming parts of them. */
export type DataOf<Op extends Operation<unknown, unknown>> = NonNullable<Op['__types']>['data'];
export type InputOf<Op extends Operation<unknown, unknown>> = NonNullable<Op['__types']>['variables'];

// Names for the parts pages pass around: derived from the schema, never written by hand.
export type RegistrationCodeDetails = DataOf<typeof checkRegistrationCode>['registrationCodeDetails'];
export type RegisterInput = InputOf<typeof register>['input'];
export type WelcomeVoucher = NonNullable<DataOf<typeof activateAccount>['activateAccount']['voucher']>;
export type RegistrationStatus = NonNullable<DataOf<typeof registrationStatusSubscription>['registrationStatus']>;
export type CompleteSocialRegistrationInput = InputOf<typeof completeSocialRegistration>['input'];
export type AdminSession = NonNullable<DataOf<typeof getAdminSession>['adminSession']>;

/** Pre-members' own data (issue 24 §2, ADR 066): the form, the page behind the link, and the status page's way there. */
export const requestDataLink = operation(
  'requestDataLink',
  graphql(`mutation requestDataLink($email: String!, $language: String, $proofOfWork: String, $message: String) {
  requestDataLink(email: $email, language: $language, proofOfWork: $proofOfWork, message: $message) { sent userErrors { code field messageId } }
}`),
);

export const ownData = operation(
  'ownData',
  graphql(`query ownData($reference: String!) {
  ownData(reference: $reference) { state email document newsletter activeMember linkExpiresAt openRequestReceivedAt openRequestDueAt sentEmailsKeptDays }
}`),
);

export const ownDataExport = operation(
  'ownDataExport',
  graphql(`mutation ownDataExport($reference: String!) { ownDataExport(reference: $reference) { fileName document } }`),
);

export const eraseOwnData = operation(
  'eraseOwnData',
  graphql(`mutation eraseOwnData($reference: String!, $language: String) { eraseOwnData(reference: $reference, language: $language) { outcome } }`),
);

export const withdrawOwnNewsletter = operation(
  'withdrawOwnNewsletter',
  graphql(`mutation withdrawOwnNewsletter($reference: String!) { withdrawOwnNewsletter(reference: $reference) { outcome } }`),
);

export const dataLinkFromStatus = operation(
  'dataLinkFromStatus',
  graphql(`mutation dataLinkFromStatus($reference: String!) { dataLinkFromStatus(reference: $reference) { reference } }`),
);
