/**
 * Redis connections of the API (rate limits, registration events, feature announcements):
 * every key and channel starts with REDIS_PREFIX, so two deployments can share a Redis,
 * and closing never waits for a Redis that is down (docs/decisions/027).
 */
import type { Redis } from 'ioredis';

/** The prefix when none is configured (REDIS_PREFIX's default). */
export const DEFAULT_REDIS_PREFIX = 'velvet:';

/** How long a polite QUIT may take before the connection is simply dropped. */
const QUIT_TIMEOUT_MS = 1_000;

/**
 * Ends a connection without waiting for Redis: QUIT when it is connected (bounded by
 * `timeoutMs`), otherwise — connecting, reconnecting, Redis down — disconnect() at once,
 * which also stops ioredis's endless reconnection (a QUIT would sit in the offline queue).
 */
export async function closeRedis(client: Redis, timeoutMs = QUIT_TIMEOUT_MS): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  const outcome = await Promise.race([client.quit().then(() => 'quit' as const, () => 'failed' as const), timedOut]);
  clearTimeout(timer);
  if (outcome !== 'quit') client.disconnect();
}
