/**
 * Tells the outbox worker that a row was written, so it sends at once instead of at its next poll.
 * In one process (ROLE=all) an EventEmitter is enough. With the worker in a process of its own
 * (ROLE=api and ROLE=worker, ADR 062) the signal crosses processes through Redis pub/sub when
 * REDIS_URL is set; without Redis the worker polls often instead (OutboxWorker pollIntervalMs).
 * A lost signal costs at most one poll: the rows are in the database either way.
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { DEFAULT_REDIS_PREFIX, closeRedis } from '../lib/redis.ts';
import type { Logger } from '../logger.ts';

export interface OutboxSignal {
  notify(): void;
  /** Calls `listener` on every notify; returns the unsubscribe function. */
  listen(listener: () => void): () => void;
}

export interface SharedOutboxSignal extends OutboxSignal {
  /** `redis`: notifies reach the worker in every process; `memory`: this process's only. */
  readonly store: 'redis' | 'memory';
  close(): Promise<void>;
}

function localSignal(): OutboxSignal & { emitter: EventEmitter } {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emitter,
    notify: () => {
      emitter.emit('written');
    },
    listen(listener) {
      emitter.on('written', listener);
      return () => emitter.off('written', listener);
    },
  };
}

export function createOutboxSignal(): OutboxSignal {
  const { notify, listen } = localSignal();
  return { notify, listen };
}

/**
 * The process's signal: through Redis (channel `<REDIS_PREFIX>outbox-written`) with `redisUrl`, so
 * an API process wakes the worker process; in memory without it. `listen` subscribes only when a
 * worker listens (an API process opens one connection, to publish).
 */
export function createSharedOutboxSignal(options: { redisUrl?: string | undefined; prefix?: string; logger?: Logger }): SharedOutboxSignal {
  const local = localSignal();
  if (!options.redisUrl) return { store: 'memory', notify: local.notify, listen: local.listen, close: async () => void local.emitter.removeAllListeners() };
  const redisUrl = options.redisUrl;
  const channel = `${options.prefix ?? DEFAULT_REDIS_PREFIX}outbox-written`;
  const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  publisher.on('error', () => undefined);
  let subscriber: Redis | undefined;
  return {
    store: 'redis',
    notify() {
      publisher.publish(channel, '1').catch((error: unknown) => {
        // Redis is down: a worker in this process still hears it; the others find the row at their next poll.
        options.logger?.warn({ err: error }, 'outbox signal: Redis publish failed');
        local.notify();
      });
    },
    listen(listener) {
      if (!subscriber) {
        const opened = new Redis(redisUrl);
        opened.on('error', (error: Error) => options.logger?.warn({ err: error }, 'outbox signal: Redis subscriber error'));
        opened.on('message', (received: string) => {
          if (received === channel) local.notify();
        });
        // ioredis subscribes again by itself after a reconnect.
        opened.subscribe(channel).catch(() => undefined);
        subscriber = opened;
      }
      return local.listen(listener);
    },
    async close() {
      local.emitter.removeAllListeners();
      await Promise.all([publisher, subscriber].flatMap((client) => (client ? [closeRedis(client)] : [])));
    },
  };
}
