/**
 * The sign-up gate of the public forms (issue 12 §2, ADR 041): a proof of work solved for the
 * form, used once, within its time; a signed single-use invitation link needs none; difficulty
 * follows the recent sign-up rate; too many sign-ups of one mailbox and a missing or wrong proof
 * hear the answer of success while nothing is written and nothing is sent.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signValidityTimestamp } from '../src/domain/registration-link.ts';
import { DIFFICULTY_THRESHOLDS, difficultyLevel } from '../src/domain/sign-up-rate.ts';
import { createRateLimiters, DEFAULT_RATE_LIMITS } from '../src/rate-limit.ts';
import type { RateLimiterOptions } from '../src/rate-limit.ts';
import { createTestApi, GENEROUS_LIMITS } from './support/api.ts';
import { ENGINES, RATE_LIMIT_STORES, engineApi, engineDatabase, rateLimitFixture } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode, insertMember } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { CHALLENGE, solveProofOfWork } from './support/proof-of-work.ts';
import { REGISTER, type RegisterPayload, uniqueEmail, validInput } from './support/registration.ts';

const APPLY = 'mutation a($email: String!, $proofOfWork: String) { applyForMembership(email: $email, proofOfWork: $proofOfWork) { accepted userErrors { code } } }';
const LOBBY = 'mutation l($email: String!, $proofOfWork: String) { requestLobbyLink(email: $email, proofOfWork: $proofOfWork) { sent userErrors { code } } }';

/** Small difficulty: the tests prove the rules, not the cost (bench/ and ADR 041 have the cost). */
const env = testEnv({ PROOF_OF_WORK: 'true', PROOF_OF_WORK_DIFFICULTY: '20' });

