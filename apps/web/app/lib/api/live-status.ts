/**
 * Live registration status over graphql-ws (spec §7.5, §8, §9): lazy connection, up to five
 * retries with exponential back-off from 1 s plus jitter; the close codes the spec lists as
 * final end the attempts. The three codes the client closes with itself (§8) are retried:
 * - 4504, acknowledgement time-out: the server has not answered connection_init within
 *   ACK_TIMEOUT_MS of the socket opening;
 * - 4499, client termination: a ping had no pong within PONG_TIMEOUT_MS (a socket that died
 *   without a word, e.g. with the network it was opened on);
 * - 4205, client restart: the browser is back online, so the socket is replaced at once and
 *   the subscription's first message says the current state.
 * A retry counts as one of the five until the server has sent a status again — a server that
 * accepts and drops every socket ends in polling, never in a loop. The caller hears
 * `onLive(true)` when the socket is acknowledged and `onLive(false)` whenever it is not (closed,
 * reconnecting, given up): the page polls meanwhile, so it never waits on a socket.
 *
 * A browser cannot set headers on a websocket, so connection_init's payload carries them
 * (spec §7.5 "Bearer auth in connection-init headers"): the Bearer token when the visitor has
 * one, and the page load's X-Session-ID, X-Source-Page and a fresh X-Correlation-ID (§7.2).
 */
import type { Client } from 'graphql-ws';
import { reportApiFailure } from '../error-reporting/error-reporting.ts';
import { registrationStatusSubscription, type DataOf, type RegistrationStatus } from './operations.ts';
import { CORRELATION_HEADER, SESSION_HEADER, SOURCE_PAGE_HEADER, correlationId, pageLoadSessionId } from '../page/page-load.ts';

/** Spec §9: up to five retries. */
export const WS_RETRY_ATTEMPTS = 5;
/** Spec §9: exponential back-off from 1 s, plus up to 1 s of jitter. */
const RETRY_BASE_MS = 1000;
/** Spec §8: close codes after which reconnecting cannot help. */
const TERMINAL_CLOSE_CODES = new Set([4500, 4005, 4400, 4004, 4401, 4406, 4409, 4429]);
/** Spec §8's codes the client closes with itself, then reconnects. */
export const CLOSE_ACK_TIMEOUT = 4504;
export const CLOSE_TERMINATED = 4499;
export const CLOSE_RESTART = 4205;
/** How long an open socket may wait for connection_ack (the API sends it at once; ours, the spec names no number). */
export const ACK_TIMEOUT_MS = 5000;
/** A ping this long after the last pong, answered within PONG_TIMEOUT_MS (ours, the spec names no number). */
export const KEEP_ALIVE_MS = 20_000;
export const PONG_TIMEOUT_MS = 5000;

function retryDelay(retries: number, random: () => number = Math.random): number {
  return RETRY_BASE_MS * 2 ** retries + Math.floor(random() * 1000);
}

