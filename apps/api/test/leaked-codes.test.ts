/**
 * Leaked codes caught and rotated (issue 12 §4, ADR 043): a code's signals — counted by client
 * network since ADR 054 (leak-watch-networks.test.ts): networks registering beyond its places,
 * arriving from blocked referrers, typing near-miss codes, and their countries —
 * past CODE_QUARANTINE_SCORE quarantine it: new registrations are held for review (no member, no
 * email, no place), the inviter gets a fresh private link in their language, and operators
 * release or rotate it.
 */
import { catalogs } from '@velvet/i18n/catalogs';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readCodeSignals, readLeakEvidence, recordCodeSignal } from '../src/domain/code-signals.ts';
import { pruneLeakRecords } from '../src/jobs/retention.ts';
import { createRegistrationLink } from '../src/domain/registration-link.ts';
import { listFlaggedCodes } from '../src/services/list-flagged-codes.ts';
import { releaseCode } from '../src/services/release-code.ts';
import { rotateCode } from '../src/services/rotate-code.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { CHECK_CODE, graphql } from './support/graphql.ts';
import { deliverAll } from './support/invitations.ts';
import { REGISTER, type RegisterPayload, uniqueEmail, validInput } from './support/registration.ts';

const env = testEnv({ PUBLIC_URL: 'https://club.example', SMTP_URL: 'smtp://127.0.0.1:25', TRUSTED_COUNTRY_HEADER: 'cf-ipcountry', CODE_QUARANTINE_SCORE: '10' });

