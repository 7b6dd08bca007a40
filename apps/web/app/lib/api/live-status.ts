/**
 * Live registration status over graphql-ws (spec §7.5, §9): lazy connection, up to five
 * retries with exponential back-off from 1 s plus jitter; the close codes the spec lists
 * end the attempts. When websockets are blocked, the caller falls back to polling.
 *
 * A browser cannot set headers on a websocket, so connection_init's payload carries them
 * (spec §7.5 "Bearer auth in connection-init headers"): the Bearer token when the visitor has
 * one, and the page load's X-Session-ID, X-Source-Page and a fresh X-Correlation-ID (§7.2).
 */
import type { Client } from 'graphql-ws';
import { reportApiFailure } from '../error-reporting/error-reporting.ts';
import { registrationStatusSubscription, type DataOf, type RegistrationStatus } from './operations.ts';
import { CORRELATION_HEADER, SESSION_HEADER, SOURCE_PAGE_HEADER, correlationId, pageLoadSessionId } from '../page/page-load.ts';

const WS_RETRY_ATTEMPTS = 5;
/** Close codes after which reconnecting cannot help. */
const TERMINAL_CLOSE_CODES = new Set([4500, 4005, 4400, 4004, 4401, 4406, 4409, 4429]);

function retryDelay(retries: number, random: () => number = Math.random): number {
  return 1000 * 2 ** retries + Math.floor(random() * 1000);
}

function shouldRetry(event: unknown): boolean {
  const code = typeof event === 'object' && event !== null && 'code' in event ? (event as { code: unknown }).code : undefined;
  return !(typeof code === 'number' && TERMINAL_CLOSE_CODES.has(code));
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
 * Calls `onStatus` for every status the server sends; `onUnavailable` once when the
 * socket cannot be used. Returns a function that stops listening.
 */
export function watchRegistrationStatus(
  memberId: string,
  { graphqlUrl, token }: WatchOptions,
  onStatus: (status: RegistrationStatus) => void,
  onUnavailable: () => void,
): () => void {
  let client: Client | undefined;
  let stopped = false;
  let unsubscribe = () => {};
  if (typeof WebSocket === 'undefined') {
    onUnavailable();
    return () => {};
  }
  void import('graphql-ws')
    .then(({ createClient }) => {
      if (stopped) return;
      client = createClient({
        url: async () => websocketUrl(await graphqlUrl()),
        connectionParams: () => connectionParams({ token: token(), sessionId: pageLoadSessionId(), sourcePage: window.location.pathname }),
        lazy: true,
        retryAttempts: WS_RETRY_ATTEMPTS,
        retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, retryDelay(retries))),
        shouldRetry,
      });
      unsubscribe = client.subscribe<DataOf<typeof registrationStatusSubscription>>(
        { query: registrationStatusSubscription.document, variables: { memberId } },
        {
          next: ({ data }) => {
            if (data?.registrationStatus) onStatus(data.registrationStatus);
          },
          error: (error: unknown) => {
            // The application-level hook for GraphQL and network errors (spec §8, ADR 013).
            const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
            reportApiFailure({ kind: 'network', operation: 'registrationStatus', ...(code ? { detail: `close code ${code}` } : {}) });
            onUnavailable();
          },
          complete: () => {},
        },
      );
    })
    .catch(() => onUnavailable());
  return () => {
    stopped = true;
    unsubscribe();
    void client?.dispose();
  };
}
