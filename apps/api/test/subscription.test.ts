/**
 * Subscription.registrationStatus through a real graphql-ws client over a real WebSocket
 * to the server on a loopback port; and across two server instances sharing one Redis.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Env } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { createRateLimiters } from '../src/rate-limit.ts';
import { createApiServer } from '../src/server.ts';
import type { ApiServer } from '../src/server.ts';
import { createRegistrationEvents } from '../src/domain/registration-events.ts';
import { GENEROUS_LIMITS } from './support/api.ts';
import { createTestDatabase } from './support/database.ts';
import type { TestDatabase } from './support/database.ts';
import { REDIS_URL, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { ACTIVATE, REGISTER, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

const SUBSCRIBE = 'subscription status($id: String!) { registrationStatus(memberId: $id) { memberId state } }';

interface Running {
  api: ApiServer;
  url: string;
  close(): Promise<void>;
}

async function startServer(env: Env, database: TestDatabase, redis: boolean, channel: string): Promise<Running> {
  const logger = createLogger(env);
  const limiters = createRateLimiters({ REDIS_URL: undefined }, { rules: GENEROUS_LIMITS });
  const events = createRegistrationEvents({ redisUrl: redis ? REDIS_URL : undefined, channel, logger });
  await events.ready();
  const api = await createApiServer({ env, db: database.db, logger, limiters, events });
  api.server.listen(0, '127.0.0.1');
  await once(api.server, 'listening');
  const { port } = api.server.address() as AddressInfo;
  return {
    api,
    url: `ws://127.0.0.1:${port}/graphql`,
    async close() {
      await api.close();
      await limiters.close();
      await events.close();
    },
  };
}

describe.each([
  ['in-process', false],
  ['Redis', true],
] as const)('registrationStatus subscription (%s events)', (_label, redis) => {
  let database: TestDatabase;
  const servers: Running[] = [];
  const clients: Client[] = [];
  const channel = `velvet-test:${randomUUID()}`;
  const env = testEnv();

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await database?.close();
  });

  async function server() {
    const running = await startServer(env, database, redis, channel);
    servers.push(running);
    return running;
  }
  function client(url: string, connectionParams?: Record<string, unknown>) {
    const created = createClient({ url, webSocketImpl: WebSocket, lazy: true, retryAttempts: 0, connectionParams });
    clients.push(created);
    return created;
  }
  async function registerOn(running: Running) {
    const { code } = await insertCode(database.db);
    const email = uniqueEmail();
    const { body } = await graphql<{ register: RegisterPayload }>(running.api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
    const memberId = body.data?.register.memberId;
    if (!memberId) throw new Error('registration failed');
    return { memberId, activationId: await latestActivationId(database.db, email) };
  }

  it('sends the current state, then ACTIVE on activation, then completes', async () => {
    const a = await server();
    // Instance B handles the activation: with Redis it is another instance; in-process it is the same one.
    const b = redis ? await server() : a;
    const { memberId, activationId } = await registerOn(a);
    const updates = client(a.url, { headers: { Authorization: 'Bearer not-a-real-token' } }).iterate({
      query: SUBSCRIBE,
      variables: { id: memberId },
    });
    expect(await updates.next()).toEqual({ done: false, value: { data: { registrationStatus: { memberId, state: 'PENDING' } } } });

    const { body } = await graphql<{ activateAccount: { outcome: string } }>(b.api.yoga, ACTIVATE, { variables: { activationId } });
    expect(body.data?.activateAccount.outcome).toBe('ACTIVATED');
    expect(await updates.next()).toEqual({ done: false, value: { data: { registrationStatus: { memberId, state: 'ACTIVE' } } } });
    expect((await updates.next()).done).toBe(true);
  });

  it('answers an already active registration with ACTIVE and completes; an unknown id with NOT_FOUND', async () => {
    const a = await server();
    const { memberId, activationId } = await registerOn(a);
    await graphql(a.api.yoga, ACTIVATE, { variables: { activationId } });
    const ws = client(a.url);
    const active = ws.iterate({ query: SUBSCRIBE, variables: { id: memberId } });
    expect(await active.next()).toEqual({ done: false, value: { data: { registrationStatus: { memberId, state: 'ACTIVE' } } } });
    expect((await active.next()).done).toBe(true);

    const unknown = ws.iterate({ query: SUBSCRIBE, variables: { id: randomUUID() } });
    const error: unknown = await unknown.next().then(
      () => null,
      (rejection: unknown) => rejection,
    );
    expect(error).toMatchObject([{ message: 'Unknown registration.', extensions: { code: 'NOT_FOUND' } }]);
  });
});
