/**
 * Live registration status over graphql-ws (spec §7.5, §9): lazy connection, up to five
 * retries with exponential back-off from 1 s plus jitter; the close codes the spec lists
 * end the attempts. When websockets are blocked, the caller falls back to polling.
 */
import type { Client } from 'graphql-ws';
import { reportApiFailure } from './error-reporting.ts';
import { REGISTRATION_STATUS_SUBSCRIPTION, type RegistrationStatus } from './operations.ts';

export const WS_RETRY_ATTEMPTS = 5;
/** Close codes after which reconnecting cannot help. */
export const TERMINAL_CLOSE_CODES = new Set([4500, 4005, 4400, 4004, 4401, 4406, 4409, 4429]);

export function retryDelay(retries: number, random: () => number = Math.random): number {
  return 1000 * 2 ** retries + Math.floor(random() * 1000);
}

export function shouldRetry(event: unknown): boolean {
  const code = typeof event === 'object' && event !== null && 'code' in event ? (event as { code: unknown }).code : undefined;
  return !(typeof code === 'number' && TERMINAL_CLOSE_CODES.has(code));
}

export function websocketUrl(graphqlUrl: string): string {
  const url = new URL(graphqlUrl, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Calls `onStatus` for every status the server sends; `onUnavailable` once when the
 * socket cannot be used. Returns a function that stops listening.
 */
export function watchRegistrationStatus(
  graphqlUrl: string,
  registrationId: string,
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
        url: websocketUrl(graphqlUrl),
        lazy: true,
        retryAttempts: WS_RETRY_ATTEMPTS,
        retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, retryDelay(retries))),
        shouldRetry,
      });
      unsubscribe = client.subscribe<{ registrationStatus: RegistrationStatus }>(
        { query: REGISTRATION_STATUS_SUBSCRIPTION, variables: { registrationId } },
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