describe.each(ENGINES)('sign-up gate on %s', (engine) => {
  // The no-script budget as deployed; every other limit out of the way.
  const limits = { ...GENEROUS_LIMITS, noScriptSignUpsPerNetwork: DEFAULT_RATE_LIMITS.noScriptSignUpsPerNetwork, noScriptSignUps: DEFAULT_RATE_LIMITS.noScriptSignUps };
  const { database, api } = engineApi(engine, { env, api: () => ({ limiters: createRateLimiters(env, { rules: limits }) }) });
  const db = () => database.db;
  /** A client network of its own for each test: the no-script budget is per network. */
  let network = 0;
  const newClient = () => `198.51.${engine === 'sqlite' ? 10 : 20}.${++network}`;

  const challenge = async (form: string, extra: Record<string, string> = {}) => {
    const { body } = await graphql<{ proofOfWorkChallenge: { challenge: string | null; level: number } }>(api.yoga, CHALLENGE, { variables: { form, ...extra } });
    return body.data!.proofOfWorkChallenge;
  };
  const proofFor = async (form: string) => solveProofOfWork((await challenge(form)).challenge!);
  const send = async (input: Record<string, unknown>, from = '192.0.2.1') =>
    (await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input }, serverContext: { req: { socket: { remoteAddress: from } } } })).body;
  const register = async (input: Record<string, unknown>, from?: string) => {
    const body = await send(input, from);
    expect(body.errors).toBeUndefined();
    return body.data!.register;
  };
  const counts = async () => ({
    members: Number((await db().selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow()).n),
    emails: Number((await db().selectFrom('email_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  });

  it('registers with a solved proof; with a forged one or one used before, answers FORM_FINISHED and writes and sends nothing', async () => {
    const { code } = await insertCode(db());
    const proof = await proofFor('REGISTRATION');
    const person = await register({ ...validInput(code), proofOfWork: proof });
    expect(person.outcome).toBe('FORM_FINISHED');
    expect(await counts()).toEqual({ members: 1, emails: 1 });

    const forged = Buffer.from(proof, 'base64url').toString('utf8').replace(/"counter":\d+/, '"counter":1');
    for (const proofOfWork of ['not-a-proof', Buffer.from(forged).toString('base64url'), proof]) {
      const bot = await register({ ...validInput(code), proofOfWork });
      // The same answer a person gets: an outcome and an id, nothing to tell them apart.
      expect(bot).toEqual({ outcome: 'FORM_FINISHED', memberId: expect.stringMatching(/^[0-9a-f-]{36}$/), userErrors: [] });
    }
    expect(await counts()).toEqual({ members: 1, emails: 1 });
  });

  it('lets a browser without JavaScript register without a proof: three an hour per client network, then RATE_LIMITED', async () => {
    const { code } = await insertCode(db(), { balance: 20 });
    const client = newClient();
    for (let i = 0; i < 3; i++) expect((await register({ ...validInput(code) }, client)).outcome).toBe('FORM_FINISHED');
    expect(await counts()).toEqual({ members: 3, emails: 3 });
    const fourth = await send({ ...validInput(code) }, client);
    expect(fourth.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    // With a proof, the same network goes on; so does another network without one.
    expect((await register({ ...validInput(code), proofOfWork: await proofFor('REGISTRATION') }, client)).outcome).toBe('FORM_FINISHED');
    expect((await register({ ...validInput(code) }, newClient())).outcome).toBe('FORM_FINISHED');
    expect(await counts()).toEqual({ members: 5, emails: 5 });
  });

  it('refuses a proof solved for another form, and one older than 20 minutes', async () => {
    const { code } = await insertCode(db());
    await register({ ...validInput(code), proofOfWork: await proofFor('MEMBERSHIP_INTEREST') });
    const issued = api.clock.fix(new Date());
    const old = await proofFor('REGISTRATION');
    api.clock.fix(new Date(issued.getTime() + 21 * 60_000));
    await register({ ...validInput(code), proofOfWork: old });
    expect(await counts()).toEqual({ members: 0, emails: 0 });
  });

  it('still says what is wrong with the fields before asking for the proof', async () => {
    const { code } = await insertCode(db());
    const refused = await register({ ...validInput(code, { email: 'not-an-address' }) });
    expect(refused.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }]);
    expect(refused.outcome).toBeNull();
  });

  /** A client network whose no-script budget is spent. */
  const spentClient = async () => {
    const { code } = await insertCode(db(), { balance: 20 });
    const client = newClient();
    for (let i = 0; i < 3; i++) await register({ ...validInput(code) }, client);
    return client;
  };

  it('asks no proof for a signed link of a personal single-use invitation, and asks it for the same code typed', async () => {
    const client = await spentClient();
    const { code } = await insertCode(db(), { balance: 1, singleUse: true });
    const validityTimestamp = signValidityTimestamp(code, new Date(Date.now() + 86_400_000), TEST_SECRET);
    expect(await challenge('REGISTRATION', { registrationCode: code, validityTimestamp })).toEqual({ challenge: null, level: 0 });
    expect((await challenge('REGISTRATION', { registrationCode: code })).challenge).toEqual(expect.any(String));

    expect((await send({ ...validInput(code) }, client)).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    const person = await register({ ...validInput(code, { validityTimestamp, email: 'invited-person@example.test' }) }, client);
    expect(person.outcome).toBe('FORM_FINISHED');
    expect(await db().selectFrom('members').select('email').where('registration_code_id', 'is not', null).where('email', '=', 'invited-person@example.test').execute()).toHaveLength(1);
  });

  it('keeps asking for a signed link of a code shared with many (the link generator)', async () => {
    const client = await spentClient();
    const { code } = await insertCode(db(), { balance: 10 });
    const validityTimestamp = signValidityTimestamp(code, new Date(Date.now() + 86_400_000), TEST_SECRET);
    expect((await challenge('REGISTRATION', { registrationCode: code, validityTimestamp })).challenge).toEqual(expect.any(String));
    expect((await send({ ...validInput(code, { validityTimestamp }) }, client)).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });

  it('membership interest and the waiting list: accepted either way, written or sent only with a proof for the form', async () => {
    const email = uniqueEmail('gate');
    const apply = async (proofOfWork?: string) => (await graphql(api.yoga, APPLY, { variables: { email, proofOfWork } })).body.data;
    expect(await apply(await proofFor('WAITING_LIST'))).toEqual({ applyForMembership: { accepted: true, userErrors: [] } });
    expect(await db().selectFrom('membership_applications').selectAll().execute()).toHaveLength(0);
    expect(await apply(await proofFor('MEMBERSHIP_INTEREST'))).toEqual({ applyForMembership: { accepted: true, userErrors: [] } });
    expect(await db().selectFrom('membership_applications').selectAll().execute()).toHaveLength(1);

    // The written application queued its "we received your application" email (issue 22 §2), and only it.
    expect((await counts()).emails).toBe(1);

    const lobby = async (proofOfWork?: string) => (await graphql(api.yoga, LOBBY, { variables: { email, proofOfWork } })).body.data;
    expect(await lobby(await proofFor('MEMBERSHIP_INTEREST'))).toEqual({ requestLobbyLink: { sent: true, userErrors: [] } });
    expect((await counts()).emails).toBe(1);
    expect(await lobby(await proofFor('WAITING_LIST'))).toEqual({ requestLobbyLink: { sent: true, userErrors: [] } });
    expect((await counts()).emails).toBe(2);
  });

  it('asks more work as sign-ups of the last ten minutes pass each threshold', async () => {
    const start = api.clock.fix(new Date(Date.now() + 60_000));
    expect((await challenge('WAITING_LIST')).level).toBe(0);
    for (let i = 0; i < DIFFICULTY_THRESHOLDS[0]; i++) await insertMember(db(), { status: 'pending' });
    // Counted at most every 10 s per process.
    expect((await challenge('WAITING_LIST')).level).toBe(0);
    api.clock.fix(new Date(start.getTime() + 11_000));
    const busier = await challenge('WAITING_LIST');
    expect(busier.level).toBe(1);
    // The level is signed into the challenge the browser solves.
    const signedLevel = (json: string) => (JSON.parse(json) as { parameters: { data: { level: number } } }).parameters.data.level;
    expect(signedLevel(busier.challenge!)).toBe(1);
  });
});

describe('difficulty levels', () => {
  it('double the work at 30, 80 and 200 sign-ups in ten minutes, and no further', () => {
    expect([0, 29, 30, 79, 80, 199, 200, 10_000].map(difficultyLevel)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
});

describe('the mailbox limit', () => {
  const database = engineDatabase('sqlite');
  it('answers a sixth sign-up of one mailbox within the hour as a success, however the address is spelled, and writes nothing', async () => {
    const limiters = createRateLimiters(testEnv(), { keyPrefix: `velvet-test-${randomUUID()}`, rules: { ...GENEROUS_LIMITS, signUpMailbox: DEFAULT_RATE_LIMITS.signUpMailbox } });
    const api = await createTestApi({ env: testEnv(), db: database.db, limiters });
    const spellings = ['anna.berg@gmail.com', 'annaberg+1@gmail.com', 'AnnaBerg@googlemail.com', 'a.n.n.a.berg+x@gmail.com', 'annaberg+shop@gmail.com', 'anna.berg+6@gmail.com'];
    for (const email of spellings) {
      const { body } = await graphql(api.yoga, APPLY, { variables: { email } });
      expect(body.data).toEqual({ applyForMembership: { accepted: true, userErrors: [] } });
    }
    const rows = await database.db.selectFrom('membership_applications').select('email').execute();
    expect(rows.map((r) => r.email).sort()).toEqual(spellings.slice(0, 5).map((e) => e.toLowerCase()).sort());
    await limiters.close();
    await api.close();
  });
});

describe.each(RATE_LIMIT_STORES)('limits per client network and per code (%s)', (store, envOverrides) => {
  const { database, keyPrefix } = rateLimitFixture(store);
  const tight = { points: 2, duration: 60, burstPoints: 0, burstDuration: 60 };

  const apiWith = async (rules: RateLimiterOptions['rules'], more: Record<string, string> = {}) => {
    const limiters = createRateLimiters(testEnv({ ...envOverrides, ...more }), { keyPrefix: `${keyPrefix}-${randomUUID()}`, rules: { ...GENEROUS_LIMITS, ...rules } });
    await limiters.ready();
    const api = await createTestApi({ env: testEnv({ ...envOverrides, ...more }), db: database.db, limiters });
    return { api, close: async () => { await limiters.close(); await api.close(); } };
  };
  const registerFrom = async (api: Awaited<ReturnType<typeof apiWith>>['api'], code: string, remoteAddress: string, input: object = validInput(code)) =>
    (await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input }, serverContext: { req: { socket: { remoteAddress } } } })).body;

  it('counts every address of one IPv6 /64 as one client, and another /64 apart', async () => {
    const { api, close } = await apiWith({ register: tight });
    const { code } = await insertCode(database.db, { balance: 50 });
    for (const address of ['2001:db8:aa:1::1', '2001:db8:aa:1:ffff::99']) expect((await registerFrom(api, code, address)).errors).toBeUndefined();
    const third = await registerFrom(api, code, '2001:db8:aa:1:1234:5678:9abc:def0');
    expect(third.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect((await registerFrom(api, code, '2001:db8:aa:2::1')).errors).toBeUndefined();
    await close();
  });

  it('limits registrations per code whoever sends them, and leaves other codes alone', async () => {
    const { api, close } = await apiWith({ registrationsPerCode: tight });
    const leaked = await insertCode(database.db, { balance: 50 });
    const other = await insertCode(database.db, { balance: 50 });
    for (const address of ['198.51.100.1', '203.0.113.7']) expect((await registerFrom(api, leaked.code, address)).errors).toBeUndefined();
    expect((await registerFrom(api, leaked.code.toLowerCase(), '192.0.2.77')).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect((await registerFrom(api, other.code, '192.0.2.77')).errors).toBeUndefined();
    await close();
  });

  it('spends a code’s limit only on submissions that passed the field rules and the proof of work (issue 18 §4)', async () => {
    const { api, close } = await apiWith({ registrationsPerCode: tight }, { PROOF_OF_WORK: 'true', PROOF_OF_WORK_DIFFICULTY: '20' });
    const { code } = await insertCode(database.db, { balance: 50 });
    const from = '198.51.100.44';
    const solved = async () => {
      const { body } = await graphql<{ proofOfWorkChallenge: { challenge: string } }>(api.yoga, CHALLENGE, { variables: { form: 'REGISTRATION' }, serverContext: { req: { socket: { remoteAddress: from } } } });
      return solveProofOfWork(body.data!.proofOfWorkChallenge.challenge);
    };
    // A script's junk: twenty broken addresses, then five well-formed ones with a forged proof (answered as a success, nothing written).
    for (let i = 0; i < 20; i++) {
      const junk = await registerFrom(api, code, from, { ...validInput(code), email: `not-an-address-${i}` });
      expect(junk.errors).toBeUndefined();
      expect(junk.data!.register.userErrors.map((error) => error.field)).toContain('email');
    }
    for (let i = 0; i < 5; i++) expect((await registerFrom(api, code, from, { ...validInput(code), proofOfWork: `forged-${i}` })).errors).toBeUndefined();
    // The inviter's friends still get the code's two places of this window.
    for (let i = 0; i < 2; i++) {
      const friend = await registerFrom(api, code, from, { ...validInput(code), proofOfWork: await solved() });
      expect(friend.errors).toBeUndefined();
      expect(friend.data!.register.outcome).toBe('FORM_FINISHED');
    }
    expect((await registerFrom(api, code, from, { ...validInput(code), proofOfWork: await solved() })).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    await close();
  });

  it('keeps the no-script ceiling from starving a network that has not used its budget (issue 18 §7)', async () => {
    const noScript = { noScriptSignUpsPerNetwork: DEFAULT_RATE_LIMITS.noScriptSignUpsPerNetwork, noScriptSignUps: tight };
    const { api, close } = await apiWith(noScript, { PROOF_OF_WORK: 'true', PROOF_OF_WORK_DIFFICULTY: '20' });
    const { code } = await insertCode(database.db, { balance: 50 });
    const outcome = async (from: string) => {
      const body = await registerFrom(api, code, from);
      return body.errors?.[0]?.extensions?.code ?? body.data!.register.outcome;
    };
    // One network's three sign-ups without JavaScript: its first is its own, the next two fill the ceiling of two.
    for (let i = 0; i < 3; i++) expect(await outcome('198.51.100.61')).toBe('FORM_FINISHED');
    // Other networks' first sign-ups still pass; their second ones meet the spent ceiling.
    for (const network of ['203.0.113.61', '2001:db8:61::1', '192.0.2.61']) expect(await outcome(network)).toBe('FORM_FINISHED');
    expect(await outcome('203.0.113.61')).toBe('RATE_LIMITED');
    await close();
  });
});
