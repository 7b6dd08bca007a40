/**
 * Signed, self-contained tokens the web app and the API both understand (docs/decisions/009):
 *
 * - a **lobby** token names the address an operator (or the app) sends to the waiting-list
 *   lobby page, so joining the list needs no form;
 * - a **social** token carries what a social sign-in provider told the web app about a person
 *   (their verified or unverified email, names, provider and subject) from the web's OAuth
 *   callback to the API's `completeSocialRegistration`, for at most 15 minutes;
 * - a **member** token identifies a customer after a successful registration (activation, or a
 *   social sign-up with a verified address): the API issues it, the web keeps it in the auth
 *   cookie (spec §9, 7 days) and sends it as `Authorization: Bearer` (docs/decisions/022).
 *
 * Both are compact JWTs (HS256, jose). Each purpose signs with its own key, derived from the
 * shared secret by HKDF-SHA256 with the info `velvet-token:<purpose>`, and carries its own
 * `typ` header and `aud` claim, so a lobby token never verifies as a social token or the other
 * way round, and neither verifies as an admin session. WebCrypto only, so the same code runs
 * in Node (API, web server) and, if ever needed, in a browser.
 */
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { email as emailSchema } from '@velvet/validation/registration';

export type TokenPurpose = 'lobby' | 'social' | 'member';

export interface LobbyClaims {
  email: string;
}

export interface SocialClaims {
  email: string;
  /** Whether the provider vouches that the person controls the address. */
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
  /** The provider's id, e.g. `google`, `apple`. */
  provider: string;
  /** The provider's stable id of the person (`sub` of its ID token). */
  subject: string;
}

/**
 * Why a token was refused: `missing` (no token or an empty one), `invalid` (not a token of
 * this purpose: malformed, tampered, signed with another key or for another purpose),
 * `expired` (authentic but past its `exp`), `no-email` (authentic but without a usable address).
 */
export type TokenFailure = 'missing' | 'invalid' | 'expired' | 'no-email';

export type VerifiedToken<Claims> = { ok: true; claims: Claims; expiresAt: Date } | { ok: false; reason: TokenFailure };

export interface MemberClaims {
  /** The customer's id: the member's (and registration's) id, a UUID. */
  customerId: string;
}

/** How long an operator's lobby link stays valid unless told otherwise. */
export const LOBBY_TOKEN_DEFAULT_DAYS = 30;
/** A social token only bridges the OAuth callback and the second form step. */
export const SOCIAL_TOKEN_TTL_SECONDS = 900;
/** Spec §9: the auth token cookie lives 604800 s (7 days); the token it holds expires with it. */
export const MEMBER_TOKEN_TTL_SECONDS = 604_800;

const ISSUER = 'velvet-rope';
const HKDF_SALT = new TextEncoder().encode('velvet-rope');
const audience = (purpose: TokenPurpose) => `velvet-rope:${purpose}`;
const typeHeader = (purpose: TokenPurpose) => `velvet-${purpose}+jwt`;

const keyCache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/** A 256-bit HMAC key for one purpose; one secret never signs two purposes with the same key. */
export function derivePurposeKey(secret: string, purpose: TokenPurpose): Promise<Uint8Array<ArrayBuffer>> {
  return deriveKey(secret, `velvet-token:${purpose}`);
}

function deriveKey(secret: string, info: string): Promise<Uint8Array<ArrayBuffer>> {
  if (!secret) throw new Error('signed tokens need a non-empty secret');
  const cacheKey = `${info}\u0000${secret}`;
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = (async () => {
      const material = await globalThis.crypto.subtle.importKey('raw', new TextEncoder().encode(secret), 'HKDF', false, ['deriveBits']);
      const bits = await globalThis.crypto.subtle.deriveBits(
        { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: new TextEncoder().encode(info) },
        material,
        256,
      );
      return new Uint8Array(bits);
    })();
    // A handful of secrets at most (the app's, a test's); keep the cache from growing regardless.
    if (keyCache.size > 32) keyCache.clear();
    keyCache.set(cacheKey, key);
  }
  return key;
}

async function sign(purpose: TokenPurpose, payload: JWTPayload, secret: string, ttlSeconds: number, now: Date): Promise<string> {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) throw new Error(`ttlSeconds must be a positive whole number, got ${ttlSeconds}`);
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: typeHeader(purpose) })
    .setIssuer(ISSUER)
    .setAudience(audience(purpose))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(await derivePurposeKey(secret, purpose));
}

type Verified = { ok: true; payload: JWTPayload; expiresAt: Date } | { ok: false; reason: TokenFailure };

