/**
 * Identified customers (ADR 022): a successful registration issues a member token; the token
 * identifies the customer as `Authorization: Bearer` over HTTP and in graphql-ws's
 * connection_init headers (spec §7.5), where the page's X-Session-ID and X-Source-Page come too.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { signSocialToken, verifyMemberToken } from '@velvet/tokens/signed-token';
import { createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LoggedOperation } from '../src/dev-request-log.ts';
import { createLogger } from '../src/logger.ts';
import { createRateLimiters } from '../src/rate-limit.ts';
import { createApiServer } from '../src/server.ts';
import type { ApiServer } from '../src/server.ts';
import { GENEROUS_LIMITS } from './support/api.ts';
import { createTestDatabase, deleteAllData } from './support/database.ts';
import type { TestDatabase } from './support/database.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { REGISTER, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

const ACTIVATE = 'mutation activate($activationId: String!) { activateAccount(activationId: $activationId) { outcome memberId memberToken } }';
const VIEWER = 'query viewer { viewer { customerId saltedHashedCustomerId } }';
const COMPLETE_SOCIAL =
  'mutation complete($input: CompleteSocialRegistrationInput!) { completeSocialRegistration(input: $input) { outcome memberId memberToken } }';

interface Activation {
  outcome: string;
  memberId: string | null;
  memberToken: string | null;
}

describe('member tokens and identified customers', () => {
  let database: TestDatabase;
  let api: ApiServer;
  let port: number;
  const limiters = createRateLimiters({ REDIS_URL: undefined }, { rules: GENEROUS_LIMITS });

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const env = testEnv();
    api = await createApiServer({ env, db: database.db, logger: createLogger(env), limiters });
    api.server.listen(0, '127.0.0.1');
    await once(api.server, 'listening');
    port = (api.server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await deleteAllData(database.db);
  });
  afterAll(async () => {
    await api?.close();
    await limiters.close();
    await database?.close();
  });

  async function registerAndActivate(): Promise<{ first: Activation; second: Activation }> {
    const { code } = await insertCode(database.db);
    const email = uniqueEmail('identified');
    const registered = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
    expect(registered.body.data?.register.outcome).toBe('FORM_FINISHED');
    const activationId = await latestActivationId(database.db, email);
    const activate = async () => (await graphql<{ activateAccount: Activation }>(api.yoga, ACTIVATE, { variables: { activationId } })).body.data!.activateAccount;
    const first = await activate();
    return { first, second: await activate() };
  }

  it('activation issues a 7-day member token naming the new customer; a second click issues none', async () => {
    const { first, second } = await registerAndActivate();
    expect(first.outcome).toBe('ACTIVATED');
    const verified = await verifyMemberToken(first.memberToken, TEST_SECRET);
    expect(verified).toMatchObject({ ok: true, claims: { customerId: first.memberId } });
    if (verified.ok) expect(verified.expiresAt.getTime() - Date.now()).toBeGreaterThan(604800 * 1000 - 60_000);
    // Whatever a used link answers (ACTIVATION_LINK_UNUSABLE, or ALREADY_ACTIVE), it never hands out a token.
    expect(second.outcome).not.toBe('ACTIVATED');
    expect(second.memberToken).toBeNull();
  });

  it('a social sign-up with a verified address issues one too', async () => {
    const { code } = await insertCode(database.db);
    const token = await signSocialToken({ email: uniqueEmail('social'), emailVerified: true, provider: 'google', subject: 'sub-identified' }, TEST_SECRET, 900);
    const input = {
      token,
      registrationCode: code,
      country: 'DE',
      newsletter: false,
      termsAccepted: true,
      termsPkString: 'terms-DE-2026-01',
      dataPolicyPkString: 'data-policy-DE-2026-01',
      language: 'de',
      shoppingPreferences: ['WOMEN'],
    };
    const { body } = await graphql<{ completeSocialRegistration: Activation }>(api.yoga, COMPLETE_SOCIAL, { variables: { input } });
    const payload = body.data!.completeSocialRegistration;
    expect(payload.outcome).toBe('ACTIVATED');
    expect(await verifyMemberToken(payload.memberToken, TEST_SECRET)).toMatchObject({ ok: true, claims: { customerId: payload.memberId } });
  });

  it('Query.viewer: the customer of a Bearer member token; unidentified without one, with another token, or once blocked', async () => {
    const { first } = await registerAndActivate();
    const viewer = async (headers: Record<string, string> = {}) =>
      (await graphql<{ viewer: { customerId: string; saltedHashedCustomerId: string } | null }>(api.yoga, VIEWER, { headers })).body.data?.viewer;
    const identified = await viewer({ authorization: `Bearer ${first.memberToken}` });
    expect(identified?.customerId).toBe(first.memberId);
    expect(identified?.saltedHashedCustomerId).toMatch(/^[0-9a-f]{64}$/);
    expect(await viewer()).toBeNull();
    expect(await viewer({ authorization: 'Bearer not-a-token' })).toBeNull();
    await database.db.updateTable('members').set({ status: 'blocked' }).where('id', '=', first.memberId!).execute();
    expect(await viewer({ authorization: `Bearer ${first.memberToken}` })).toBeNull();
  });

  it('graphql-ws takes Bearer auth and the page’s ids from connection_init’s headers (spec §7.2, §7.5)', async () => {
    const { first } = await registerAndActivate();
    const sessionId = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      lazy: true,
      retryAttempts: 0,
      connectionParams: {
        headers: {
          Authorization: `Bearer ${first.memberToken}`,
          'X-Correlation-ID': 'acq-web-0d9b4f4e-1c1e-4f43-9a53-3c1c4a9e7f10',
          'X-Session-ID': sessionId,
          'X-Source-Page': '/de/registration/formfinished',
        },
      },
    });
    try {
      const result = await new Promise<unknown>((resolve, reject) => {
        let value: unknown;
        client.subscribe({ query: VIEWER }, { next: (data) => (value = data), error: reject, complete: () => resolve(value) });
      });
      expect(result).toEqual({ data: { viewer: { customerId: first.memberId, saltedHashedCustomerId: expect.stringMatching(/^[0-9a-f]{64}$/) } } });
    } finally {
      await client.dispose();
    }
    const log = (await (await fetch(`http://127.0.0.1:${port}/dev/requests?sessionId=${sessionId}`)).json()) as { operations: LoggedOperation[] };
    expect(log.operations).toEqual([
      {
        at: expect.any(String),
        transport: 'ws',
        operationName: 'viewer',
        correlationId: 'acq-web-0d9b4f4e-1c1e-4f43-9a53-3c1c4a9e7f10',
        sessionId,
        sourcePage: '/de/registration/formfinished',
        bearer: true,
      },
    ]);
  });

  it('the dev request log lists HTTP operations by page load, without variables', async () => {
    const sessionId = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': sessionId, 'x-source-page': '/de', 'x-correlation-id': 'acq-web-1' },
      body: JSON.stringify({ operationName: 'countryDetails', query: 'query countryDetails { countryDetails { country } }' }),
    });
    expect(response.status).toBe(200);
    const log = (await (await fetch(`http://127.0.0.1:${port}/dev/requests?sessionId=${sessionId}`)).json()) as { operations: LoggedOperation[] };
    expect(log.operations).toEqual([
      { at: expect.any(String), transport: 'http', operationName: 'countryDetails', correlationId: 'acq-web-1', sessionId, sourcePage: '/de', bearer: false },
    ]);
  });
});
