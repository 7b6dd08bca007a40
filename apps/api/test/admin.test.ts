/** Admin sign-in, sessions and the registration link generator, on SQLite and PostgreSQL. */
import type { UserError } from '@velvet/validation/user-errors';
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../src/lib/tokens.ts';
import { ADMIN_LOGIN_SLOWDOWN_MS, createRateLimiters } from '../src/rate-limit.ts';
import { ADMIN_SESSION_HOURS } from '../src/auth/admin-sessions.ts';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { verifyValidityTimestamp } from '../src/domain/registration-link.ts';
import { createTestApi } from './support/api.ts';
import { ENGINES, engineApi, rateLimitFixture } from './support/engines.ts';
import { REDIS_URL, TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { CHECK_CODE, graphql } from './support/graphql.ts';
import type { CodeDetails } from './support/graphql.ts';

const LOGIN = 'mutation login($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token expiresAt userErrors { code field messageId } } }';
const SESSION = '{ adminSession { email expiresAt } }';
const LOGOUT = 'mutation { adminLogout }';
const GENERATE =
  'mutation generate($code: String!) { generateRegistrationLink(registrationCode: $code) { url expiresAt userErrors { code field messageId } } }';
const PASSWORD = 'correct horse battery staple';

interface LoginPayload {
  token: string | null;
  expiresAt: string | null;
  userErrors: UserError[];
}
interface LinkPayload {
  url: string | null;
  expiresAt: string | null;
  userErrors: UserError[];
}

describe.each(ENGINES)('admin on %s', (engine) => {
  const { database, api } = engineApi(engine, { env: testEnv({ PUBLIC_URL: 'https://club.example' }) });

  const bearer = (token: string | null): { headers: Record<string, string> } => ({
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

  async function login(email: string, password: string, target = api) {
    const { body } = await graphql<{ adminLogin: LoginPayload }>(target.yoga, LOGIN, { variables: { email, password } });
    return body;
  }
  async function signedIn(): Promise<string> {
    const email = `admin-${randomUUID()}@example.test`;
    await createAdminUser(database.db, { email, password: PASSWORD });
    const body = await login(email, PASSWORD);
    const token = body.data?.adminLogin.token;
    if (!token) throw new Error('login failed');
    return token;
  }
  async function generate(code: string, token: string | null) {
    return graphql<{ generateRegistrationLink: LinkPayload }>(api.yoga, GENERATE, { variables: { code }, ...bearer(token) });
  }

  it('signs in with the right password: a token for 8 hours and a session row', async () => {
    const email = `admin-${randomUUID()}@example.test`;
    await createAdminUser(database.db, { email, password: PASSWORD });
    api.clock.fix('2026-11-24T09:15:30.700Z');
    const body = await login(`  ${email.toUpperCase()} `, PASSWORD);
    const payload = body.data?.adminLogin;
    expect(payload?.userErrors).toEqual([]);
    expect(payload?.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // Valid for exactly eight hours from the sign-in's whole second (the JWT's exp and the row agree).
    expect(ADMIN_SESSION_HOURS).toBe(8);
    expect(payload?.expiresAt).toBe('2026-11-24T17:15:30.000Z');
    const session = await graphql(api.yoga, SESSION, bearer(payload?.token ?? null));
    expect(session.body.data).toEqual({ adminSession: { email, expiresAt: payload?.expiresAt } });
    expect(await database.db.selectFrom('admin_sessions').select('id').execute()).toHaveLength(1);
    // Live until the last moment before it expires, gone at it.
    api.clock.fix('2026-11-24T17:15:29.999Z');
    expect((await graphql(api.yoga, SESSION, bearer(payload?.token ?? null))).body.data).toEqual({ adminSession: { email, expiresAt: payload?.expiresAt } });
    api.clock.fix('2026-11-24T17:15:30.000Z');
    expect((await graphql(api.yoga, SESSION, bearer(payload?.token ?? null))).body.data).toEqual({ adminSession: null });
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const email = `admin-${randomUUID()}@example.test`;
    await createAdminUser(database.db, { email, password: PASSWORD });
    for (const [e, p] of [
      [email, 'wrong password!'],
      [`nobody-${randomUUID()}@example.test`, PASSWORD],
      ['', ''],
    ] as const) {
      const body = await login(e, p);
      expect(body.data?.adminLogin).toEqual({ token: null, expiresAt: null, userErrors: [{ code: 'INVALID_CREDENTIALS', field: null, messageId: 'admin.login.invalid' }] });
    }
    expect(await database.db.selectFrom('admin_sessions').select('id').execute()).toEqual([]);
  });

  it('answers adminSession null without, or with a malformed, token', async () => {
    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer nonsense' }, { authorization: 'Basic abc' }];
    for (const headers of variants) {
      const { body } = await graphql(api.yoga, SESSION, { headers });
      expect(body.data).toEqual({ adminSession: null });
    }
  });

  it('generates a registration link only for a signed-in admin', async () => {
    const { code } = await insertCode(database.db);
    const anonymous = await generate(code, null);
    expect(anonymous.body.data ?? null).toBeNull();
    expect(anonymous.body.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });

    // 14 days from the moment the link is made.
    api.clock.fix('2026-11-24T10:00:00.000Z');
    const token = await signedIn();
    const { body } = await generate(code.toLowerCase(), token);
    const link = body.data?.generateRegistrationLink;
    expect(link?.userErrors).toEqual([]);
    const url = new URL(link?.url ?? '');
    expect(url.origin + url.pathname).toBe('https://club.example/');
    expect(url.searchParams.get('rc')).toBe(code);
    const validityTimestamp = url.searchParams.get('validityTimestamp') ?? '';
    const verified = verifyValidityTimestamp(code, validityTimestamp, TEST_SECRET, new Date('2026-11-24T10:00:00.000Z'));
    expect(verified).toEqual({ ok: true, expiresAt: new Date(link?.expiresAt ?? '') });
    expect(link?.expiresAt).toBe('2026-12-08T10:00:00.000Z');

    const check = (value: string) =>
      graphql<{ registrationCodeDetails: CodeDetails }>(api.yoga, CHECK_CODE, { variables: { registrationCode: code, validityTimestamp: value } });
    expect((await check(validityTimestamp)).body.data?.registrationCodeDetails.errors).toEqual([]);
    const [expiry, signature] = validityTimestamp.split('.');
    const tampered = `${Number(expiry) + 86_400}.${signature}`;
    expect((await check(tampered)).body.data?.registrationCodeDetails.errors).toEqual(['REGISTRATION_CODE_INVALID']);
  });

  it('generates links for link-only codes, and refuses unusable codes with their errors', async () => {
    const token = await signedIn();
    const linkOnly = await insertCode(database.db, { requiresValidityTimestamp: true });
    expect((await generate(linkOnly.code, token)).body.data?.generateRegistrationLink.url).toContain('validityTimestamp=');
    const empty = await insertCode(database.db, { balance: 0 });
    expect((await generate(empty.code, token)).body.data?.generateRegistrationLink).toEqual({
      url: null,
      expiresAt: null,
      userErrors: [{ code: 'REGISTRATION_CODE_NO_BALANCE_LEFT', field: 'registrationCode', messageId: 'invitation.noBalance' }],
    });
    expect((await generate('NO-SUCH-CODE', token)).body.data?.generateRegistrationLink.userErrors).toEqual([
      { code: 'REGISTRATION_CODE_INVALID', field: 'registrationCode', messageId: 'invitation.invalid' },
    ]);
  });

  it('signs out: the session is revoked and the token refused from then on', async () => {
    const token = await signedIn();
    const { code } = await insertCode(database.db);
    expect((await graphql(api.yoga, LOGOUT, bearer(token))).body.data).toEqual({ adminLogout: true });
    expect((await graphql(api.yoga, SESSION, bearer(token))).body.data).toEqual({ adminSession: null });
    expect((await generate(code, token)).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await graphql(api.yoga, LOGOUT, bearer(token))).body.data).toEqual({ adminLogout: false });
    const row = await database.db.selectFrom('admin_sessions').select('revoked_at').executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
  });

  it('refuses an expired token, an expired session row and a token signed with another secret', async () => {
    const signedInAt = api.clock.fix('2026-11-24T09:00:00.000Z');
    const token = await signedIn();
    const { id } = await database.db.selectFrom('admin_sessions').select('id').executeTakeFirstOrThrow();
    const sign = (secret: string, exp: number) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(id)
        .setIssuer('velvet-api')
        .setAudience('velvet-admin')
        .setIssuedAt(exp - 3600)
        .setExpirationTime(exp)
        .sign(new Uint8Array(deriveKey(secret, 'admin-session-jwt')));
    const now = Math.floor(signedInAt.getTime() / 1000);
    // The same session, well signed, but past its exp:
    expect((await graphql(api.yoga, SESSION, bearer(await sign(TEST_SECRET, now - 10)))).body.data).toEqual({ adminSession: null });
    // A genuine-looking token from someone without our secret:
    expect((await graphql(api.yoga, SESSION, bearer(await sign('another-secret-another-secret-0123456789', now + 3600)))).body.data).toEqual({
      adminSession: null,
    });
    // A valid token whose session row has expired:
    expect((await graphql(api.yoga, SESSION, bearer(token))).body.data).not.toEqual({ adminSession: null });
    await database.db.updateTable('admin_sessions').set({ expires_at: new Date(signedInAt.getTime() - 1000).toISOString() }).execute();
    expect((await graphql(api.yoga, SESSION, bearer(token))).body.data).toEqual({ adminSession: null });
  });

  it('strangers cannot lock the admin out: limits per IP (5/minute) and per account and IP (10/hour), never per account alone', async () => {
    const admin = await createAdminUser(database.db, { email: 'boss@example.test', password: PASSWORD });
    if (!admin.ok) throw new Error(admin.errors.join());
    const limited = await createTestApi({
      env: testEnv({ TRUST_PROXY: 'true' }),
      db: database.db,
      limiters: createRateLimiters({ REDIS_URL: undefined }),
    });
    try {
      const from = (ip: string, email: string, password = 'wrong password!') =>
        graphql<{ adminLogin: LoginPayload }>(limited.yoga, LOGIN, { variables: { email, password }, headers: { 'x-forwarded-for': ip } });
      // One address: five tries a minute, whatever the account.
      for (let i = 0; i < 5; i++) expect((await from('203.0.113.5', `a${i}@example.test`)).body.data?.adminLogin.userErrors[0]?.code).toBe('INVALID_CREDENTIALS');
      const sixth = await from('203.0.113.5', 'a9@example.test');
      expect(sixth.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(sixth.body.errors?.[0]?.extensions?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(sixth.body.errors?.[0]?.extensions?.retryAfterSeconds).toBeLessThanOrEqual(60);

      // Twelve strangers, twelve addresses, all against the admin's account…
      for (let i = 0; i < 12; i++) {
        expect((await from(`198.51.100.${i + 1}`, i % 2 ? 'BOSS@example.test' : 'boss@example.test')).body.data?.adminLogin.userErrors[0]?.code).toBe('INVALID_CREDENTIALS');
      }
      // …and the admin, from their own address, signs in at once.
      const own = await from('192.0.2.10', 'boss@example.test', PASSWORD);
      expect(own.body.errors).toBeUndefined();
      expect(own.body.data?.adminLogin.token).toEqual(expect.any(String));
    } finally {
      await limited.close();
    }
  });

  it('limits one account from one address to 10 tries an hour; the same account elsewhere still signs in', async () => {
    const admin = await createAdminUser(database.db, { email: 'chief@example.test', password: PASSWORD });
    if (!admin.ok) throw new Error(admin.errors.join());
    const generous = { points: 1000, duration: 60, burstPoints: 0, burstDuration: 60 };
    const limited = await createTestApi({
      env: testEnv({ TRUST_PROXY: 'true' }),
      db: database.db,
      limiters: createRateLimiters({ REDIS_URL: undefined }, { rules: { adminLoginIp: generous, adminLoginFailures: generous } }),
    });
    try {
      const from = (ip: string, email: string, password = 'wrong password!') =>
        graphql<{ adminLogin: LoginPayload }>(limited.yoga, LOGIN, { variables: { email, password }, headers: { 'x-forwarded-for': ip } });
      for (let i = 0; i < 10; i++) expect((await from('203.0.113.7', 'chief@example.test')).body.data?.adminLogin.userErrors[0]?.code).toBe('INVALID_CREDENTIALS');
      const eleventh = await from('203.0.113.7', 'Chief@example.test', PASSWORD);
      expect(eleventh.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      const retryAfter = Number(eleventh.body.errors?.[0]?.extensions?.retryAfterSeconds);
      expect(retryAfter).toBeGreaterThan(3500);
      // Another account from that address, and this account from another address, are not affected.
      expect((await from('203.0.113.7', 'other@example.test')).body.data?.adminLogin.userErrors[0]?.code).toBe('INVALID_CREDENTIALS');
      expect((await from('192.0.2.20', 'chief@example.test', PASSWORD)).body.data?.adminLogin.token).toEqual(expect.any(String));
    } finally {
      await limited.close();
    }
  });

  it('slows failures down when there are many everywhere, without refusing anyone', async () => {
    const admin = await createAdminUser(database.db, { email: 'owner@example.test', password: PASSWORD });
    if (!admin.ok) throw new Error(admin.errors.join());
    const limited = await createTestApi({
      env: testEnv({ TRUST_PROXY: 'true' }),
      db: database.db,
      limiters: createRateLimiters({ REDIS_URL: undefined }, { rules: { adminLoginFailures: { points: 3, duration: 60, burstPoints: 0, burstDuration: 60 } } }),
    });
    try {
      const timed = async (ip: string, password: string) => {
        const started = performance.now();
        const { body } = await graphql<{ adminLogin: LoginPayload }>(limited.yoga, LOGIN, {
          variables: { email: 'owner@example.test', password },
          headers: { 'x-forwarded-for': ip },
        });
        return { body, ms: performance.now() - started };
      };
      for (let i = 0; i < 3; i++) expect((await timed(`198.51.100.${i + 1}`, 'wrong password!')).body.data?.adminLogin.userErrors[0]?.code).toBe('INVALID_CREDENTIALS');
      const slowed = await timed('198.51.100.50', 'wrong password!');
      expect(slowed.body.data?.adminLogin.userErrors[0]?.code).toBe('INVALID_CREDENTIALS');
      expect(slowed.ms).toBeGreaterThanOrEqual(ADMIN_LOGIN_SLOWDOWN_MS);
      // The right password is never slowed down nor refused.
      const own = await timed('192.0.2.30', PASSWORD);
      expect(own.body.data?.adminLogin.token).toEqual(expect.any(String));
    } finally {
      await limited.close();
    }
  });
});

describe('the sign-in limit kept in Redis', () => {
  const { database, keyPrefix } = rateLimitFixture('redis');

  it('names the admin’s account by a keyed hash: whoever lists Redis’s keys reads neither the address nor a hash anyone could compute', async () => {
    const limiters = createRateLimiters({ REDIS_URL }, { keyPrefix });
    await limiters.ready();
    const api = await createTestApi({ env: testEnv({ TRUST_PROXY: 'true' }), db: database.db, limiters });
    const redis = new Redis(REDIS_URL);
    try {
      const email = `keeper-${randomUUID().slice(0, 8)}@example.test`;
      const answer = await graphql<{ adminLogin: LoginPayload }>(api.yoga, LOGIN, { variables: { email, password: 'wrong password!' }, headers: { 'x-forwarded-for': '203.0.113.44' } });
      expect(answer.body.data?.adminLogin.userErrors[0]?.code).toBe('INVALID_CREDENTIALS');
      const keys = await redis.keys(`${keyPrefix}:adminLoginAccountIp:*`);
      expect(keys).toEqual([expect.stringMatching(new RegExp(`^${keyPrefix}:adminLoginAccountIp:[\\w-]{22}:203\\.0\\.113\\.44$`))]);
      const bare = createHash('sha256').update(email).digest('base64url');
      expect(keys.filter((key) => key.includes(email.split('@')[0]!) || key.includes(bare.slice(0, 22)))).toEqual([]);
    } finally {
      await redis.quit();
      await api.close();
      await limiters.close();
    }
  });
});
