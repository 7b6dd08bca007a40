/**
 * The GraphQL operations the web app sends, each typed with its variables and result so
 * the client is typed end to end against apps/api/schema.graphql (a test checks every
 * document validates against that schema). The registration vocabulary (code errors, Gender,
 * flows, outcomes, shopping preferences) is @velvet/validation's, the same the API builds its
 * enums from.
 */
import type { Gender, RegisterInput, RegistrationOutcome, ShoppingPreference } from '@velvet/validation/registration';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';

export interface Operation<TData, TVariables> {
  name: string;
  document: string;
  /** Phantom field: carries the types, never set. */
  readonly __types?: { data: TData; variables: TVariables };
}

function operation<TData, TVariables>(name: string, document: string): Operation<TData, TVariables> {
  return { name, document };
}

export interface RegistrationCodeDetails {
  errors: string[];
  errorDetails: { error: RegistrationCodeError }[];
  invitorName: string | null;
  countryOptions: { isoCode: string; termsPkString: string; dataPolicyPkString: string }[];
  customization: string | null;
}

export const checkRegistrationCode = operation<
  { registrationCodeDetails: RegistrationCodeDetails },
  { registrationCode: string; validityTimestamp?: string | null; slug?: string | null; referrer?: string | null }
>(
  'checkRegistrationCode',
  /* GraphQL */ `query checkRegistrationCode($registrationCode: String!, $validityTimestamp: String, $slug: String, $referrer: String) {
  registrationCodeDetails(registrationCode: $registrationCode, validityTimestamp: $validityTimestamp, slug: $slug, referrer: $referrer) {
    errors
    errorDetails { error }
    invitorName
    countryOptions { isoCode termsPkString dataPolicyPkString }
    customization
  }
}`,
);

export const getCountryDetails = operation<{ countryDetails: { country: string | null } }, Record<string, never>>(
  'countryDetails',
  /* GraphQL */ `query countryDetails { countryDetails { country } }`,
);

export type { RegisterInput };

export interface RegisterPayload {
  outcome: RegistrationOutcome | null;
  registrationId: string | null;
  fieldErrors: { field: string; code: string }[];
  codeErrors: RegistrationCodeError[];
}

export const register = operation<{ register: RegisterPayload }, { input: RegisterInput }>(
  'register',
  /* GraphQL */ `mutation register($input: RegisterInput!) {
  register(input: $input) { outcome registrationId fieldErrors { field code } codeErrors }
}`,
);

export interface WelcomeVoucher {
  percent: number;
  minimumOrderValue: number | null;
  currency: string;
  validUntil: string;
  code: string;
}

export interface ActivateAccountPayload {
  outcome: 'ACTIVATED' | 'ALREADY_ACTIVE' | 'NOT_FOUND' | 'FAILED';
  voucher: WelcomeVoucher | null;
  firstName: string | null;
  language: string | null;
  registrationId: string | null;
  /** Set when ACTIVATED: the member token the auth cookie keeps (ADR 022). */
  memberToken: string | null;
}

export const activateAccount = operation<{ activateAccount: ActivateAccountPayload }, { activationId: string }>(
  'activateAccount',
  /* GraphQL */ `mutation activateAccount($activationId: String!) {
  activateAccount(activationId: $activationId) {
    outcome firstName language registrationId memberToken
    voucher { percent minimumOrderValue currency validUntil code }
  }
}`,
);

export interface RegistrationStatus {
  registrationId: string;
  state: 'PENDING' | 'ACTIVE';
}

export const getRegistrationStatus = operation<{ registrationStatus: RegistrationStatus | null }, { registrationId: string }>(
  'registrationStatusSnapshot',
  /* GraphQL */ `query registrationStatusSnapshot($registrationId: String!) {
  registrationStatus(registrationId: $registrationId) { registrationId state }
}`,
);

/** Sent by the browser over graphql-ws (see verify-email page). */
export const REGISTRATION_STATUS_SUBSCRIPTION = /* GraphQL */ `subscription registrationStatus($registrationId: String!) {
  registrationStatus(registrationId: $registrationId) { registrationId state }
}`;

