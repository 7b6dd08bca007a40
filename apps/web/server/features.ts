/**
 * The features proxy under the site's own host (spec §7.6, ADR 012). Browsers ask this
 * server, never the API: GET /api/features/:clientKey answers the payload and GET
 * /sub/:clientKey is GrowthBook's server-sent-events stream. The server holds one stream
 * to the API per process and fans it out to every open page; the same payload renders the
 * pages (the server evaluates experiments, so the first paint is already the variation).
 *
 * Until the API has answered — or when it cannot be reached at start — the payload is the
 * versioned features file itself: pages keep their flags and experiments through an outage
 * of the API, with the last payload received (or the file's defaults).
 */
import {
  IDLE_STREAM_INTERVAL_MS,
  RECONNECT_BASE_MS,
  RECONNECT_ERRORS_BEFORE_BACKOFF,
  RECONNECT_FACTOR,
  RECONNECT_MAX_BACKOFF_MS,
} from '@velvet/features/constants';
import { filePayload, isFeaturePayload } from '@velvet/features/definitions';
import type { FeaturePayload } from '@velvet/features/definitions';
import { loadFeatureFile } from '@velvet/features/file';
import express from 'express';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';

const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 2.5 * IDLE_STREAM_INTERVAL_MS;

export interface FeatureRelay {
  readonly clientKey: string;
  /**
   * The payload in force, at once: the API's latest, else the versioned file. Pages render
   * with it and never wait for the API (ADR 028): the stream is retried in the background.
   */
  current(): FeaturePayload;
  /** The payload once the API answered, or the current one after `timeoutMs` (tests and tools; pages use `current`). */
  settled(timeoutMs?: number): Promise<FeaturePayload>;
  /** Whether the API has answered since start. */
  readonly live: boolean;
  /** Whether the stream from the API is open now. */
  readonly connected: boolean;
  /** Pages with an open stream. */
  readonly clients: number;
  router(): express.Router;
  close(): void;
}

export interface FeatureRelayOptions {
  apiUrl: string;
  clientKey: string;
  logger: Logger;
  keepAliveMs?: number;
  /** How long the API may take to answer the stream's request (default 10 s). */
  connectTimeoutMs?: number;
  /** How long the stream may stay silent, keep-alives included, before it is reopened (default 2.5 keep-alive intervals). */
  idleTimeoutMs?: number;
  /** Reconnection delays (tests shorten them). */
  reconnect?: { baseMs?: number; firstDelayMs?: number };
  fetchImpl?: typeof fetch;
}

/** Delay before reconnection attempt `errors` (1-based): quick retries, then GrowthBook's back-off capped at 5 minutes. */
export function reconnectDelay(errors: number, baseMs = RECONNECT_BASE_MS, firstDelayMs = RECONNECT_BASE_MS, random = Math.random): number {
  if (errors <= RECONNECT_ERRORS_BEFORE_BACKOFF) return firstDelayMs;
  return Math.min(baseMs * RECONNECT_FACTOR ** (errors - RECONNECT_ERRORS_BEFORE_BACKOFF) * (1 + random()), RECONNECT_MAX_BACKOFF_MS);
}

