/**
 * Mutation.recordConsent, Mutation.recordFunnelEvents and Query.funnelReport end to end
 * through Yoga, on SQLite and PostgreSQL (ADR 011): what is stored, and that nothing
 * personal is, even when a client sends it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FUNNEL_STEPS } from '@velvet/validation/funnel';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';

const RECORD_CONSENT = 'mutation r($input: RecordConsentInput!) { recordConsent(input: $input) }';
const RECORD_FUNNEL = 'mutation f($events: [FunnelEventInput!]!) { recordFunnelEvents(events: $events) }';
const REPORT = /* GraphQL */ `
  query report($filter: FunnelFilter) {
    funnelReport(filter: $filter) {
      steps { event events sessions }
      otherEvents { event events sessions }
      sessions
      options { languages countries variants invitationLinks { registrationCodeId code landingSlug } }
    }
  }
`;
const LOGIN = 'mutation l($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }';
const PASSWORD = 'correct horse battery staple';

interface Report {
  steps: { event: string; events: number; sessions: number }[];
  otherEvents: { event: string; events: number; sessions: number }[];
  sessions: number;
  options: { languages: string[]; countries: string[]; variants: string[]; invitationLinks: { registrationCodeId: string; code: string; landingSlug: string | null }[] };
}

const consentInput = (overrides: Record<string, unknown> = {}) => ({
  consentId: randomUUID(),
  action: 'CUSTOM',
  source: 'PREFERENCES',
  analytics: true,
  marketing: false,
  version: 1,
  language: 'de',
  country: 'AT',
  ...overrides,
});

