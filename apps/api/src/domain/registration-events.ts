/**
 * Registration state changes for Subscription.registrationStatus. With REDIS_URL the
 * events travel through Redis pub/sub (a dedicated subscriber connection), so a browser
 * subscribed on one API instance hears an activation handled by another; without it they
 * stay in the process.
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { createAsyncQueue } from '../lib/async-queue.ts';
import { DEFAULT_REDIS_PREFIX, closeRedis } from '../lib/redis.ts';
import type { Logger } from '../logger.ts';

type RegistrationState = 'PENDING' | 'ACTIVE';

export interface RegistrationStatusEvent {
  memberId: string;
  state: RegistrationState;
}

export interface RegistrationEvents {
  readonly store: 'redis' | 'memory';
  /** Delivers `event` to every subscriber of its registration id, on every instance. */
  publish(event: RegistrationStatusEvent): Promise<void>;
  /** Events for one registration from now on; the listener is in place when this returns. */
  subscribe(memberId: string): AsyncIterableIterator<RegistrationStatusEvent>;
  /** Resolves once events from other instances are received (immediately in memory). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface RegistrationEventsOptions {
  redisUrl?: string | undefined;
  /** REDIS_PREFIX: the channel is `<prefix>registration-status`. */
  prefix?: string;
  /** Redis channel (tests use their own so parallel files do not hear each other); overrides prefix. */
  channel?: string;
  logger?: Logger;
}

const STATES: ReadonlySet<string> = new Set<RegistrationState>(['PENDING', 'ACTIVE']);

function parseEvent(message: string): RegistrationStatusEvent | null {
  try {
    const value: unknown = JSON.parse(message);
    if (typeof value !== 'object' || value === null) return null;
    const { memberId, state } = value as Record<string, unknown>;
    if (typeof memberId !== 'string' || typeof state !== 'string' || !STATES.has(state)) return null;
    return { memberId, state: state as RegistrationState };
  } catch {
    return null;
  }
}

export function createRegistrationEvents(options: RegistrationEventsOptions = {}): RegistrationEvents {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const emit = (event: RegistrationStatusEvent) => local.emit(event.memberId, event);
  const subscribe = (memberId: string) => {
    const listener = (event: RegistrationStatusEvent) => queue.push(event);
    const queue = createAsyncQueue<RegistrationStatusEvent>(() => local.off(memberId, listener));
    local.on(memberId, listener);
    return queue;
  };

  if (!options.redisUrl) {
    return {
      store: 'memory',
      publish: async (event) => {
        emit(event);
      },
      subscribe,
      ready: async () => undefined,
      close: async () => {
        local.removeAllListeners();
      },
    };
  }

  const channel = options.channel ?? `${options.prefix ?? DEFAULT_REDIS_PREFIX}registration-status`;
  const logger = options.logger;
  const publisher = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  const subscriber = new Redis(options.redisUrl);
  publisher.on('error', () => undefined);
  subscriber.on('error', (error: Error) => logger?.warn({ err: error }, 'registration events: Redis subscriber error'));
  subscriber.on('message', (received: string, message: string) => {
    if (received !== channel) return;
    const event = parseEvent(message);
    if (event) emit(event);
  });
  // ioredis re-subscribes by itself after a reconnect.
  const subscribed = subscriber.subscribe(channel).then(() => undefined);
  subscribed.catch(() => undefined);

  return {
    store: 'redis',
    async publish(event) {
      try {
        await publisher.publish(channel, JSON.stringify(event));
      } catch (error) {
        // Redis is down: at least the subscribers of this instance hear it; the others
        // fall back to Query.registrationStatus (the web polls it when the socket is quiet).
        logger?.warn({ err: error }, 'registration events: Redis publish failed, delivered in-process only');
        emit(event);
      }
    },
    subscribe,
    ready: () => subscribed,
    async close() {
      local.removeAllListeners();
      await Promise.all([publisher, subscriber].map((client) => closeRedis(client)));
    },
  };
}
