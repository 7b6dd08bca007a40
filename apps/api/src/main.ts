/**
 * Starts one role of the API's build (ADR 062), as ROLE says:
 *
 *   api     GraphQL over HTTP and its subscriptions; stateless, no background job
 *   worker  the outbox delivery, the retention and the waiting-list admission jobs; serves only
 *           /health/live and /health/ready on WORKER_PORT
 *   all     both in one process (the default: tests, `npm run dev`, a one-process install)
 *
 * `node apps/api/dist/main.js migrate` (`npm run migrate`) migrates and seeds the database, then
 * exits: a deployment's own step, run once before new instances start (MIGRATE_ON_START=false).
 *
 * Start-up: parse the environment (fails listing every bad variable), connect, migrate and seed
 * unless MIGRATE_ON_START=false, start the role. SIGTERM: /health/ready answers 503 at once, the
 * port stays open SHUTDOWN_DELAY_MS for the load balancer to notice, then closes; requests in
 * flight finish, subscriptions are closed with 1001 (clients reconnect elsewhere), an email being
 * sent is sent and marked; within SHUTDOWN_GRACE_MS the process exits 0. SIGINT skips the delay.
 */
import type { Server } from 'node:http';
import { closeHttpServer } from '@velvet/config/drain';
import { EnvError, parseEnv } from './config.ts';
import type { Env } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import type { DatabaseConnection } from './db/connect.ts';
import { migrateToLatest, pendingMigrations } from './db/migrate.ts';
import { seedAdminUser, seedDemoData } from './seed.ts';
import { createLogger } from './logger.ts';
import type { Logger } from './logger.ts';
import { OutboxWorker } from './mail/outbox-worker.ts';
import { WebhookWorker } from './webhooks/worker.ts';
import { createSharedOutboxSignal } from './mail/outbox-signal.ts';
import type { SharedOutboxSignal } from './mail/outbox-signal.ts';
import { createMailTransport } from './mail/transport.ts';
import { createApiServer } from './server.ts';
import type { ApiServer } from './server.ts';
import { createReadiness } from './http/health.ts';
import { createWorkerHealthServer } from './http/worker-health.ts';
import { startRetentionJob } from './jobs/retention.ts';
import { startAdmissionJob } from './jobs/admission.ts';
import { describeUses } from './runtime-summary.ts';

/** Exit code of a configuration refused (EnvError): scripts/start.mjs does not restart it. */
const CONFIGURATION_REFUSED = 2;
/**
 * How often a worker in its own process looks for new outbox rows when nothing can wake it
 * (no REDIS_URL): one indexed query, so a registration's email leaves within about this long.
 */
const UNSIGNALLED_POLL_MS = 250;

function readEnv(): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(CONFIGURATION_REFUSED);
    }
    throw error;
  }
}

