/**
 * Guessing the admins' second factor (issue 18 §2, ADR 045) on SQLite and PostgreSQL: a challenge
 * takes five wrong codes and is dead then, as it is once redeemed; wrong codes are counted per
 * admin (a lock for a while) and attempts per client network (an IPv6 /64 is one client); one
 * code, however often it is sent at once, gives one session.
 */
import { randomUUID } from 'node:crypto';
import type { UserError } from '@velvet/validation/user-errors';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { issueRecoveryCodes, newTotpSecret, sealTotpSecret } from '../src/auth/second-factor.ts';
import { DEFAULT_RATE_LIMITS, createRateLimiters } from '../src/rate-limit.ts';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { GENEROUS_LIMITS, createTestApi } from './support/api.ts';
import type { TestApi } from './support/api.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { graphql } from './support/graphql.ts';

const PASSWORD = 'correct horse battery staple';
const LOGIN = `mutation login($email: String!, $password: String!) {
  adminLogin(email: $email, password: $password) { token secondFactorChallenge userErrors { code field messageId } } }`;
const LOGIN_IN_LANGUAGE = `mutation login($email: String!, $password: String!, $language: String) {
  adminLogin(email: $email, password: $password, language: $language) { token secondFactorChallenge userErrors { code field messageId } } }`;
const VERIFY_IN_LANGUAGE = `mutation verify($challenge: String!, $code: String!, $language: String) {
  adminVerifySecondFactor(challenge: $challenge, code: $code, language: $language) { token secondFactorChallenge userErrors { code field messageId } } }`;
const VERIFY = `mutation verify($challenge: String!, $code: String!) {
  adminVerifySecondFactor(challenge: $challenge, code: $code) { token secondFactorChallenge userErrors { code field messageId } } }`;

interface SignIn {
  token: string | null;
  secondFactorChallenge: string | null;
  userErrors: UserError[];
}
interface Answer {
  data?: { adminVerifySecondFactor: SignIn } | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const INVALID: UserError = { code: 'INVALID_SECOND_FACTOR', field: 'code', messageId: 'admin.secondFactor.invalid' };
const EXHAUSTED: UserError = { code: 'SECOND_FACTOR_ATTEMPTS_EXHAUSTED', field: null, messageId: 'admin.secondFactor.tooManyAttempts' };
const LOCKED: UserError = { code: 'SECOND_FACTOR_LOCKED', field: null, messageId: 'admin.secondFactor.locked' };
const EXPIRED: UserError = { code: 'SECOND_FACTOR_EXPIRED', field: null, messageId: 'admin.secondFactor.expired' };

const T0 = '2026-12-01T10:00:00.000Z';
const minutesAfter = (instant: string, minutes: number) => new Date(new Date(instant).getTime() + minutes * 60_000);

describe.each(ENGINES)('admin second factor on %s', (engine) => {
  const { database, api } = engineApi(engine, { env: testEnv({ TRUST_PROXY: 'true' }) });

  const codeAt = (secret: string, at: Date) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at.getTime() });
  /** A code that is none of the three the API accepts at `at` (±1 step). */
  const wrongCodeAt = (secret: string, at: Date) => {
    const valid = new Set([-30_000, 0, 30_000].map((d) => codeAt(secret, new Date(at.getTime() + d))));
    for (let n = 0; ; n++) {
      const guess = String(n).padStart(6, '0');
      if (!valid.has(guess)) return guess;
    }
  };

