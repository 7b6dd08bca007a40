/**
 * One stranger cannot shut a member's invitation (issue 20 §2, ADR 054). The leak watch counts
 * client networks, never repeats: one network replaying blocked referrers, near-miss codes or
 * registrations adds what one visitor can, and stays below CODE_QUARANTINE_SCORE; a burst of
 * genuine registrations within the code's places never counts; evidence from many networks
 * still quarantines a leaked code. While a code is quarantined, its check says that a
 * registration would be held, so the landing page can say so too.
 */
import { describe, expect, it } from 'vitest';
import { readCodeSignals } from '../src/domain/code-signals.ts';
import { createRegistrationLink } from '../src/domain/registration-link.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { REGISTER, type RegisterPayload, validInput } from './support/registration.ts';

const env = testEnv({ TRUSTED_COUNTRY_HEADER: 'cf-ipcountry', CODE_QUARANTINE_SCORE: '10' });

const CHECK = /* GraphQL */ `
  query check($registrationCode: String!, $validityTimestamp: String, $referrer: String) {
    registrationCodeDetails(registrationCode: $registrationCode, validityTimestamp: $validityTimestamp, referrer: $referrer) {
      errors
      heldForReview
    }
  }
`;

const WEB_MAIL = 'https://mail.google.com/mail/u/0/';
const FORUM = 'https://www.mydealz.de/gutscheine/velvet-rope';

interface From {
  /** The client's address. */
  from: string;
  country?: string;
}

