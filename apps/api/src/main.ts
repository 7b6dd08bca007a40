/**
 * Starts the API: parse the environment (start-up fails listing every bad variable),
 * connect, migrate, seed demo data when allowed, listen; shut down cleanly on SIGTERM/SIGINT.
 */
import { EnvError, parseEnv } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedAdminUser, seedDemoData } from './seed.ts';
import { createLogger } from './logger.ts';
import { OutboxWorker } from './mail/outbox-worker.ts';
import { createOutboxSignal } from './mail/outbox-signal.ts';
import { createMailTransport } from './mail/transport.ts';
import { createApiServer } from './server.ts';
import { startRetentionJob } from './jobs/retention.ts';
import { startAdmissionJob } from './jobs/admission.ts';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(env);
  const database = connectDatabase(env.DATABASE_URL, {
    // As many connections as operations run at once (http/admission.ts, ADR 052).
    poolSize: env.DATABASE_POOL_SIZE,
    // A dropped connection is discarded and replaced on demand; requests meanwhile get SERVICE_UNAVAILABLE.
    onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
  const { applied } = await migrateToLatest(database.db, { secret: env.APP_SECRET });
  logger.info({ engine: database.engine, applied }, 'database ready');
  const seed = await seedDemoData(database.db, env);
  logger.info(seed, seed.seeded ? 'demo data seeded' : 'demo data not seeded');
  const admin = await seedAdminUser(database.db, env);
  if (admin !== 'not-configured') logger.info({ admin }, 'admin user from ADMIN_EMAIL');

  const outboxSignal = createOutboxSignal();
  const transport = createMailTransport(env);
  const worker = new OutboxWorker({ db: database.db, transport, env, logger: logger.child({ component: 'outbox' }), signal: outboxSignal });
  worker.start();
  logger.info({ transport: transport.kind }, 'outbox worker started');
  const retention = startRetentionJob({ db: database.db, logger: logger.child({ component: 'retention' }) });
  const admission = startAdmissionJob({ db: database.db, secret: env.APP_SECRET, logger: logger.child({ component: 'admission' }), onEmailsQueued: () => outboxSignal.notify() });

  const api = await createApiServer({ env, db: database.db, logger, outboxSignal });
  await new Promise<void>((resolve, reject) => {
    api.server.once('error', reject);
    api.server.listen(env.API_PORT, env.HOST, () => resolve());
  });
  logger.info(
    {
      host: env.HOST,
      port: env.API_PORT,
      rateLimitStore: api.limiters.store,
      eventsStore: api.events.store,
      nodeEnv: env.NODE_ENV,
    },
    'API listening',
  );

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('graceful shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    api
      .close()
      .then(() => worker.stop())
      .then(() => retention.stop())
      .then(() => admission.stop())
      .then(() => transport.close())
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
  // Started by scripts/start.mjs with an IPC channel: if the supervisor dies (even by SIGKILL),
  // stop too, rather than hold the port against the next start (ADR 026).
  if (process.send) process.on('disconnect', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('API failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