  /** An admin with a TOTP factor in force (and recovery codes). */
  async function adminWithFactor(at: Date) {
    const email = `guarded-${randomUUID()}@example.test`;
    const created = await createAdminUser(database.db, { email, password: PASSWORD, role: 'operator' });
    if (!created.ok) throw new Error(created.errors.join());
    const secret = newTotpSecret();
    await database.db
      .updateTable('admin_users')
      .set({ totp_secret: sealTotpSecret(secret, TEST_SECRET), totp_enabled_at: at.toISOString() })
      .where('id', '=', created.value.id)
      .execute();
    const recoveryCodes = await issueRecoveryCodes(database.db, created.value.id, at);
    return { id: created.value.id, email, secret, recoveryCodes };
  }

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
  async function challengeFor(email: string, target: TestApi = api, ip = '192.0.2.1'): Promise<string> {
    const { body } = await graphql<{ adminLogin: SignIn }>(target.yoga, LOGIN, { variables: { email, password: PASSWORD }, ...from(ip) });
    const challenge = body.data?.adminLogin.secondFactorChallenge;
    if (!challenge) throw new Error(`no challenge: ${JSON.stringify(body)}`);
    return challenge;
  }
  async function verify(challenge: string, code: string, target: TestApi = api, ip = '192.0.2.1'): Promise<Answer> {
    return (await graphql<{ adminVerifySecondFactor: SignIn }>(target.yoga, VERIFY, { variables: { challenge, code }, ...from(ip) })).body;
  }
  /**
   * Every connection of the pool open (PostgreSQL: four), so that eight calls at once really run
   * side by side rather than one while the others are still connecting: each transaction holds
   * its connection until as many as the pool has are open at once.
   */
  const openPool = async () => {
    let open = 0;
    let allOpen!: () => void;
    const everyConnectionOpen = new Promise<void>((resolve) => (allOpen = resolve));
    await Promise.all(
      Array.from({ length: 8 }, () =>
        database.db.transaction().execute(async (trx) => {
          await trx.selectFrom('admin_users').select('id').limit(1).execute();
          if (++open === database.connections) allOpen();
          await everyConnectionOpen;
        }),
      ),
    );
  };
  const sessionsOf = async (adminId: string) =>
    (await database.db.selectFrom('admin_sessions').select('id').where('admin_user_id', '=', adminId).execute()).length;

  it('a challenge takes five wrong codes; the sixth attempt is refused even with the right code, and the password is asked again', async () => {
    const at = api.clock.fix(T0);
    const admin = await adminWithFactor(at);
    const challenge = await challengeFor(admin.email);
    const wrong = wrongCodeAt(admin.secret, at);
    for (let i = 0; i < 4; i++) expect((await verify(challenge, wrong)).data?.adminVerifySecondFactor.userErrors).toEqual([INVALID]);
    // The fifth wrong code is the challenge's last: it says so.
    expect((await verify(challenge, wrong)).data?.adminVerifySecondFactor.userErrors).toEqual([EXHAUSTED]);
    const sixth = await verify(challenge, codeAt(admin.secret, at));
    expect(sixth.errors).toBeUndefined();
    expect(sixth.data?.adminVerifySecondFactor).toEqual({ token: null, secondFactorChallenge: null, userErrors: [EXHAUSTED] });
    // A recovery code does not revive it either.
    expect((await verify(challenge, admin.recoveryCodes[0]!)).data?.adminVerifySecondFactor.userErrors).toEqual([EXHAUSTED]);
    expect(await sessionsOf(admin.id)).toBe(0);
    // The password again: a new challenge, and the right code signs in.
    expect((await verify(await challengeFor(admin.email), codeAt(admin.secret, at))).data?.adminVerifySecondFactor.token).toEqual(expect.any(String));
    expect(await sessionsOf(admin.id)).toBe(1);
  });