describe.each(ENGINES)('the leak watch weighs networks, not repeats, on %s', (engine) => {
  const { database, api } = engineApi(engine, { env });
  const db = () => database.db;

  const request = (from: From) => ({
    headers: (from.country ? { 'cf-ipcountry': from.country } : {}) as Record<string, string>,
    serverContext: { req: { socket: { remoteAddress: from.from } } } as never,
  });
  const check = async (code: string, from: From, variables: { referrer?: string; validityTimestamp?: string } = {}) => {
    const { body } = await graphql<{ registrationCodeDetails: { errors: string[]; heldForReview: boolean } }>(api.yoga, CHECK, {
      variables: { registrationCode: code, ...variables },
      ...request(from),
    });
    expect(body.errors).toBeUndefined();
    return body.data!.registrationCodeDetails;
  };
  const register = async (code: string, from: From) => {
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(code) }, ...request(from) });
    expect(body.errors).toBeUndefined();
    const { outcome, userErrors } = body.data!.register;
    return outcome ?? userErrors.map((e) => e.code).join(',');
  };
  const quarantined = async (id: string) =>
    (await db().selectFrom('registration_codes').select('quarantined_at').where('id', '=', id).executeTakeFirstOrThrow()).quarantined_at !== null;
  const signals = (id: string) => readCodeSignals(db(), { id, signalsSince: null }, new Date());

  it('one network replaying a blocked referrer (a web-mail host) 40 times never quarantines the code, and its checks promise nothing false', async () => {
    const { id, code } = await insertCode(db(), { balance: 5 });
    for (let i = 0; i < 40; i++) {
      expect((await check(code, { from: '203.0.113.9', country: 'DE' }, { referrer: WEB_MAIL })).errors).toEqual(['REFERER_INVALID']);
    }
    expect(await quarantined(id)).toBe(false);
    // Every visit is counted; the network once, at 1 point: it never registered.
    expect(await signals(id)).toMatchObject({ blockedReferrersLastDay: 40, blockedNetworks: 1, blockedNetworksThatRegistered: 0, score: 1 });
    // The inviter's friends still register, and are not held.
    expect(await check(code, { from: '198.51.100.20' })).toEqual({ errors: [], heldForReview: false });
    expect(await register(code, { from: '198.51.100.20' })).toBe('FORM_FINISHED');
  });

  it('one IPv6 line is one network, whichever of its /64s each visit comes from', async () => {
    const { id, code } = await insertCode(db(), { balance: 5 });
    for (let i = 0; i < 20; i++) await check(code, { from: `2001:db8:aa:${(i * 257).toString(16)}::${i + 1}`, country: 'DE' }, { referrer: FORUM });
    expect(await quarantined(id)).toBe(false);
    expect(await signals(id)).toMatchObject({ blockedReferrersLastDay: 20, blockedNetworks: 1, score: 1 });
  });

  it('one network typing 30 near misses never quarantines the code they miss', async () => {
    const { id } = await insertCode(db(), { code: 'LILAC-HOUSE-4', balance: 5 });
    const variants = [...'0123456789ABCDEFGHIJKLMNOPQRST'].map((c) => `LILAC-HOUSE-${c}`).filter((v) => v !== 'LILAC-HOUSE-4');
    for (const typed of variants.slice(0, 29)) await check(typed, { from: '203.0.113.9', country: 'DE' });
    await check('LILAC-HOSUE-4', { from: '203.0.113.9', country: 'DE' });
    expect(await quarantined(id)).toBe(false);
    expect(await signals(id)).toMatchObject({ nearMissesLastDay: 30, nearMissNetworks: 1, score: 0 });
  });

  it('one network registering 20 addresses on a code with 5 places: the places, then refusals, never a quarantine', async () => {
    const { id, code } = await insertCode(db(), { balance: 5 });
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) outcomes.push(await register(code, { from: '203.0.113.9', country: 'DE' }));
    expect(outcomes.slice(0, 5)).toEqual(Array(5).fill('FORM_FINISHED'));
    expect(outcomes.slice(5).every((o) => o.startsWith('REGISTRATION_CODE_'))).toBe(true);
    expect(await quarantined(id)).toBe(false);
    expect(await signals(id)).toMatchObject({ registrationsLastHour: 20, networksBeyondPlacesLastHour: 1, score: 2 });
  });

  it('one network doing all of it — blocked referrers, near misses, registrations beyond the places — stays below the threshold', async () => {
    const { id, code } = await insertCode(db(), { code: 'ASTER-COURT-2', balance: 2 });
    const stranger = { from: '203.0.113.9', country: 'DE' };
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) await check(code, stranger, { referrer: i % 2 ? WEB_MAIL : FORUM });
      for (const typed of ['ASTER-COURT-3', 'ASTER-COURT-5', 'ASTER-CUORT-2', 'ASTERCOURT-2']) await check(typed, stranger);
      for (let i = 0; i < 4; i++) await register(code, stranger);
    }
    expect(await quarantined(id)).toBe(false);
    // One network, 2 points at most, whatever it did: here everything.
    expect(await signals(id)).toMatchObject({ blockedReferrersLastDay: 12, nearMissesLastDay: 12, blockedNetworksThatRegistered: 1, networksBeyondPlacesLastHour: 1, nearMissNetworks: 1, score: 2 });
  });

  it('one stranger with two lines (home and phone, in two countries) doing all of it stays below the threshold too', async () => {
    const { id, code } = await insertCode(db(), { code: 'IRIS-GATE-6', balance: 1 });
    for (const stranger of [{ from: '203.0.113.9', country: 'DE' }, { from: '2001:db8:77:1::5', country: 'AT' }]) {
      for (let i = 0; i < 10; i++) await check(code, stranger, { referrer: FORUM });
      for (const typed of ['IRIS-GATE-7', 'IRIS-GATE-8', 'IRSI-GATE-6', 'IRIS-GAT-6']) await check(typed, stranger);
      for (let i = 0; i < 5; i++) await register(code, stranger);
    }
    expect(await quarantined(id)).toBe(false);
    // Two networks at 2 points, and a second country at 2.
    expect(await signals(id)).toMatchObject({ blockedNetworksThatRegistered: 2, suspiciousCountries: 2, score: 6 });
  });

  it('a burst of 20 genuine registrations at once, from 20 networks in 5 countries, within the places, never quarantines a fresh code', async () => {
    const { id, code } = await insertCode(db(), { balance: 20 });
    const countries = ['DE', 'AT', 'CH', 'FR', 'NL'];
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => register(code, { from: `198.51.${i}.7`, country: countries[i % countries.length] })));
    expect(outcomes).toEqual(Array(20).fill('FORM_FINISHED'));
    expect(await quarantined(id)).toBe(false);
    expect((await signals(id)).score).toBe(0);
  });

  it('many networks are evidence: a forum\'s visitors from six networks in three countries quarantine the code at the sixth', async () => {
    const { id, code } = await insertCode(db(), { balance: 20 });
    const countries = ['DE', 'AT', 'CH'];
    const visit = (i: number) => check(code, { from: `198.51.${i}.7`, country: countries[i % countries.length] }, { referrer: FORUM });
    for (let i = 0; i < 5; i++) await visit(i);
    // Five networks (1 point each) from three countries (2 points for each beyond the first): 9.
    expect(await quarantined(id)).toBe(false);
    await visit(5);
    expect(await quarantined(id)).toBe(true);
    expect(await signals(id)).toMatchObject({ blockedNetworks: 6, suspiciousCountries: 3, score: 10 });
  });

  it('many networks registering beyond the places quarantine the code: the places, four refusals, then held', async () => {
    const { id, code } = await insertCode(db(), { balance: 5 });
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) outcomes.push(await register(code, { from: `198.51.${i}.7`, country: 'DE' }));
    // Each network that finds no place is 2 points: the fifth of them reaches 10 and is held.
    expect(outcomes.slice(0, 5)).toEqual(Array(5).fill('FORM_FINISHED'));
    expect(outcomes.slice(5, 9).every((o) => o.startsWith('REGISTRATION_CODE_'))).toBe(true);
    expect(outcomes.slice(9)).toEqual(Array(3).fill('PENDING_REVIEW'));
    expect(await quarantined(id)).toBe(true);
  });

  it('while the code is quarantined its check says a registration is held — not for the inviter\'s fresh link, and not once it is full', async () => {
    const { id, code } = await insertCode(db(), { balance: 2 });
    const visitor = { from: '198.51.100.20' };
    expect(await check(code, visitor)).toEqual({ errors: [], heldForReview: false });
    const quarantinedAt = new Date(Date.now() - 60_000).toISOString();
    await db().updateTable('registration_codes').set({ quarantined_at: quarantinedAt }).where('id', '=', id).execute();
    expect(await check(code, visitor)).toEqual({ errors: [], heldForReview: true });
    expect(await register(code, visitor)).toBe('PENDING_REVIEW');
    const fresh = new URL(createRegistrationLink({ publicUrl: 'https://club.example', code, secret: TEST_SECRET }).url).searchParams.get('validityTimestamp')!;
    expect(await check(code, visitor, { validityTimestamp: fresh })).toEqual({ errors: [], heldForReview: false });
    // No place left: the refusal decides, as on the landing page.
    await db().updateTable('registration_codes').set({ balance: 0 }).where('id', '=', id).execute();
    expect((await check(code, visitor)).errors).toEqual(['REGISTRATION_CODE_NO_BALANCE_LEFT']);
  });
});
