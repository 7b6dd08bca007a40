/**
 * Social sign-up through an OpenID Connect provider (docs/decisions/010-social-sign-up-oidc.md):
 * discovery of OIDC_ISSUER (cached per process), the authorization-code flow with PKCE, state
 * and nonce, and what the callback learns about the person. openid-client checks the
 * response's state and issuer, the ID token's signature, issuer, audience, expiry and nonce.
 *
 * The transaction between the two requests (PKCE verifier, state, nonce, the invitation and the
 * language) lives in a signed, HttpOnly, SameSite=Lax cookie scoped to /auth/social for ten
 * minutes; nothing is kept on the server.
 */
import { env } from '@velvet/config/env';
import { isLocale, type Locale, type Prefix } from '@velvet/i18n/locales';
import { email as emailSchema, firstName as firstNameSchema, lastName as lastNameSchema } from '@velvet/validation/registration';
import { accessCode } from '@velvet/validation/registration-code-form';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import * as client from 'openid-client';
import { createCookie, type RouterContextProvider } from 'react-router';
import { LANDING_SLUGS } from '../../screens.ts';
import { SOCIAL_BUTTONS, type SocialButton } from './social-registration.ts';
import { requestInfoContext } from '../page/context.ts';
import { localizedPath } from '../i18n/i18n.ts';
import { invitationQuery, type Invitation } from './registration.server.ts';

export const SOCIAL_START_PATH = '/auth/social/start';
const SOCIAL_CALLBACK_PATH = '/auth/social/callback';
const SCOPE = 'openid email profile';
/** How long a visitor may spend at the provider. */
const TRANSACTION_MAX_AGE_SECONDS = 10 * 60;
/** Discovery, token and userinfo requests give up after this long (seconds). */
const PROVIDER_TIMEOUT_SECONDS = 5;

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** As configured (OIDC_PROVIDER_NAME), for logs. */
  providerName: string;
  /** The token's `provider` claim: the name in lower case, e.g. `google`. */
  provider: string;
  /** Which sign-up button opens the provider; an unknown name uses the Google button. */
  button: SocialButton;
  /** Plain-http issuers are allowed outside production and on a local instance only (local providers, tests; ADR 026). */
  allowInsecureRequests: boolean;
}

/** The provider settings, or null when social sign-up is off (OIDC_ISSUER unset). */
export function oidcSettings(source: ReturnType<typeof env> = env()): OidcSettings | null {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_PROVIDER_NAME, NODE_ENV, localInstance } = source;
  if (!OIDC_ISSUER || !OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET) return null;
  const issuer = new URL(OIDC_ISSUER);
  const provider = OIDC_PROVIDER_NAME.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'oidc';
  return {
    issuer,
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    providerName: OIDC_PROVIDER_NAME,
    provider,
    button: (SOCIAL_BUTTONS as readonly string[]).includes(provider) ? (provider as SocialButton) : 'google',
    allowInsecureRequests: (NODE_ENV !== 'production' || localInstance) && issuer.protocol === 'http:',
  };
}

const configurations = new Map<string, Promise<client.Configuration>>();

