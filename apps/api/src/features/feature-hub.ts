/**
 * The features payload of this API instance and its live updates (ADR 012). The payload
 * is read from the database once and kept; every REALTIME_INTERVAL_MS the instance reads
 * the revision row (one primary-key read) and reloads when it moved. With REDIS_URL a
 * change made anywhere (another instance, the CLI) is also announced on a pub/sub channel,
 * so every instance reloads at once instead of on its next check.
 */
import { REALTIME_INTERVAL_MS } from '@velvet/features/constants';
import type { FeaturePayload } from '@velvet/features/definitions';
import type { LoadedFeatureFile } from '@velvet/features/file';
import { Redis } from 'ioredis';
import type { Db } from '../db/connect.ts';
import { DEFAULT_REDIS_PREFIX, closeRedis } from '../lib/redis.ts';
import type { Logger } from '../logger.ts';
import { readFeatureState, readRevision } from './overrides.ts';

/** The channel of feature-change announcements: `<REDIS_PREFIX>features`. */
export function featuresChannel(prefix: string = DEFAULT_REDIS_PREFIX): string {
  return `${prefix}features`;
}

type FeatureListener = (payload: FeaturePayload) => void;

export interface FeatureHub {
  readonly store: 'redis' | 'memory';
  /** The payload in force (read from the database on first use). */
  payload(): Promise<FeaturePayload>;
  /** Called with every new payload; returns the unsubscribe function. */
  subscribe(listener: FeatureListener): () => void;
  /** Reads the revision and, when it moved, reloads and tells the listeners. */
  check(): Promise<void>;
  /** Resolves once changes announced by other processes are received (immediately in memory). */
  ready(): Promise<void>;
  readonly listenerCount: number;
  close(): Promise<void>;
}

export interface FeatureHubOptions {
  db: Db;
  file: LoadedFeatureFile;
  redisUrl?: string | undefined;
  /** REDIS_PREFIX: the channel is `<prefix>features`. */
  prefix?: string;
  /** Redis channel (tests use their own); overrides prefix. */
  channel?: string;
  intervalMs?: number;
  logger?: Logger;
}

export function createFeatureHub(options: FeatureHubOptions): FeatureHub {
  const { db, file, logger } = options;
  const listeners = new Set<FeatureListener>();
  let current: { payload: FeaturePayload; revision: number } | undefined;
  let loading: Promise<{ payload: FeaturePayload; revision: number }> | undefined;
  let closed = false;

  const load = () => {
    loading ??= readFeatureState(db, file)
      .then(({ payload, revision }) => {
        const previous = current;
        current = { payload, revision };
        if (previous && previous.revision !== revision) {
          for (const listener of listeners) {
            try {
              listener(payload);
            } catch (error) {
              logger?.warn({ err: error }, 'features: a listener failed');
            }
          }
        }
        return current;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };

  const check = async () => {
    if (closed) return;
    if (!current) {
      await load();
      return;
    }
    const { revision } = await readRevision(db);
    if (revision !== current.revision) await load();
  };

  const timer = setInterval(() => {
    check().catch((error: unknown) => logger?.warn({ err: error }, 'features: revision check failed'));
  }, options.intervalMs ?? REALTIME_INTERVAL_MS);
  timer.unref();

  let subscriber: Redis | undefined;
  let subscribed: Promise<void> = Promise.resolve();
  if (options.redisUrl) {
    const channel = options.channel ?? featuresChannel(options.prefix);
    subscriber = new Redis(options.redisUrl);
    subscriber.on('error', (error: Error) => logger?.warn({ err: error }, 'features: Redis subscriber error'));
    subscriber.on('message', (received: string) => {
      if (received !== channel) return;
      check().catch((error: unknown) => logger?.warn({ err: error }, 'features: reload after a change announcement failed'));
    });
    subscribed = subscriber.subscribe(channel).then(() => undefined);
    subscribed.catch(() => undefined);
  }

  return {
    store: subscriber ? 'redis' : 'memory',
    async payload() {
      return (current ?? (await load())).payload;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    check,
    ready: () => subscribed,
    get listenerCount() {
      return listeners.size;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      listeners.clear();
      if (subscriber) await closeRedis(subscriber);
    },
  };
}

/**
 * Tells every API instance that a feature changed (the CLI after its commit). Without
 * Redis there is nobody to tell: instances notice on their next revision check.
 */
export async function announceFeatureChange(redisUrl: string | undefined, channel = featuresChannel()): Promise<'announced' | 'no-redis'> {
  if (!redisUrl) return 'no-redis';
  const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  publisher.on('error', () => undefined);
  try {
    await publisher.connect();
    await publisher.publish(channel, JSON.stringify({ changedAt: new Date().toISOString() }));
    return 'announced';
  } finally {
    await closeRedis(publisher);
  }
}