function closeCode(event: unknown): number | undefined {
  const code = typeof event === 'object' && event !== null && 'code' in event ? (event as { code: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}

function websocketUrl(graphqlUrl: string): string {
  const url = new URL(graphqlUrl, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export interface ConnectionIds {
  /** A member token (ADR 022), when the visitor is identified. */
  token: string | null;
  sessionId: string | null;
  /** The page's path as the visitor sees it. */
  sourcePage: string;
}

/** connection_init's payload: `{ headers }` as the API reads them (apps/api/src/http/websockets.ts). */
export function connectionParams({ token, sessionId, sourcePage }: ConnectionIds): { headers: Record<string, string> } {
  return {
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      [CORRELATION_HEADER]: correlationId(),
      ...(sessionId ? { [SESSION_HEADER]: sessionId } : {}),
      [SOURCE_PAGE_HEADER]: sourcePage,
    },
  };
}

export interface WatchOptions {
  /** The GraphQL address, once the acquisition defaults were read (spec §7.1): no socket opens before. */
  graphqlUrl: () => Promise<string>;
  /** A member token for connection_init, when the visitor has one; asked at every (re)connection. */
  token: () => string | null;
}

/**
 * Calls `onStatus` for every status the server sends, and `onLive` with whether the socket is
 * acknowledged and listening (false while it reconnects, and for good once it gave up).
 * Returns a function that stops listening.
 */
export function watchRegistrationStatus(
  memberId: string,
  { graphqlUrl, token }: WatchOptions,
  onStatus: (status: RegistrationStatus) => void,
  onLive: (live: boolean) => void,
): () => void {
  let client: Client | undefined;
  let stopped = false;
  /** The subscription ended: completed after ACTIVE, or failed for good. */
  let finished = false;
  let unsubscribe = () => {};
  /** Sockets lost since the server last sent a status (a restart of ours is not one). */
  let failures = 0;
  /** The acknowledged socket, while there is one. */
  let socket: WebSocket | undefined;
  let restarting = false;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  if (typeof WebSocket === 'undefined') {
    onLive(false);
    return () => {};
  }

  /** 4205: replace the socket; one that died with the old network is ended (4499) if it does not close. */
  const restart = () => {
    const current = socket;
    if (!client || !current || current.readyState !== WebSocket.OPEN) return; // the next socket is a fresh one anyway
    const ending = client;
    socket = undefined;
    restarting = true;
    current.close(CLOSE_RESTART, 'Client Restart');
    clearTimeout(restartTimer);
    restartTimer = setTimeout(() => {
      if (current.readyState !== WebSocket.CLOSED) ending.terminate();
    }, PONG_TIMEOUT_MS);
  };

  void import('graphql-ws')
    .then(({ createClient }) => {
      if (stopped) return;
      const created = createClient({
        url: async () => websocketUrl(await graphqlUrl()),
        connectionParams: () => connectionParams({ token: token(), sessionId: pageLoadSessionId(), sourcePage: window.location.pathname }),
        lazy: true,
        connectionAckWaitTimeout: ACK_TIMEOUT_MS,
        keepAlive: KEEP_ALIVE_MS,
        retryAttempts: WS_RETRY_ATTEMPTS,
        // graphql-ws counts from 0 again after every acknowledgement; ours only after a status.
        retryWait: () => new Promise((resolve) => setTimeout(resolve, retryDelay(Math.max(0, failures - 1)))),
        shouldRetry: (event) => {
          const code = closeCode(event);
          return !(code !== undefined && TERMINAL_CLOSE_CODES.has(code)) && failures <= WS_RETRY_ATTEMPTS;
        },
        on: {
          connected: (opened) => {
            socket = opened as WebSocket;
            onLive(true);
          },
          ping: (received) => {
            if (received) return;
            clearTimeout(pongTimer);
            pongTimer = setTimeout(() => created.terminate(), PONG_TIMEOUT_MS);
          },
          pong: (received) => {
            if (received) clearTimeout(pongTimer);
          },
          // Runs before graphql-ws decides whether to retry (shouldRetry sees this count).
          closed: () => {
            socket = undefined;
            clearTimeout(pongTimer);
            clearTimeout(restartTimer);
            if (stopped || finished) return;
            if (restarting) restarting = false;
            else failures += 1;
            onLive(false);
          },
        },
      });
      client = created;
      unsubscribe = created.subscribe<DataOf<typeof registrationStatusSubscription>>(
        { query: registrationStatusSubscription.document, variables: { memberId } },
        {
          next: ({ data }) => {
            failures = 0;
            if (data?.registrationStatus) onStatus(data.registrationStatus);
          },
          error: (error: unknown) => {
            finished = true;
            // The application-level hook for GraphQL and network errors (spec §8, ADR 013).
            const code = closeCode(error);
            reportApiFailure({ kind: 'network', operation: 'registrationStatus', ...(code !== undefined ? { detail: `close code ${code}` } : {}) });
            onLive(false);
          },
          complete: () => {
            finished = true;
          },
        },
      );
      window.addEventListener('online', restart);
    })
    .catch(() => onLive(false));
  return () => {
    stopped = true;
    clearTimeout(pongTimer);
    clearTimeout(restartTimer);
    window.removeEventListener('online', restart);
    unsubscribe();
    void client?.dispose();
  };
}