/** The provider's configuration, discovered once per process; a failed discovery is retried next time. */
function providerConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer.href}\u0000${settings.clientId}`;
  let configuration = configurations.get(key);
  if (!configuration) {
    configuration = client.discovery(
      settings.issuer,
      settings.clientId,
      { client_secret: settings.clientSecret },
      client.ClientSecretBasic(settings.clientSecret),
      {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        ...(settings.allowInsecureRequests ? { execute: [client.allowInsecureRequests] } : {}),
      },
    );
    configurations.set(key, configuration);
    configuration.catch(() => configurations.delete(key));
  }
  return configuration;
}

/** What the start request hands to the callback, through the transaction cookie. */
export interface SocialTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  invitation: Invitation;
  locale: Locale;
}

export function transactionCookie(context: Readonly<RouterContextProvider>) {
  const { appSecret, secureCookies } = context.get(requestInfoContext);
  return createCookie('acq_social', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/auth/social',
    secure: secureCookies,
    secrets: [appSecret],
    maxAge: TRANSACTION_MAX_AGE_SECONDS,
  });
}

/** The cookie's value when it is a transaction of ours (it is signed, but check the shape anyway). */
export function readTransaction(value: unknown): SocialTransaction | null {
  if (!value || typeof value !== 'object') return null;
  const t = value as Partial<SocialTransaction>;
  const strings = [t.state, t.nonce, t.codeVerifier];
  if (!strings.every((s) => typeof s === 'string' && s.length >= 16 && s.length <= 200)) return null;
  if (typeof t.locale !== 'string' || !isLocale(t.locale)) return null;
  const invitation = t.invitation ? parseInvitation(t.invitation.code, t.invitation.validityTimestamp, t.invitation.slug) : null;
  if (!invitation) return null;
  return { state: t.state!, nonce: t.nonce!, codeVerifier: t.codeVerifier!, invitation, locale: t.locale };
}

const VALIDITY_TIMESTAMP = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * An invitation from untrusted input: a code of the issued format (shared schema), a
 * validityTimestamp of URL-safe characters, a known campaign slug. Null when the code is not one.
 */
export function parseInvitation(code: unknown, validityTimestamp: unknown, slug: unknown): Invitation | null {
  const parsed = accessCode.safeParse(code);
  if (!parsed.success) return null;
  return {
    code: normalizeRegistrationCode(parsed.data),
    validityTimestamp: typeof validityTimestamp === 'string' && VALIDITY_TIMESTAMP.test(validityTimestamp) ? validityTimestamp : null,
    slug: typeof slug === 'string' && (LANDING_SLUGS as readonly string[]).includes(slug) ? slug : null,
  };
}

/** The prefix pages of `locale` are under: English keeps the unprefixed default. */
export function prefixFor(locale: Locale): Prefix {
  return locale === 'en' ? '' : locale;
}

/** The landing page of the invitation, telling the visitor that the provider sign-in failed. */
export function failurePath(prefix: Prefix, invitation: Invitation | null): string {
  if (!invitation) return localizedPath(prefix, '/', 'social=failed');
  return localizedPath(prefix, invitation.slug ? `/${invitation.slug}` : '/', invitationQuery({ ...invitation, slug: null }, { social: 'failed' }));
}

/** Logged when social sign-in fails: a reason code, never the person's data or the provider's text. */
export function logFailure(reason: string): void {
  console.warn(`social sign-in failed: ${reason}`);
}

/** Where the provider sends the visitor back: always our own public address. */
export function redirectUri(publicUrl: string): string {
  return `${publicUrl}${SOCIAL_CALLBACK_PATH}`;
}

/** Starts a sign-in: the provider's authorization URL and the secrets the callback needs. */
export async function beginSignIn(
  settings: OidcSettings,
  options: { publicUrl: string; locale: Locale },
): Promise<{ url: URL; state: string; nonce: string; codeVerifier: string }> {
  const configuration = await providerConfiguration(settings);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri(options.publicUrl),
    scope: SCOPE,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ui_locales: options.locale,
  });
  return { url, state, nonce, codeVerifier };
}

/** What the provider told us about the person, as the social token carries it. */
interface SocialIdentity {
  email: string;
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
  subject: string;
}

export type SignInResult = { ok: true; identity: SocialIdentity } | { ok: false; reason: string };

/** A name the registration form would accept, else nothing (the second step asks for it). */
function acceptableName(schema: typeof firstNameSchema | typeof lastNameSchema, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Why a provider exchange failed, as a code safe to log. */
function reasonOf(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError) return `provider_${error.error}`.slice(0, 60);
  if (error instanceof client.ResponseBodyError) return `token_${error.error}`.slice(0, 60);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code.slice(0, 60);
  return error instanceof Error ? error.name : 'unknown';
}

/**
 * Finishes a sign-in at the callback: checks the response against the transaction, exchanges
 * the code, validates the ID token, and reads the person's address and names (from the ID
 * token, or from the userinfo endpoint when the provider keeps them there).
 */
export async function finishSignIn(
  settings: OidcSettings,
  callbackUrl: URL,
  transaction: Pick<SocialTransaction, 'state' | 'nonce' | 'codeVerifier'>,
): Promise<SignInResult> {
  let configuration: client.Configuration;
  try {
    configuration = await providerConfiguration(settings);
  } catch (error) {
    return { ok: false, reason: `discovery_${reasonOf(error)}` };
  }
  let claims: Record<string, unknown>;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: transaction.codeVerifier,
      expectedState: transaction.state,
      expectedNonce: transaction.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) return { ok: false, reason: 'no_id_token' };
    claims = { ...idToken };
    if (claims.email === undefined && configuration.serverMetadata().userinfo_endpoint) {
      const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
      claims = { ...userInfo, ...claims, email: userInfo.email, email_verified: userInfo.email_verified };
    }
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
  const email = emailSchema.safeParse(claims.email);
  if (!email.success) return { ok: false, reason: 'no_email' };
  const identity: SocialIdentity = {
    email: email.data,
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    subject: String(claims.sub),
  };
  const firstName = acceptableName(firstNameSchema, claims.given_name);
  const lastName = acceptableName(lastNameSchema, claims.family_name);
  if (firstName) identity.firstName = firstName;
  if (lastName) identity.lastName = lastName;
  return { ok: true, identity };
}