describe.each(ENGINES)('consent records and the first-party funnel on %s', (engine) => {
  const { database, api } = engineApi(engine);

  const consentRows = () => database.db.selectFrom('consent_records').selectAll().execute();
  const funnelRows = () => database.db.selectFrom('funnel_events').selectAll().orderBy('event').execute();

  async function adminToken(): Promise<string> {
    const email = `admin-${randomUUID()}@example.test`;
    await createAdminUser(database.db, { email, password: PASSWORD });
    const { body } = await graphql<{ adminLogin: { token: string | null } }>(api.yoga, LOGIN, { variables: { email, password: PASSWORD } });
    const token = body.data?.adminLogin.token;
    if (!token) throw new Error('admin sign-in failed');
    return token;
  }

  async function report(filter: Record<string, string> | null, token: string | null) {
    return graphql<{ funnelReport: Report }>(api.yoga, REPORT, {
      variables: { filter },
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  }

  describe('recordConsent', () => {
    it('stores what was chosen, when, the version, language and country — and nothing that names a person', async () => {
      const input = consentInput();
      api.clock.fix('2026-11-24T17:59:59.999Z');
      const { body } = await graphql<{ recordConsent: boolean }>(api.yoga, RECORD_CONSENT, {
        variables: { input },
        headers: { 'x-forwarded-for': '203.0.113.7', 'user-agent': 'Mozilla/5.0 test' },
      });
      expect(body).toEqual({ data: { recordConsent: true } });
      const rows = await consentRows();
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row).toMatchObject({
        consent_id: input.consentId,
        action: 'CUSTOM',
        source: 'PREFERENCES',
        analytics_granted: true,
        marketing_granted: false,
        version: 1,
        language: 'de',
        country: 'AT',
      });
      expect(row?.recorded_at).toBe('2026-11-24T17:59:59.999Z');
      // Exactly these columns: no IP address, user agent, email or member id.
      expect(Object.keys(row ?? {}).sort()).toEqual(
        ['action', 'analytics_granted', 'consent_id', 'country', 'id', 'language', 'marketing_granted', 'recorded_at', 'source', 'version'].sort(),
      );
      expect(JSON.stringify(rows)).not.toContain('203.0.113.7');
    });

    it('keeps every choice of one browser (a change is a new record) and makes REJECT_ALL grant nothing', async () => {
      const consentId = randomUUID();
      for (const input of [
        consentInput({ consentId, action: 'ACCEPT_ALL', source: 'BANNER', analytics: false, marketing: false }),
        consentInput({ consentId, action: 'REJECT_ALL', source: 'PREFERENCES', analytics: true, marketing: true }),
      ]) {
        expect((await graphql(api.yoga, RECORD_CONSENT, { variables: { input } })).body.errors).toBeUndefined();
      }
      const rows = await database.db.selectFrom('consent_records').selectAll().orderBy('recorded_at').orderBy('action').execute();
      expect(rows.map((r) => [r.action, r.analytics_granted, r.marketing_granted])).toEqual([
        ['ACCEPT_ALL', true, true],
        ['REJECT_ALL', false, false],
      ]);
    });

    it('falls back to English and to the detected country', async () => {
      const input = consentInput({ language: 'es', country: 'US' });
      await graphql(api.yoga, RECORD_CONSENT, { variables: { input }, headers: { 'accept-language': 'nl-BE,nl;q=0.9' } });
      expect((await consentRows())[0]).toMatchObject({ language: 'en', country: 'BE' });
    });

    it.each([
      ['an email address as consent id', { consentId: 'anna@example.test' }, 'consentId'],
      ['a non-random id', { consentId: '00000000-0000-0000-0000-000000000000' }, 'consentId'],
      ['a negative version', { version: -1 }, 'version'],
    ])('refuses %s with BAD_USER_INPUT and stores nothing', async (_label, overrides, field) => {
      const { body } = await graphql(api.yoga, RECORD_CONSENT, { variables: { input: consentInput(overrides) } });
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
      expect(await consentRows()).toEqual([]);
    });
  });

  describe('recordFunnelEvents', () => {
    it('stores known events with language, country, variant, code id, slug and the hour — never the code itself', async () => {
      const { id, code } = await insertCode(database.db, { landingSlug: 'vip', customization: 'social' });
      const sessionId = randomUUID();
      // The last moment of an hour: the events are counted in that hour, not "about now".
      api.clock.fix('2026-11-24T17:59:59.999Z');
      const { body } = await graphql<{ recordFunnelEvents: number }>(api.yoga, RECORD_FUNNEL, {
        variables: {
          events: [
            { name: 'landing', sessionId, language: 'fr', country: 'FR', variant: 'social', registrationCode: code.toLowerCase(), landingSlug: 'vip', analyticsConsent: true },
            { name: 'code_submitted', sessionId, language: 'fr', country: 'FR', registrationCode: code },
          ],
        },
      });
      expect(body).toEqual({ data: { recordFunnelEvents: 2 } });
      const rows = await funnelRows();
      expect(rows.map((r) => ({ ...r, id: undefined }))).toEqual([
        { id: undefined, event: 'code_submitted', session_id: sessionId, hour: '2026-11-24T17:00:00.000Z', language: 'fr', country: 'FR', variant: null, registration_code_id: id, landing_slug: null, analytics_consent: false },
        { id: undefined, event: 'landing', session_id: sessionId, hour: '2026-11-24T17:00:00.000Z', language: 'fr', country: 'FR', variant: 'social', registration_code_id: id, landing_slug: 'vip', analytics_consent: true },
      ]);
      expect(JSON.stringify(rows)).not.toContain(code);
    });

    it('stores no personal data even when a client sends it', async () => {
      const sessionId = randomUUID();
      const { body } = await graphql<{ recordFunnelEvents: number }>(api.yoga, RECORD_FUNNEL, {
        variables: {
          events: [
            // Personal data in every free field: all of it becomes null.
            { name: 'email_submitted', sessionId, language: 'anna@example.test', country: 'Anna Berg', variant: 'anna@example.test', registrationCode: 'anna@example.test', landingSlug: 'anna@example.test' },
            { name: 'email_submitted', sessionId, variant: 'Anna Berg +49 170 1234567' },
            // An email address as the event name or the session id: not stored at all.
            { name: 'anna@example.test', sessionId },
            { name: 'landing', sessionId: 'anna@example.test' },
          ],
        },
        headers: { 'x-forwarded-for': '198.51.100.23' },
      });
      expect(body).toEqual({ data: { recordFunnelEvents: 2 } });
      const rows = await funnelRows();
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row).toMatchObject({ event: 'email_submitted', language: null, country: null, variant: null, registration_code_id: null, landing_slug: null });
      }
      // Random ids may contain any digits ("…170…"): look at what the client could have put there.
      const stored = JSON.stringify(rows.map(({ id: _id, session_id: _session, ...fields }) => fields));
      for (const personal of ['anna', 'Anna', '170', '198.51.100.23']) expect(stored).not.toContain(personal);
    });

    it('refuses more than 50 events in one call', async () => {
      const sessionId = randomUUID();
      const events = Array.from({ length: 51 }, () => ({ name: 'landing', sessionId }));
      const { body } = await graphql(api.yoga, RECORD_FUNNEL, { variables: { events } });
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(await funnelRows()).toEqual([]);
    });
  });

  describe('funnelReport', () => {
    it('is for admins only', async () => {
      const { body } = await report(null, null);
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(body.data).toBeNull();
      const forged = await report(null, 'not-a-token');
      expect(forged.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('counts events and sessions per step in funnel order, filtered by language, country, variant and invitation link', async () => {
      const { id: vipId, code: vipCode } = await insertCode(database.db, { landingSlug: 'vip' });
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      const events = [
        { name: 'landing', sessionId: a, language: 'de', country: 'DE', variant: 'default', registrationCode: vipCode },
        { name: 'code_submitted', sessionId: a, language: 'de', country: 'DE', registrationCode: vipCode },
        { name: 'landing', sessionId: a, language: 'de', country: 'DE', variant: 'default', registrationCode: vipCode },
        { name: 'landing', sessionId: b, language: 'fr', country: 'FR', variant: 'social' },
        { name: 'landing', sessionId: c, language: 'de', country: 'AT', variant: 'social' },
        { name: 'email_submitted', sessionId: c, language: 'de', country: 'AT' },
        { name: 'join_waitlist', sessionId: c, language: 'de', country: 'AT' },
      ];
      expect((await graphql(api.yoga, RECORD_FUNNEL, { variables: { events } })).body.errors).toBeUndefined();
      const token = await adminToken();

      const all = (await report(null, token)).body.data?.funnelReport;
      expect(all?.steps.map((s) => s.event)).toEqual([...FUNNEL_STEPS]);
      expect(all?.steps.slice(0, 4)).toEqual([
        { event: 'landing', events: 4, sessions: 3 },
        { event: 'code_entered', events: 0, sessions: 0 },
        { event: 'code_submitted', events: 1, sessions: 1 },
        { event: 'email_submitted', events: 1, sessions: 1 },
      ]);
      expect(all?.otherEvents.find((e) => e.event === 'join_waitlist')).toEqual({ event: 'join_waitlist', events: 1, sessions: 1 });
      expect(all?.sessions).toBe(3);
      expect(all?.options).toEqual({
        languages: ['de', 'fr'],
        countries: ['AT', 'DE', 'FR'],
        variants: ['default', 'social'],
        invitationLinks: [{ registrationCodeId: vipId, code: vipCode, landingSlug: 'vip' }],
      });

      const landing = async (filter: Record<string, string>) =>
        (await report(filter, token)).body.data?.funnelReport.steps.find((s) => s.event === 'landing');
      expect(await landing({ language: 'de' })).toEqual({ event: 'landing', events: 3, sessions: 2 });
      expect(await landing({ country: 'FR' })).toEqual({ event: 'landing', events: 1, sessions: 1 });
      expect(await landing({ variant: 'social' })).toEqual({ event: 'landing', events: 2, sessions: 2 });
      expect(await landing({ registrationCodeId: vipId })).toEqual({ event: 'landing', events: 2, sessions: 1 });
      expect(await landing({ language: 'de', country: 'AT', variant: 'social' })).toEqual({ event: 'landing', events: 1, sessions: 1 });
    });
  });
});
