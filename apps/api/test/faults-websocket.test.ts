/**
 * A mutation sent over the WebSocket (docs/decisions/027): the client gets an answer for
 * that operation — Yoga's BAD_REQUEST, mutations are POSTs — and the socket stays
 * open and usable for a following subscription. A socket the client ends with one of the
 * codes it closes with itself (spec §8: 4205 client restart, 4499 client termination) lets
 * go of its subscription at once, and the next socket is served as the first. A real server
 * on a port, the graphql-ws client, and raw frames for what the protocol says.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../src/logger.ts';
import { createRateLimiters } from '../src/rate-limit.ts';
import { createRegistrationEvents } from '../src/domain/registration-events.ts';
import type { RegistrationEvents } from '../src/domain/registration-events.ts';
import { createApiServer } from '../src/server.ts';
import type { ApiServer } from '../src/server.ts';
import { GENEROUS_LIMITS } from './support/api.ts';
import { ENGINES, createTestDatabase } from './support/database.ts';
import type { TestDatabase } from './support/database.ts';
import { testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { ACTIVATE, REGISTER, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

const MUTATION = 'mutation { recordFunnelEvents(events: []) }';
const SUBSCRIPTION = 'subscription Status($id: String!) { registrationStatus(memberId: $id) { state } }';

describe.each(ENGINES)('a mutation over the WebSocket on %s', (engine) => {
  let database: TestDatabase;
  let api: ApiServer;
  let url: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    const env = testEnv();
    api = await createApiServer({ env, db: database.db, logger: createLogger(env) });
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(api.server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  it('answers the operation with an error and keeps the socket for a subscription', async () => {
    const socket = new WebSocket(url, 'graphql-transport-ws');
    const frames: { type: string; id?: string; payload?: unknown }[] = [];
    let closed: { code: number; reason: string } | undefined;
    socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as (typeof frames)[number]));
    socket.on('close', (code: number, reason: Buffer) => (closed = { code, reason: reason.toString() }));
    await once(socket, 'open');
    // The first frame that matches, as soon as it arrives (the listener above has stored it by then).
    const frame = (predicate: (f: (typeof frames)[number]) => boolean) =>
      new Promise<(typeof frames)[number]>((resolve, reject) => {
        const settle = () => {
          const found = frames.find(predicate);
          if (!found && !closed) return;
          socket.off('message', settle);
          socket.off('close', settle);
          if (found) resolve(found);
          else reject(new Error(`socket closed ${closed!.code} ${closed!.reason} without such a frame in ${JSON.stringify(frames)}`));
        };
        socket.on('message', settle);
        socket.on('close', settle);
        settle();
      });
    socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    await frame((f) => f.type === 'connection_ack');

    socket.send(JSON.stringify({ id: 'm1', type: 'subscribe', payload: { query: MUTATION } }));
    const answer = await frame((f) => f.id === 'm1' && (f.type === 'error' || f.type === 'next'));
    const errors = (answer.type === 'error' ? answer.payload : (answer.payload as { errors?: unknown }).errors) as { message: string; extensions?: { code?: string } }[];
    expect(errors.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
    expect(errors[0]?.message).toBe('Can only perform a mutation operation from a POST request.');

    // The same socket still serves a subscription.
    socket.send(JSON.stringify({ id: 's1', type: 'subscribe', payload: { query: SUBSCRIPTION, variables: { id: 'no-such-registration' } } }));
    // The subscription ran: an unknown registration is its NOT_FOUND answer (schema.graphql).
    const next = await frame((f) => f.id === 's1' && (f.type === 'next' || f.type === 'error'));
    expect(JSON.stringify(next.payload)).toContain('"code":"NOT_FOUND"');
    expect(closed).toBeUndefined();
    socket.close();
  });

  it('gives the graphql-ws client an error for that operation only', async () => {
    const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    try {
      const failure = await new Promise<unknown>((resolve, reject) => {
        client.subscribe({ query: MUTATION }, { next: (value) => resolve(value), error: resolve, complete: () => reject(new Error('completed without an answer')) });
      });
      expect(JSON.stringify(failure)).toContain('BAD_REQUEST');
      const second = await new Promise<unknown>((resolve, reject) => {
        let value: unknown;
        client.subscribe({ query: '{ countryDetails { country } }' }, { next: (data) => (value = data), error: reject, complete: () => resolve(value) });
      });
      expect(second).toEqual({ data: { countryDetails: { country: null } } });
    } finally {
      await client.dispose();
    }
  });
});

type Frame = { type: string; id?: string; payload?: unknown };

/** A raw graphql-transport-ws socket: its frames as they arrive, and how it closed. */
async function rawSocket(url: string) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const frames: Frame[] = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as Frame));
  await once(socket, 'open');
  const frame = async (predicate: (f: Frame) => boolean) => {
    for (let waited = 0; waited < 5_000; waited += 10) {
      const found = frames.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no such frame in ${JSON.stringify(frames)}`);
  };
  return { socket, frames, frame };
}

describe.each(ENGINES)('a socket the client restarts or terminates on %s (spec §8)', (engine) => {
  let database: TestDatabase;
  let api: ApiServer;
  let url: string;
  /** Registration-status listeners the server holds: one per live subscription. */
  let listening = 0;
  const inner = createRegistrationEvents();

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    const env = testEnv();
    const events: RegistrationEvents = {
      ...inner,
      store: inner.store,
      subscribe(memberId) {
        const updates = inner.subscribe(memberId);
        listening += 1;
        const end = updates.return!.bind(updates);
        let ended = false;
        updates.return = (value?: unknown) => {
          if (!ended) listening -= 1;
          ended = true;
          return end(value);
        };
        return updates;
      },
    };
    const limiters = createRateLimiters({ REDIS_URL: undefined }, { rules: GENEROUS_LIMITS });
    api = await createApiServer({ env, db: database.db, logger: createLogger(env), limiters, events });
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(api.server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    await api?.close();
    await api?.limiters.close();
    await inner.close();
    await database?.close();
  });

  const settled = async (expected: number) => {
    for (let waited = 0; waited < 2_000 && listening !== expected; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    return listening;
  };

  it('lets go of the subscription at once, and serves the next socket the current state, then the activation', async () => {
    const { code } = await insertCode(database.db);
    const email = uniqueEmail('restart');
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
    const memberId = body.data!.register.memberId!;
    const subscribe = { query: SUBSCRIPTION, variables: { id: memberId } };

    // The codes the client closes with itself, and a tab simply closed.
    for (const [closeCode, reason] of [
      [4205, 'Client Restart'],
      [4499, 'Terminated'],
      [1001, 'Going away'],
    ] as const) {
      const { socket, frame } = await rawSocket(url);
      socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
      await frame((f) => f.type === 'connection_ack');
      socket.send(JSON.stringify({ id: 's', type: 'subscribe', payload: subscribe }));
      expect((await frame((f) => f.id === 's' && f.type === 'next')).payload).toEqual({ data: { registrationStatus: { state: 'PENDING' } } });
      expect(listening).toBe(1);
      socket.close(closeCode, reason);
      await once(socket, 'close');
      // Nothing stays behind waiting for an activation that may never come.
      expect(await settled(0), `after ${closeCode}`).toBe(0);
    }

    // The socket after a restart: the current state first, then the activation, then complete.
    const { socket, frames, frame } = await rawSocket(url);
    socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    await frame((f) => f.type === 'connection_ack');
    socket.send(JSON.stringify({ id: 'again', type: 'subscribe', payload: subscribe }));
    expect((await frame((f) => f.id === 'again' && f.type === 'next')).payload).toEqual({ data: { registrationStatus: { state: 'PENDING' } } });
    const activated = await graphql<{ activateAccount: { outcome: string } }>(api.yoga, ACTIVATE, {
      variables: { activationId: await latestActivationId(database.db, email) },
    });
    expect(activated.body.data?.activateAccount.outcome).toBe('ACTIVATED');
    await frame((f) => f.id === 'again' && f.type === 'complete');
    expect(frames.filter((f) => f.id === 'again' && f.type === 'next').map((f) => f.payload)).toEqual([
      { data: { registrationStatus: { state: 'PENDING' } } },
      { data: { registrationStatus: { state: 'ACTIVE' } } },
    ]);
    expect(await settled(0)).toBe(0);
    socket.close();
  });
});
