/**
 * The API server: GraphQL Yoga over HTTP at /graphql, graphql-ws (graphql-transport-ws)
 * on the same path for subscriptions, and GET /health, /health/live, /health/ready (ADR 062).
 */
import { createServer } from 'node:http';
import { closeHttpServer } from '@velvet/config/drain';
import type { Server } from 'node:http';
import { loadFeatureFile } from '@velvet/features/file';
import { apiSettings } from './config.ts';
import type { Env } from './config.ts';
import type { Db } from './db/connect.ts';
import { createRequestLog } from './dev-request-log.ts';
import { createFeatureHub } from './features/feature-hub.ts';
import type { FeatureHub } from './features/feature-hub.ts';
import { createFeaturesEndpoint } from './features/features-endpoint.ts';
import { refuseUnusableSiteHeaders } from './http/site-headers.ts';
import { attachWebSockets } from './http/websockets.ts';
import { createYogaApp } from './http/yoga.ts';
import type { Readiness } from './http/health.ts';
import type { ApiYoga } from './http/yoga.ts';
import type { Logger } from './logger.ts';
import type { OutboxSignal } from './mail/outbox-signal.ts';
import { createRateLimiters } from './rate-limit.ts';
import type { RateLimiters } from './rate-limit.ts';
import { createRegistrationEvents } from './domain/registration-events.ts';
import type { RegistrationEvents } from './domain/registration-events.ts';

export interface CreateApiServerOptions {
  env: Env;
  db: Db;
  logger: Logger;
  /** Defaults to createRateLimiters(env); the server closes limiters it created itself. */
  limiters?: RateLimiters;
  /** Defaults to createRegistrationEvents (Redis with REDIS_URL); closed by the server when it created them. */
  events?: RegistrationEvents;
  /** The signal the process's outbox worker listens to. */
  outboxSignal?: OutboxSignal;
  /** Defaults to a hub over the versioned features file and the database (Redis with REDIS_URL); closed by the server when it created it. */
  features?: FeatureHub;
  /** /health/ready answers 503 once this drains (ADR 062). */
  readiness?: Readiness;
}

export interface ApiServer {
  /** The node:http server (not listening yet). */
  server: Server;
  /** The Yoga instance; `yoga.fetch(url, init, serverContext)` serves a request without a port. */
  yoga: ApiYoga;
  limiters: RateLimiters;
  events: RegistrationEvents;
  features: FeatureHub;
  /** Stops accepting connections, ends WebSocket clients and closes what the server created. */
  close(): Promise<void>;
}

export async function createApiServer(options: CreateApiServerOptions): Promise<ApiServer> {
  const { env, db, logger } = options;
  const settings = apiSettings(env);
  const ownLimiters = !options.limiters;
  const limiters = options.limiters ?? createRateLimiters(env);
  const ownEvents = !options.events;
  const events = options.events ?? createRegistrationEvents({ redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, logger });
  const ownFeatures = !options.features;
  const features = options.features ?? createFeatureHub({ db, file: loadFeatureFile(), redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, logger });
  const featuresEndpoint = createFeaturesEndpoint({ hub: features, clientKey: env.FEATURES_CLIENT_KEY, logger });
  const requestLog = settings.localAids ? createRequestLog() : undefined;
  const yoga = await createYogaApp({ env, db, logger, limiters, events, outboxSignal: options.outboxSignal, settings, features: featuresEndpoint, requestLog, readiness: options.readiness });
  const handler = refuseUnusableSiteHeaders(yoga);
  const readiness = options.readiness;
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000 }, (request, response) => {
    // Draining (ADR 062): each answer closes its connection, so a keep-alive client's next request opens one to another instance.
    if (readiness?.draining) response.setHeader('connection', 'close');
    return handler(request, response);
  });
  const sockets = attachWebSockets(server, yoga, env, logger, settings.maxBodyBytes, requestLog);

  return {
    server,
    yoga,
    limiters,
    events,
    features,
    async close() {
      featuresEndpoint.closeStreams();
      await sockets.close();
      await closeHttpServer(server);
      if (ownLimiters) await limiters.close();
      if (ownEvents) await events.close();
      if (ownFeatures) await features.close();
    },
  };
}