function connect(env: Env, logger: Logger): DatabaseConnection {
  return connectDatabase(env.DATABASE_URL, {
    // As many connections as operations run at once (http/admission.ts, ADR 052).
    poolSize: env.DATABASE_POOL_SIZE,
    // A dropped connection is discarded and replaced on demand; requests meanwhile get SERVICE_UNAVAILABLE.
    onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
}

/** Migrations, then the demo data (SEED_DEMO) and the admin user (ADMIN_EMAIL): the `migrate` step. */
async function prepareDatabase(database: DatabaseConnection, env: Env, logger: Logger): Promise<void> {
  const { applied } = await migrateToLatest(database.db, { secret: env.APP_SECRET });
  logger.info({ engine: database.engine, applied }, 'database ready');
  const seed = await seedDemoData(database.db, env);
  logger.info(seed, seed.seeded ? 'demo data seeded' : 'demo data not seeded');
  const admin = await seedAdminUser(database.db, env);
  if (admin !== 'not-configured') logger.info({ admin }, 'admin user from ADMIN_EMAIL');
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

async function migrate(): Promise<void> {
  const env = readEnv();
  const logger = createLogger(env);
  const database = connect(env, logger);
  try {
    await prepareDatabase(database, env, logger);
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const env = readEnv();
  const role = env.ROLE;
  const logger = createLogger(env).child({ role });
  const database = connect(env, logger);
  if (env.MIGRATE_ON_START) {
    await prepareDatabase(database, env, logger);
  } else {
    const pending = await pendingMigrations(database.db, { secret: env.APP_SECRET });
    if (pending.length > 0) throw new Error(`the database lacks ${pending.length} migration(s) this version needs (${pending.join(', ')}): run \`npm run migrate\` first (ADR 062)`);
  }

  const readiness = createReadiness();
  const outboxSignal: SharedOutboxSignal = createSharedOutboxSignal({ redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, logger });
  let jobs: { worker: OutboxWorker; stop(): Promise<void> } | undefined;
  if (role !== 'api') {
    const transport = createMailTransport(env);
    const worker = new OutboxWorker({
      db: database.db,
      transport,
      env,
      logger: logger.child({ component: 'outbox' }),
      signal: outboxSignal,
      // Alone, the worker hears the API's writes only through Redis; without it, it looks often.
      ...(role === 'worker' && outboxSignal.store === 'memory' ? { pollIntervalMs: UNSIGNALLED_POLL_MS } : {}),
      // An email being sent when the process is asked to stop is sent and marked within the grace.
      stopWaitMs: Math.max(100, env.SHUTDOWN_GRACE_MS - 1_000),
    });
    worker.start();
    logger.info({ transport: transport.kind, signal: outboxSignal.store }, 'outbox worker started');
    // Webhooks (ADR 065): woken by the outbox's signal, since the same transactions write both.
    const webhooks = new WebhookWorker({
      db: database.db,
      secret: env.APP_SECRET,
      logger: logger.child({ component: 'webhooks' }),
      signal: outboxSignal,
      localInstance: env.localInstance,
      ...(role === 'worker' && outboxSignal.store === 'memory' ? { pollIntervalMs: UNSIGNALLED_POLL_MS } : {}),
    });
    webhooks.start();
    const retention = startRetentionJob({ db: database.db, logger: logger.child({ component: 'retention' }) });
    const admission = startAdmissionJob({ db: database.db, secret: env.APP_SECRET, logger: logger.child({ component: 'admission' }), onEmailsQueued: () => outboxSignal.notify() });
    jobs = {
      worker,
      async stop() {
        await worker.stop();
        await webhooks.stop();
        await retention.stop();
        await admission.stop();
        await transport.close();
      },
    };
  }

  let api: ApiServer | undefined;
  let healthOnly: Server | undefined;
  if (role !== 'worker') {
    api = await createApiServer({ env, db: database.db, logger, outboxSignal, readiness });
    await listen(api.server, env.API_PORT, env.HOST);
    logger.info(
      { host: env.HOST, port: env.API_PORT, rateLimitStore: api.limiters.store, eventsStore: api.events.store, nodeEnv: env.NODE_ENV },
      'API listening',
    );
  } else {
    const worker = jobs?.worker;
    healthOnly = createWorkerHealthServer({ readiness, running: () => worker?.running ?? false });
    await listen(healthOnly, env.WORKER_PORT, env.HOST);
    logger.info({ host: env.HOST, port: env.WORKER_PORT }, 'worker health endpoints listening');
  }
  const host = env.HOST === '0.0.0.0' ? 'localhost' : env.HOST;
  // Started by scripts/start.mjs: it prints one summary of every role (issue 23 §5).
  process.send?.({
    velvet: 'ready',
    role,
    url: role === 'worker' ? `http://${host}:${env.WORKER_PORT}/health/ready` : `http://${host}:${env.API_PORT}/graphql`,
    uses: describeUses(env),
  });

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals | 'disconnect') => {
    if (stopping) return;
    stopping = true;
    readiness.drain();
    // The load balancer needs a moment to see the 503 before the port closes; a person pressing Ctrl-C does not.
    const delayMs = signal === 'SIGTERM' && api ? env.SHUTDOWN_DELAY_MS : 0;
    logger.info({ signal, delayMs, graceMs: env.SHUTDOWN_GRACE_MS }, 'draining: /health/ready answers 503');
    const force = setTimeout(() => {
      logger.error('graceful shutdown timed out');
      process.exit(1);
    }, delayMs + env.SHUTDOWN_GRACE_MS);
    force.unref();
    new Promise((resolve) => setTimeout(resolve, delayMs))
      .then(() => api?.close())
      // The worker's readiness answers 503 until its emails in flight are sent and marked.
      .then(() => jobs?.stop())
      .then(() => (healthOnly ? closeHttpServer(healthOnly) : undefined))
      .then(() => outboxSignal.close())
      .then(() => database.close())
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  // Started by scripts/start.mjs with an IPC channel: if the launcher dies (even by SIGKILL),
  // stop too, rather than hold the port against the next start (ADR 026).
  if (process.send) process.on('disconnect', () => shutdown('disconnect'));
}

const command = process.argv[2];
if (command !== undefined && command !== 'migrate') {
  console.error(`Unknown command "${command}": run without one (ROLE=api|worker|all), or with "migrate".`);
  process.exit(CONFIGURATION_REFUSED);
}
(command === 'migrate' ? migrate().then(() => process.exit(0)) : main()).catch((error: unknown) => {
  console.error(`API ${command === 'migrate' ? 'migration' : 'start'} failed:`, error instanceof Error ? error.message : error);
  process.exit(1);
});