describe.each(ENGINES)('leaked codes on %s', (engine) => {
  const { database, api } = engineApi(engine, { env });
  const db = () => database.db;

  const register = async (code: string, options: { from?: string; country?: string; input?: Record<string, unknown> } = {}) => {
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, {
      variables: { input: { ...validInput(code), ...options.input } },
      headers: options.country ? { 'cf-ipcountry': options.country } : {},
      serverContext: { req: { socket: { remoteAddress: options.from ?? '203.0.113.5' } } },
    });
    expect(body.errors).toBeUndefined();
    return body.data!.register;
  };
  const germanInviterCode = async (balance: number) => {
    const created = await insertCode(db(), { balance, inviterFirstName: 'Henrike' });
    await db().updateTable('members').set({ language: 'de', email: `henrike-${created.id}@example.test` }).where('id', '=', created.inviterId).execute();
    return created;
  };
  const quarantined = async (id: string) =>
    (await db().selectFrom('registration_codes').select('quarantined_at').where('id', '=', id).executeTakeFirstOrThrow()).quarantined_at !== null;
  const count = async (table: 'members' | 'held_registrations' | 'email_outbox', where?: [string, string]) => {
    let query = db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (where) query = query.where(where[0] as never, '=', where[1] as never);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };

  it('a bot registering from many networks on one code: the places it can take, then held registrations; the inviter hears in German', async () => {
    const { id, code } = await germanInviterCode(5);
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) outcomes.push((await register(code, { from: `198.51.${i}.7` })).outcome ?? 'refused');
    // 5 places, then the code is full; each network that registers finding no place left is 2
    // points (ADR 054): the 5th of them reaches 10 and is held, as is every one after it.
    expect(outcomes).toEqual([...Array(5).fill('FORM_FINISHED'), ...Array(4).fill('refused'), ...Array(11).fill('PENDING_REVIEW')]);
    expect(await quarantined(id)).toBe(true);
    expect(await count('members', ['status', 'pending'])).toBe(5);
    expect(await count('held_registrations')).toBe(outcomes.filter((o) => o === 'PENDING_REVIEW').length);

    const activationEmails = await count('email_outbox', ['template', 'activation']);
    expect(activationEmails).toBe(5);
    const [email] = (await deliverAll(db(), env, activationEmails + 1)).filter((m) => m.subject === catalogs.de['email.privateLink.subject']);
    expect(email?.to).toEqual([`henrike-${id}@example.test`]);
    expect(email?.text).toContain('Guten Tag Henrike,');
    expect(email?.text).toContain(code);
    expect(email?.text).toMatch(new RegExp(`https://club\\.example/de/\\?rc=${code}&validityTimestamp=\\d+\\.`));
  });

  it('a leaked code visited from a coupon forum by many networks is quarantined by the referrer hits alone', async () => {
    const { id, code } = await insertCode(db(), { balance: 20 });
    const countries = ['DE', 'AT', 'CH', 'FR'];
    for (let i = 0; i < 4; i++) {
      await graphql(api.yoga, CHECK_CODE, {
        variables: { registrationCode: code, referrer: 'https://www.mydealz.de/gutscheine/velvet-rope' },
        headers: { 'cf-ipcountry': countries[i]! },
        serverContext: { req: { socket: { remoteAddress: `198.51.${i}.7` } } },
      });
    }
    expect(await quarantined(id)).toBe(true);
    const [flagged] = await listFlaggedCodes(db());
    // Four networks (1 each, none registered) from four countries (2 for each beyond the first).
    expect(flagged).toMatchObject({ code, held: 0, signals: { blockedReferrersLastDay: 4, blockedNetworks: 4, suspiciousCountries: 4, score: 10 } });
  });

  it('counts near-miss codes typed against the code they miss by one character', async () => {
    const { id } = await insertCode(db(), { code: 'ROSE-GARDEN-7', balance: 20 });
    for (const typed of ['ROSE-GARDEN-8', 'ROSE-GARDEN-9', 'ROSE-GARDEM-7', 'ROSEGARDEN-7', 'ROSE-GARDEN-77', 'ORSE-GARDEN-7']) {
      await graphql(api.yoga, CHECK_CODE, { variables: { registrationCode: typed } });
    }
    await graphql(api.yoga, CHECK_CODE, { variables: { registrationCode: 'TULIP-FIELD-1' } });
    // The six (they may fall into two 5-minute buckets), all against ROSE-GARDEN-7.
    const counts = await db().selectFrom('code_signal_counts').select(['kind', 'registration_code_id', 'count']).execute();
    expect(new Set(counts.map((c) => `${c.registration_code_id} ${c.kind}`))).toEqual(new Set([`${id} near_miss`]));
    expect(counts.reduce((sum, c) => sum + Number(c.count), 0)).toBe(6);
  });

  it('the inviter\'s fresh private link registers as before; a link made before the quarantine is held', async () => {
    const { id, code } = await insertCode(db(), { balance: 10 });
    const before = createRegistrationLink({ publicUrl: 'https://club.example', code, secret: TEST_SECRET, now: new Date(Date.now() - 3_600_000) });
    await db().updateTable('registration_codes').set({ quarantined_at: new Date(Date.now() - 60_000).toISOString() }).where('id', '=', id).execute();
    const fresh = createRegistrationLink({ publicUrl: 'https://club.example', code, secret: TEST_SECRET });
    const timestamp = (url: string) => new URL(url).searchParams.get('validityTimestamp');
    expect((await register(code, { input: { validityTimestamp: timestamp(before.url) } })).outcome).toBe('PENDING_REVIEW');
    expect((await register(code, { input: { validityTimestamp: timestamp(fresh.url) } })).outcome).toBe('FORM_FINISHED');
    expect((await register(code)).outcome).toBe('PENDING_REVIEW');
  });

  it('the same address held twice is one held registration; an address already known is answered as before', async () => {
    const { id, code } = await insertCode(db(), { balance: 10 });
    const person = validInput(code).email;
    expect((await register(code, { input: { email: person } })).outcome).toBe('FORM_FINISHED');
    await db().updateTable('registration_codes').set({ quarantined_at: new Date().toISOString() }).where('id', '=', id).execute();
    const held = uniqueEmail('held');
    await register(code, { input: { email: held } });
    await register(code, { input: { email: held } });
    expect(await count('held_registrations')).toBe(1);
    expect((await register(code, { input: { email: person } })).outcome).toBe('ACCOUNT_PENDING');
  });

  it('`code release`: the held registrations register (while places last), and the code starts afresh', async () => {
    const { id, code } = await insertCode(db(), { balance: 3 });
    await db().updateTable('registration_codes').set({ quarantined_at: new Date().toISOString() }).where('id', '=', id).execute();
    for (let i = 0; i < 4; i++) expect((await register(code)).outcome).toBe('PENDING_REVIEW');
    expect(await count('members', ['status', 'pending'])).toBe(0);

    const released = await releaseCode({ db: db(), secret: TEST_SECRET, referrerBlocklist: [] }, code.toLowerCase());
    expect(released).toEqual({ ok: true, value: { code, registered: 3, dropped: 1 } });
    expect(await quarantined(id)).toBe(false);
    expect(await count('members', ['status', 'pending'])).toBe(3);
    expect(await count('email_outbox', ['template', 'activation'])).toBe(3);
    expect(await count('held_registrations')).toBe(0);
    // The signals before the release no longer count: the next visitor is not held.
    expect(await releaseCode({ db: db(), secret: TEST_SECRET, referrerBlocklist: [] }, code)).toEqual({ ok: false, errors: [`${code} is not quarantined`] });
  });

  it('`code rotate`: a new code with the free places, the old one keeps its pending places, quarantined; the inviter gets the new link', async () => {
    const { id, code } = await germanInviterCode(6);
    for (let i = 0; i < 2; i++) await register(code);
    const rotated = await rotateCode(db(), code);
    if (!rotated.ok) throw new Error(rotated.errors.join());
    expect(rotated.value).toMatchObject({ oldCode: code, balance: 4 });
    const codes = await db().selectFrom('registration_codes').select(['code', 'balance', 'quarantined_at']).where('code', 'in', [code, rotated.value.newCode]).execute();
    expect(codes.find((c) => c.code === code)).toMatchObject({ balance: 2, quarantined_at: expect.any(String) });
    expect(codes.find((c) => c.code === rotated.value.newCode)).toMatchObject({ balance: 4, quarantined_at: null });
    expect((await register(rotated.value.newCode)).outcome).toBe('FORM_FINISHED');
    expect((await register(code)).outcome).toBe('PENDING_REVIEW');
    const mail = (await deliverAll(db(), env, 4)).find((m) => m.subject === catalogs.de['email.privateLink.subject']);
    expect(mail?.text).toContain(`rc=${rotated.value.newCode}&validityTimestamp=`);
    expect(await rotateCode(db(), 'NO-SUCH-CODE')).toEqual({ ok: false, errors: ['no registration code NO-SUCH-CODE'] });
    expect(id).toBeTruthy();
  });

  it('weighs a code seen from many networks at the cost of a few, with the same verdict; an operator\'s list counts them all', async () => {
    const { id } = await insertCode(db(), { balance: 5 });
    const now = new Date();
    for (let i = 0; i < 40; i++) await recordCodeSignal(db(), id, 'blocked_referrer', { network: `198.51.${i}.0/24`, country: 'DE' }, now);
    for (let i = 0; i < 30; i++) await recordCodeSignal(db(), id, 'registration', { network: `192.0.${i}.0/24`, country: 'FR' }, now);
    const code = { id, signalsSince: null };
    const decided = await readLeakEvidence(db(), code, now, 10);
    // Read as far as 10 + 5 networks: enough for the score to reach 10 on them alone; the
    // registrations within the places are no evidence and are not read at all.
    expect(decided).toMatchObject({ blockedNetworks: 15, score: 15 });
    const listed = await readCodeSignals(db(), code, now);
    expect(listed).toMatchObject({ blockedNetworks: 40, blockedReferrersLastDay: 40, registrationsLastHour: 30, networksLastDay: 70, countriesLastDay: 2, score: 40 });
    // A day later the networks have left the window, and the registrations the hour.
    expect(await readCodeSignals(db(), code, new Date(now.getTime() + 86_400_000 + 1))).toMatchObject({ networksLastDay: 0, registrationsLastHour: 0, blockedNetworks: 0, score: 0 });
    // After an operator's release, only what comes after counts.
    expect(await readCodeSignals(db(), { ...code, signalsSince: new Date(now.getTime() + 1).toISOString() }, new Date(now.getTime() + 2))).toMatchObject({ networksLastDay: 0, registrationsLastHour: 0, score: 0 });
  });

  it('forgets signals and held registrations after 30 days (the retention pass)', async () => {
    const { id } = await insertCode(db(), { balance: 5 });
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const recent = new Date().toISOString();
    for (const [n, at] of [[1, old], [2, recent]] as const) {
      await recordCodeSignal(db(), id, 'registration', { network: `198.51.${n}.0/24`, country: null }, new Date(at));
      await db().insertInto('held_registrations').values({ id: randomUUID(), registration_code_id: id, email: `held-${n}@example.test`, language: 'en', submission: '{}', created_at: at }).execute();
    }
    // The old bucket's count and the network last seen then.
    expect(await pruneLeakRecords(db())).toEqual({ codeSignals: 2, heldRegistrations: 1 });
    expect(await count('held_registrations')).toBe(1);
  });
});