export const adminLogin = operation<
  { adminLogin: { token: string | null; expiresAt: string | null; error: 'INVALID_CREDENTIALS' | null } },
  { email: string; password: string }
>(
  'adminLogin',
  /* GraphQL */ `mutation adminLogin($email: String!, $password: String!) {
  adminLogin(email: $email, password: $password) { token expiresAt error }
}`,
);

export const adminLogout = operation<{ adminLogout: boolean }, Record<string, never>>(
  'adminLogout',
  /* GraphQL */ `mutation adminLogout { adminLogout }`,
);

export const getAdminSession = operation<{ adminSession: { email: string; expiresAt: string } | null }, Record<string, never>>(
  'adminSession',
  /* GraphQL */ `query adminSession { adminSession { email expiresAt } }`,
);

export const generateRegistrationLink = operation<
  { generateRegistrationLink: { url: string | null; expiresAt: string | null; errors: RegistrationCodeError[] } },
  { registrationCode: string }
>(
  'generateRegistrationLink',
  /* GraphQL */ `mutation generateRegistrationLink($registrationCode: String!) {
  generateRegistrationLink(registrationCode: $registrationCode) { url expiresAt errors }
}`,
);

export type TokenError = 'MISSING' | 'INVALID' | 'EXPIRED' | 'NO_EMAIL';

export const joinWaitlist = operation<
  { joinWaitlist: { outcome: 'JOINED' | 'ALREADY_ON_LIST' | null; email: string | null; tokenError: TokenError | null } },
  { token: string; language: string }
>(
  'joinWaitlist',
  /* GraphQL */ `mutation joinWaitlist($token: String!, $language: String) {
  joinWaitlist(token: $token, language: $language) { outcome email tokenError }
}`,
);

export const requestLobbyLink = operation<
  { requestLobbyLink: { sent: boolean; fieldErrors: { field: string; code: string }[] } },
  { email: string; language: string }
>(
  'requestLobbyLink',
  /* GraphQL */ `mutation requestLobbyLink($email: String!, $language: String) {
  requestLobbyLink(email: $email, language: $language) { sent fieldErrors { field code } }
}`,
);

export const applyForMembership = operation<
  { applyForMembership: { accepted: boolean; fieldErrors: { field: string; code: string }[] } },
  { email: string; language: string; country: string | null }
>(
  'applyForMembership',
  /* GraphQL */ `mutation applyForMembership($email: String!, $language: String, $country: String) {
  applyForMembership(email: $email, language: $language, country: $country) { accepted fieldErrors { field code } }
}`,
);

export interface CompleteSocialRegistrationInput {
  token: string;
  registrationCode: string;
  validityTimestamp?: string | null;
  slug?: string | null;
  /** The external referrer the invitation arrived with. */
  referrer?: string | null;
  gender?: Gender | null;
  firstName?: string | null;
  lastName?: string | null;
  country: string;
  newsletter: boolean;
  termsAccepted: boolean;
  termsPkString: string;
  dataPolicyPkString: string;
  language: string;
  shoppingPreferences: ShoppingPreference[];
}

export interface CompleteSocialRegistrationPayload {
  outcome: 'ACTIVATED' | 'FORM_FINISHED' | 'ACCOUNT_ACTIVE' | 'ACCOUNT_PENDING' | null;
  registrationId: string | null;
  voucher: WelcomeVoucher | null;
  firstName: string | null;
  /** Set when ACTIVATED: the member token the auth cookie keeps (ADR 022). */
  memberToken: string | null;
  fieldErrors: { field: string; code: string }[];
  codeErrors: RegistrationCodeError[];
  tokenError: 'MISSING' | 'INVALID' | 'EXPIRED' | 'NO_EMAIL' | null;
}

export const completeSocialRegistration = operation<
  { completeSocialRegistration: CompleteSocialRegistrationPayload },
  { input: CompleteSocialRegistrationInput }
>(
  'completeSocialRegistration',
  /* GraphQL */ `mutation completeSocialRegistration($input: CompleteSocialRegistrationInput!) {
  completeSocialRegistration(input: $input) {
    outcome registrationId firstName memberToken
    voucher { percent minimumOrderValue currency validUntil code }
    fieldErrors { field code }
    codeErrors
    tokenError
  }
}`,
);