/** Server-sent events from a byte stream: `event:` and `data:` lines, blocks ended by a blank line. */
export async function* readEvents(body: ReadableStream<Uint8Array>, onBytes?: () => void): AsyncGenerator<{ event: string; data: string }> {
  const reader = body.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onBytes?.();
      buffer += value.replaceAll('\r\n', '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length > 0) yield { event, data: data.join('\n') };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export function createFeatureRelay(options: FeatureRelayOptions): FeatureRelay {
  const { apiUrl, clientKey, logger } = options;
  const keepAliveMs = options.keepAliveMs ?? IDLE_STREAM_INTERVAL_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const doFetch = options.fetchImpl ?? fetch;
  const { file, modifiedAt } = loadFeatureFile();
  let payload = filePayload(file, modifiedAt);
  let live = false;
  let connected = false;
  let closed = false;
  let errors = 0;
  let upstream: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const clients = new Set<Response>();
  const waiting = new Set<() => void>();

  const broadcast = (next: FeaturePayload) => {
    const message = `event: features\ndata: ${JSON.stringify(next)}\n\n`;
    for (const res of clients) res.write(message);
  };

  const accept = (data: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = undefined;
    }
    if (!isFeaturePayload(parsed)) {
      logger.warn('features: the API sent a payload that does not parse; keeping the previous one');
      return;
    }
    const changed = parsed.dateUpdated !== payload.dateUpdated || JSON.stringify(parsed.features) !== JSON.stringify(payload.features);
    payload = parsed;
    if (!live) {
      live = true;
      for (const wake of waiting) wake();
      waiting.clear();
    }
    if (changed) broadcast(parsed);
  };

  /** Aborts the stream when the API stops talking: no headers in time, or no bytes (not even a keep-alive) for too long. */
  const watchdog = (controller: AbortController, ms: number) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (reason: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new Error(reason)), ms);
      timer.unref();
    };
    return { arm, stop: () => clearTimeout(timer) };
  };

  const connect = async () => {
    if (closed) return;
    const controller = new AbortController();
    upstream = controller;
    const timeout = watchdog(controller, connectTimeoutMs);
    timeout.arm('no answer from the API');
    try {
      const response = await doFetch(`${apiUrl}/sub/${encodeURIComponent(clientKey)}`, {
        headers: { accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      connected = true;
      const idle = watchdog(controller, idleTimeoutMs);
      timeout.stop();
      idle.arm('the stream went silent');
      try {
        for await (const message of readEvents(response.body, () => idle.arm('the stream went silent'))) {
          if (message.event !== 'features') continue;
          errors = 0;
          accept(message.data);
        }
      } finally {
        idle.stop();
      }
      throw new Error('stream ended');
    } catch (error) {
      timeout.stop();
      connected = false;
      if (closed) return;
      // A watchdog's abort says why; anything else speaks for itself.
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
      controller.abort();
      errors += 1;
      const delay = reconnectDelay(errors, options.reconnect?.baseMs, options.reconnect?.firstDelayMs);
      const log = errors === 1 || errors === RECONNECT_ERRORS_BEFORE_BACKOFF + 1 ? 'warn' : 'debug';
      logger[log]({ err: reason instanceof Error ? reason.message : String(reason), errors, retryInMs: Math.round(delay), serving: live ? 'last payload' : 'features file' }, 'features: stream from the API lost');
      retryTimer = setTimeout(() => void connect(), delay);
      retryTimer.unref();
    }
  };
  void connect();

  const checkKey = (req: Request, res: Response): boolean => {
    if (req.params.clientKey === clientKey) return true;
    res.status(404).json({ status: 404, error: 'Unknown client key' });
    return false;
  };

  return {
    clientKey,
    current: () => payload,
    settled(timeoutMs = 1_000) {
      if (live || closed) return Promise.resolve(payload);
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(done);
          resolve(payload);
        };
        const timer = setTimeout(done, timeoutMs);
        waiting.add(done);
      });
    },
    get live() {
      return live;
    },
    get clients() {
      return clients.size;
    },
    get connected() {
      return connected;
    },
    router() {
      const router = express.Router();
      router.get('/api/features/:clientKey', (req, res) => {
        if (!checkKey(req, res)) return;
        res.set({ 'Cache-Control': 'no-cache', 'x-sse-support': 'enabled' }).json(payload);
      });
      router.get('/sub/:clientKey', (req, res) => {
        if (!checkKey(req, res)) return;
        res.writeHead(200, {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-cache, no-transform',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        });
        res.write(`event: features\ndata: ${JSON.stringify(payload)}\n\n`);
        clients.add(res);
        const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
        req.on('close', () => {
          clearInterval(keepAlive);
          clients.delete(res);
        });
      });
      return router;
    },
    close() {
      closed = true;
      clearTimeout(retryTimer);
      upstream?.abort();
      for (const res of clients) res.end();
      clients.clear();
      for (const wake of waiting) wake();
    },
  };
}