  it('counts attempts per client network: many addresses of one IPv6 /64 share ten a minute', async () => {
    const at = api.clock.fix(T0);
    const limited = await createTestApi({
      env: testEnv({ TRUST_PROXY: 'true' }),
      db: database.db,
      limiters: createRateLimiters({ REDIS_URL: undefined }, { rules: { ...GENEROUS_LIMITS, adminSecondFactorIp: DEFAULT_RATE_LIMITS.adminSecondFactorIp } }),
    });
    limited.clock.fix(at);
    try {
      const admins = [await adminWithFactor(at), await adminWithFactor(at)];
      const challenges = [await challengeFor(admins[0]!.email, limited), await challengeFor(admins[1]!.email, limited)];
      // Ten guesses, each from a new address of 2001:db8:1:2::/64 (five on each of two challenges).
      for (let i = 0; i < 10; i++) {
        const who = i % 2;
        const answer = await verify(challenges[who]!, wrongCodeAt(admins[who]!.secret, at), limited, `2001:db8:1:2:${(i + 1).toString(16)}::${i + 7}`);
        expect(answer.errors, `guess ${i + 1}`).toBeUndefined();
        expect(answer.data?.adminVerifySecondFactor.token).toBeNull();
      }
      const third = await adminWithFactor(at);
      const eleventh = await verify(await challengeFor(third.email, limited), codeAt(third.secret, at), limited, '2001:db8:1:2:ffff:ffff:ffff:fffe');
      expect(eleventh.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(eleventh.errors?.[0]?.extensions?.retryAfterSeconds).toBeLessThanOrEqual(60);
      // Another network is another client.
      const elsewhere = await verify(await challengeFor(third.email, limited), codeAt(third.secret, at), limited, '2001:db8:1:3::1');
      expect(elsewhere.data?.adminVerifySecondFactor.token).toEqual(expect.any(String));
    } finally {
      await limited.close();
    }
  });

  it('locks an admin\'s second factor after ten wrong codes in 15 minutes, whatever the challenges and networks, as an expected failure', async () => {
    const at = api.clock.fix(T0);
    const admin = await adminWithFactor(at);
    const other = await adminWithFactor(at);
    const wrong = wrongCodeAt(admin.secret, at);
    // Two challenges, five wrong codes each, from ten networks.
    for (let c = 0; c < 2; c++) {
      const challenge = await challengeFor(admin.email);
      for (let i = 0; i < 5; i++) {
        const answer = await verify(challenge, wrong, api, `198.51.100.${c * 5 + i + 1}`);
        expect(answer.data?.adminVerifySecondFactor.token).toBeNull();
        expect(answer.data?.adminVerifySecondFactor.userErrors).toHaveLength(1);
      }
    }
    // The right code (or a recovery code) on a fresh challenge: refused for now, as data.
    const locked = await verify(await challengeFor(admin.email), codeAt(admin.secret, at), api, '203.0.113.9');
    expect(locked.errors).toBeUndefined();
    expect(locked.data?.adminVerifySecondFactor).toEqual({ token: null, secondFactorChallenge: null, userErrors: [LOCKED] });
    expect((await verify(await challengeFor(admin.email), admin.recoveryCodes[0]!)).data?.adminVerifySecondFactor.userErrors).toEqual([LOCKED]);
    expect(await sessionsOf(admin.id)).toBe(0);
    // Another admin is not affected.
    expect((await verify(await challengeFor(other.email), codeAt(other.secret, at))).data?.adminVerifySecondFactor.token).toEqual(expect.any(String));
    // Still locked 14 minutes on; free again after 15.
    const later = api.clock.fix(minutesAfter(T0, 14));
    expect((await verify(await challengeFor(admin.email), codeAt(admin.secret, later))).data?.adminVerifySecondFactor.userErrors).toEqual([LOCKED]);
    const free = api.clock.fix(minutesAfter(T0, 15.5));
    expect((await verify(await challengeFor(admin.email), codeAt(admin.secret, free))).data?.adminVerifySecondFactor.token).toEqual(expect.any(String));
    expect(await sessionsOf(admin.id)).toBe(1);
    // The audit log names each refusal: the tenth wrong code and the three attempts while locked.
    const failures = await database.db
      .selectFrom('audit_log')
      .select('details')
      .where('actor_admin_id', '=', admin.id)
      .where('action', '=', 'admin.second-factor-failed')
      .execute();
    expect(failures.map((f) => (JSON.parse(f.details) as { reason: string }).reason).filter((r) => r === 'locked')).toHaveLength(4);
  });

  it('one code sent eight times at once on one challenge gives one session', async () => {
    const at = api.clock.fix(T0);
    const admin = await adminWithFactor(at);
    const challenge = await challengeFor(admin.email);
    const code = codeAt(admin.secret, at);
    await openPool();
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(challenge, code)));
    expect(answers.flatMap((a) => a.errors ?? [])).toEqual([]);
    expect(answers.filter((a) => a.data?.adminVerifySecondFactor.token)).toHaveLength(1);
    expect(await sessionsOf(admin.id)).toBe(1);
  });

  it('one code sent at once on eight challenges gives one session', async () => {
    const at = api.clock.fix(T0);
    const admin = await adminWithFactor(at);
    const challenges: string[] = [];
    for (let i = 0; i < 8; i++) challenges.push(await challengeFor(admin.email));
    const code = codeAt(admin.secret, at);
    await openPool();
    const answers = await Promise.all(challenges.map((challenge) => verify(challenge, code)));
    expect(answers.flatMap((a) => a.errors ?? [])).toEqual([]);
    expect(answers.filter((a) => a.data?.adminVerifySecondFactor.token)).toHaveLength(1);
    expect(answers.filter((a) => !a.data?.adminVerifySecondFactor.token).every((a) => a.data?.adminVerifySecondFactor.userErrors[0]?.code === 'INVALID_SECOND_FACTOR')).toBe(true);
    expect(await sessionsOf(admin.id)).toBe(1);
  });

  it('a redeemed challenge is dead: neither a later code nor a recovery code redeems it again', async () => {
    const at = api.clock.fix(T0);
    const admin = await adminWithFactor(at);
    const challenge = await challengeFor(admin.email);
    expect((await verify(challenge, codeAt(admin.secret, at))).data?.adminVerifySecondFactor.token).toEqual(expect.any(String));
    const next = api.clock.fix(minutesAfter(T0, 1));
    expect((await verify(challenge, codeAt(admin.secret, next))).data?.adminVerifySecondFactor).toEqual({ token: null, secondFactorChallenge: null, userErrors: [EXPIRED] });
    expect((await verify(challenge, admin.recoveryCodes[1]!)).data?.adminVerifySecondFactor.userErrors).toEqual([EXPIRED]);
    expect(await sessionsOf(admin.id)).toBe(1);
    // The recovery code was not spent by the refusal.
    expect((await verify(await challengeFor(admin.email), admin.recoveryCodes[1]!)).data?.adminVerifySecondFactor.token).toEqual(expect.any(String));
  });

  it('keeps the console’s language when a sign-in completes, not at the password step, and ignores one it does not know', async () => {
    const at = api.clock.fix(T0);
    const admin = await adminWithFactor(at);
    const language = async () => (await database.db.selectFrom('admin_users').select('language').where('id', '=', admin.id).executeTakeFirstOrThrow()).language;
    const password = await graphql<{ adminLogin: SignIn }>(api.yoga, LOGIN_IN_LANGUAGE, { variables: { email: admin.email, password: PASSWORD, language: 'sv' } });
    const challenge = password.body.data!.adminLogin.secondFactorChallenge!;
    expect(await language()).toBeNull();
    const wrong = await graphql<{ adminVerifySecondFactor: SignIn }>(api.yoga, VERIFY_IN_LANGUAGE, { variables: { challenge, code: wrongCodeAt(admin.secret, at), language: 'sv' } });
    expect(wrong.body.data!.adminVerifySecondFactor.userErrors).toEqual([INVALID]);
    expect(await language()).toBeNull();
    const right = await graphql<{ adminVerifySecondFactor: SignIn }>(api.yoga, VERIFY_IN_LANGUAGE, { variables: { challenge, code: codeAt(admin.secret, at), language: 'sv' } });
    expect(right.body.data!.adminVerifySecondFactor.token).toEqual(expect.any(String));
    expect(await language()).toBe('sv');
    // A language the club does not write in changes nothing.
    const again = await graphql<{ adminLogin: SignIn }>(api.yoga, LOGIN_IN_LANGUAGE, { variables: { email: admin.email, password: PASSWORD, language: 'xx' } });
    const next = api.clock.fix(minutesAfter(T0, 1));
    await graphql(api.yoga, VERIFY_IN_LANGUAGE, { variables: { challenge: again.body.data!.adminLogin.secondFactorChallenge!, code: codeAt(admin.secret, next), language: 'xx' } });
    expect(await sessionsOf(admin.id)).toBe(2);
    expect(await language()).toBe('sv');
  });
});
