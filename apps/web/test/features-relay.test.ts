/**
 * The features proxy (ADR 012) over real HTTP: a stand-in API streams payloads; the web
 * server's relay serves GrowthBook's endpoint and stream to pages, keeps the last payload
 * through an outage and reconnects.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RECONNECT_MAX_BACKOFF_MS } from '@velvet/features/constants';
import type { FeaturePayload } from '@velvet/features/definitions';
import express from 'express';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createFeatureRelay, readEvents, reconnectDelay } from '../server/features.ts';
import type { FeatureRelay } from '../server/features.ts';

const KEY = 'sdk-test';
const logger = pino({ level: 'silent' });

function payload(onboarding: boolean, dateUpdated: string): FeaturePayload {
  return { features: { 'show-onboarding': { defaultValue: onboarding } }, dateUpdated };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A stand-in API: /sub/KEY streams whatever `push` sends. */
async function fakeApi(port = 0) {
  const streams = new Set<ServerResponse>();
  let current = payload(false, '2026-11-22T10:00:00.000Z');
  let opened = 0;
  const server = createServer((req, res) => {
    if (req.url !== `/sub/${KEY}`) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`event: features\ndata: ${JSON.stringify(current)}\n\n`);
    opened += 1;
    streams.add(res);
    req.on('close', () => streams.delete(res));
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const api = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    port: (server.address() as AddressInfo).port,
    get streams() {
      return streams.size;
    },
    /** Streams opened so far. */
    get opened() {
      return opened;
    },
    push(next: FeaturePayload) {
      current = next;
      for (const res of streams) res.write(`event: features\ndata: ${JSON.stringify(next)}\n\n`);
    },
    async stop() {
      for (const res of streams) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  cleanups.push(() => (server.listening ? api.stop() : undefined));
  return api;
}

/** A logger whose lines a test can wait for: `logged(match)` resolves with the next line that matches. */
function watchedLogger() {
  const lines = new EventEmitter();
  const watched = pino({ level: 'debug' }, { write: (line: string) => void lines.emit('line', JSON.parse(line)) });
  const logged = (match: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const listener = (line: Record<string, unknown>) => {
        if (!match(line)) return;
        lines.off('line', listener);
        resolve(line);
      };
      lines.on('line', listener);
    });
  return { logger: watched, logged };
}

async function serve(relay: FeatureRelay) {
  const app = express().use(relay.router());
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    relay.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function openPage(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  const events = readEvents(response.body!)[Symbol.asyncIterator]();
  return {
    response,
    async next(): Promise<FeaturePayload> {
      const { value, done } = await events.next();
      if (done) throw new Error('stream ended');
      return JSON.parse(value.data) as FeaturePayload;
    },
    close: () => controller.abort(),
  };
}

describe('the features proxy', () => {
  it('serves the versioned file until the API answers, then the API payload, to the endpoint and to open pages', async () => {
    const api = await fakeApi();
    const relay = createFeatureRelay({ apiUrl: api.url, clientKey: KEY, logger });
    const base = await serve(relay);
    await relay.settled(2_000);
    expect(relay.live).toBe(true);

    const endpoint = await fetch(`${base}/api/features/${KEY}`);
    expect(endpoint.headers.get('x-sse-support')).toBe('enabled');
    expect(await endpoint.json()).toEqual(payload(false, '2026-11-22T10:00:00.000Z'));
    expect((await fetch(`${base}/api/features/sdk-other`)).status).toBe(404);
    expect((await fetch(`${base}/sub/sdk-other`)).status).toBe(404);

    const page = await openPage(`${base}/sub/${KEY}`);
    expect(page.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await page.next()).features['show-onboarding']).toEqual({ defaultValue: false });
    api.push(payload(true, '2026-11-22T10:01:00.000Z'));
    expect(await page.next()).toEqual(payload(true, '2026-11-22T10:01:00.000Z'));
    expect(relay.clients).toBe(1);
    page.close();
    await expect.poll(() => relay.clients, { timeout: 5_000 }).toBe(0);
  });

  it('keeps the last payload through an API outage and picks up again after it', async () => {
    const api = await fakeApi();
    const { logger: watched, logged } = watchedLogger();
    const relay = createFeatureRelay({ apiUrl: api.url, clientKey: KEY, logger: watched, reconnect: { firstDelayMs: 20, baseMs: 20 } });
    const base = await serve(relay);
    await relay.settled(2_000);
    const page = await openPage(`${base}/sub/${KEY}`);
    await page.next();

    // In the outage: the stream is lost (the first error), and trying again fails too (the second).
    const retriedInOutage = logged((line) => line.msg === 'features: stream from the API lost' && line.errors === 2);
    await api.stop();
    expect(await retriedInOutage).toMatchObject({ serving: 'last payload' });
    expect(relay.current()).toEqual(payload(false, '2026-11-22T10:00:00.000Z'));
    expect(await (await fetch(`${base}/api/features/${KEY}`)).json()).toEqual(payload(false, '2026-11-22T10:00:00.000Z'));

    const back = await fakeApi(api.port);
    await expect.poll(() => back.streams, { timeout: 5_000 }).toBe(1);
    back.push(payload(true, '2026-11-22T11:00:00.000Z'));
    expect(await page.next()).toEqual(payload(true, '2026-11-22T11:00:00.000Z'));
  });

  it('falls back to the versioned features file when the API never answers', async () => {
    const relay = createFeatureRelay({ apiUrl: 'http://127.0.0.1:9', clientKey: KEY, logger });
    cleanups.push(() => relay.close());
    const started = Date.now();
    const fallback = await relay.settled(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(relay.live).toBe(false);
    expect(fallback.features['show-onboarding']).toEqual({ defaultValue: true });
    expect(fallback.features['top-banner-copy']?.rules?.[0]).toMatchObject({ key: 'top-banner-copy' });
  });

  it('gives up on an API that accepts and never answers, or goes silent, and tries again', async () => {
    // Accepts the connection and never sends a byte.
    let connections = 0;
    const silent = createServer(() => void (connections += 1));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    cleanups.push(() => {
      silent.closeAllConnections();
      return new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const relay = createFeatureRelay({ apiUrl: url, clientKey: KEY, logger, connectTimeoutMs: 50, reconnect: { firstDelayMs: 20, baseMs: 20 } });
    cleanups.push(() => relay.close());
    await expect.poll(() => connections, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(relay.live).toBe(false);

    // Answers the headers and a payload, then falls silent without keep-alives.
    const api = await fakeApi();
    const quiet = createFeatureRelay({ apiUrl: api.url, clientKey: KEY, logger, idleTimeoutMs: 100, reconnect: { firstDelayMs: 20, baseMs: 20 } });
    cleanups.push(() => quiet.close());
    await expect.poll(() => quiet.live && api.streams === 1, { timeout: 5_000 }).toBe(true);
    const opened = api.opened;
    await expect.poll(() => api.opened, { timeout: 5_000 }).toBeGreaterThan(opened);
  });

  it('sends a keep-alive comment on an idle stream', async () => {
    const api = await fakeApi();
    const relay = createFeatureRelay({ apiUrl: api.url, clientKey: KEY, logger, keepAliveMs: 30 });
    const base = await serve(relay);
    const response = await fetch(`${base}/sub/${KEY}`);
    const reader = response.body!.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
    let text = '';
    while (!text.includes(': keep-alive\n\n')) text += (await reader.read()).value ?? '';
    await reader.cancel();
  });

  it('retries quickly three times, then backs off exponentially up to 5 minutes', () => {
    expect([1, 2, 3].map((n) => reconnectDelay(n, 1_000, 1_000, () => 0))).toEqual([1_000, 1_000, 1_000]);
    expect(reconnectDelay(4, 1_000, 1_000, () => 0)).toBe(3_000);
    expect(reconnectDelay(5, 1_000, 1_000, () => 0)).toBe(9_000);
    expect(reconnectDelay(5, 1_000, 1_000, () => 1)).toBe(18_000);
    expect(reconnectDelay(20, 1_000, 1_000, () => 0.5)).toBe(RECONNECT_MAX_BACKOFF_MS);
  });
});