async function verify(purpose: TokenPurpose, token: string | null | undefined, secret: string, now: Date): Promise<Verified> {
  const trimmed = typeof token === 'string' ? token.trim() : '';
  if (!trimmed) return { ok: false, reason: 'missing' };
  // A compact JWS of our own payloads is a few hundred characters; refuse anything absurd unparsed.
  if (trimmed.length > 4096) return { ok: false, reason: 'invalid' };
  const key = await derivePurposeKey(secret, purpose);
  try {
    const { payload } = await jwtVerify(trimmed, key, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: audience(purpose),
      typ: typeHeader(purpose),
      currentDate: now,
      requiredClaims: ['iat', 'exp'],
    });
    return { ok: true, payload, expiresAt: new Date((payload.exp as number) * 1000) };
  } catch (error) {
    // jose checks the signature before the claims, so a tampered token is `invalid` even when expired.
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof joseErrors.JOSEError) return { ok: false, reason: 'invalid' };
    // A token that is not even base64/JSON can surface as a TypeError in some runtimes.
    if (error instanceof TypeError || error instanceof SyntaxError) return { ok: false, reason: 'invalid' };
    throw error;
  }
}

/** The claim's address, trimmed and lower-cased, when it is one the registration form would accept. */
function usableEmail(value: unknown): string | null {
  const parsed = emailSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const optionalName = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export async function signLobbyToken(claims: LobbyClaims, secret: string, ttlSeconds: number, now: Date = new Date()): Promise<string> {
  return sign('lobby', { email: claims.email.trim().toLowerCase() }, secret, ttlSeconds, now);
}

export async function verifyLobbyToken(
  token: string | null | undefined,
  secret: string,
  now: Date = new Date(),
): Promise<VerifiedToken<LobbyClaims>> {
  const verified = await verify('lobby', token, secret, now);
  if (!verified.ok) return verified;
  const email = usableEmail(verified.payload.email);
  if (!email) return { ok: false, reason: 'no-email' };
  return { ok: true, claims: { email }, expiresAt: verified.expiresAt };
}

export async function signSocialToken(claims: SocialClaims, secret: string, ttlSeconds: number, now: Date = new Date()): Promise<string> {
  const payload: JWTPayload = {
    email: claims.email.trim().toLowerCase(),
    emailVerified: claims.emailVerified,
    provider: claims.provider,
    subject: claims.subject,
  };
  if (claims.firstName !== undefined) payload.firstName = claims.firstName;
  if (claims.lastName !== undefined) payload.lastName = claims.lastName;
  return sign('social', payload, secret, ttlSeconds, now);
}

export async function verifySocialToken(
  token: string | null | undefined,
  secret: string,
  now: Date = new Date(),
): Promise<VerifiedToken<SocialClaims>> {
  const verified = await verify('social', token, secret, now);
  if (!verified.ok) return verified;
  const { payload } = verified;
  const email = usableEmail(payload.email);
  if (!email) return { ok: false, reason: 'no-email' };
  // Signed by us but shaped wrongly: treat as not one of our social tokens.
  if (typeof payload.emailVerified !== 'boolean' || typeof payload.provider !== 'string' || !payload.provider) {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof payload.subject !== 'string' || !payload.subject) return { ok: false, reason: 'invalid' };
  const claims: SocialClaims = { email, emailVerified: payload.emailVerified, provider: payload.provider, subject: payload.subject };
  const firstName = optionalName(payload.firstName);
  const lastName = optionalName(payload.lastName);
  if (firstName) claims.firstName = firstName;
  if (lastName) claims.lastName = lastName;
  return { ok: true, claims, expiresAt: verified.expiresAt };
}

const CUSTOMER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A member token for the customer `customerId` (its `sub`), valid 7 days unless told otherwise. */
export async function signMemberToken(
  claims: MemberClaims,
  secret: string,
  ttlSeconds: number = MEMBER_TOKEN_TTL_SECONDS,
  now: Date = new Date(),
): Promise<string> {
  const customerId = claims.customerId.trim().toLowerCase();
  if (!CUSTOMER_ID.test(customerId)) throw new Error('a member token names a customer id (UUID)');
  return sign('member', { sub: customerId }, secret, ttlSeconds, now);
}

export async function verifyMemberToken(
  token: string | null | undefined,
  secret: string,
  now: Date = new Date(),
): Promise<VerifiedToken<MemberClaims>> {
  const verified = await verify('member', token, secret, now);
  if (!verified.ok) return verified;
  const customerId = verified.payload.sub;
  if (typeof customerId !== 'string' || !CUSTOMER_ID.test(customerId)) return { ok: false, reason: 'invalid' };
  return { ok: true, claims: { customerId }, expiresAt: verified.expiresAt };
}

/**
 * Spec §3's "salted hashed customer id": HMAC-SHA256 of the customer id under a key derived
 * from the secret (HKDF info `velvet-hash:customer-id`), lower-case hex. Stable for a customer
 * while the secret stays; nobody without the secret can compute it from an id, or test a
 * guessed id against it.
 */
export async function saltedCustomerIdHash(customerId: string, secret: string): Promise<string> {
  const raw = await deriveKey(secret, 'velvet-hash:customer-id');
  const key = await globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await globalThis.crypto.subtle.sign('HMAC', key, new TextEncoder().encode(customerId.trim().toLowerCase()));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
}
