#!/usr/bin/env node
/**
 * The reference topology (deploy/, ADR 064) on this machine's loopback, from the build: nginx →
 * HAProxy → web ×N, browsers → HAProxy → API ×N → PgBouncer → PostgreSQL, one worker on a direct
 * connection, a Redis of its own. Used by tests/runtime/cluster.test.ts and the bench's cluster
 * section; run it to try the topology (Ctrl-C stops everything):
 *
 *   SMTP_URL=smtp://127.0.0.1:2526 node scripts/cluster.mjs
 *
 * Needs `npm run build`, PostgreSQL (TEST_DATABASE_URL's server, a database of its own is
 * created and dropped) and Debian's nginx, haproxy, pgbouncer and redis-server.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startHaproxy, startNginx, startPgbouncer, startRedis } from './engines.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A port nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns true, or fails after `ms`. */
async function until(what, check, ms = 90_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs `node <args>` from the repository root; its output is kept for a failure report.
 * @param {string[]} args
 * @param {Record<string, string>} env
 */
function node(args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  /** @type {Promise<number | null>} */
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/**
 * Starts the topology. `env`: more environment for every instance (SMTP_URL, rate limits…);
 * `onStop`: given the function that stops whatever was started, at once (a caller that gives up
 * waiting can still clean up).
 * @param {{ webs?: number, apis?: number, env?: Record<string, string>, databaseUrl?: string, onStop?: (stop: () => Promise<void>) => void }} [options]
 */
export async function startCluster({ webs = 2, apis = 2, env = {}, databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', onStop } = {}) {
  const database = `velvet_cluster_${randomBytes(4).toString('hex')}`;
  const admin = new URL(databaseUrl);
  const direct = new URL(databaseUrl);
  direct.pathname = `/${database}`;
  /** @type {(() => Promise<unknown>)[]} */
  const cleanups = [];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  onStop?.(stop);
  const adminClient = new pg.Client({ connectionString: databaseUrl });
  await adminClient.connect();
  await adminClient.query(`create database ${database}`);
  await adminClient.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  });
  try {
    const port = () => freePort();
    const [nginxPort, webLb, apiLb, apiInternal, workerPort, redisPort, pgbouncerPort] = [await port(), await port(), await port(), await port(), await port(), await port(), await port()];
    const webPorts = [];
    for (let i = 0; i < webs; i++) webPorts.push(await port());
    const apiPorts = [];
    for (let i = 0; i < apis; i++) apiPorts.push(await port());

    const redis = await startRedis({ port: redisPort });
    cleanups.push(() => redis.stop());
    const pgbouncer = await startPgbouncer({ listen: `127.0.0.1:${pgbouncerPort}`, postgres: `${admin.hostname}:${admin.port || 5432}` });
    cleanups.push(() => pgbouncer.stop());

    const front = `http://127.0.0.1:${nginxPort}`;
    const apiUrl = `http://127.0.0.1:${apiLb}`;
    const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'velvet-cluster-'));
    const common = {
      APP_SECRET: randomBytes(36).toString('base64url'),
      PUBLIC_URL: front,
      PUBLIC_API_URL: apiUrl,
      REDIS_URL: redis.url,
      TRUST_PROXY: '1',
      MIGRATE_ON_START: 'false',
      // HAProxy asks every second and takes an instance out after two 503s: drain a little longer.
      SHUTDOWN_DELAY_MS: '2500',
      SHUTDOWN_GRACE_MS: '10000',
      NODE_ENV: 'production',
      ...env,
    };
    const migrate = node(['apps/api/dist/main.js', 'migrate'], { ...common, DATABASE_URL: direct.toString(), DATA_DIR: dataDir() });
    if ((await migrate.exited) !== 0) throw new Error(`npm run migrate failed:\n${migrate.output()}`);

    /** @type {Map<string, { args: string[], env: Record<string, string>, ready: string, process?: ReturnType<typeof node> }>} */
    const instances = new Map();
    apiPorts.forEach((p, i) =>
      instances.set(`api${i + 1}`, {
        args: ['apps/api/dist/main.js'],
        env: { ...common, ROLE: 'api', API_PORT: String(p), DATABASE_URL: pgbouncer.url(database), DATA_DIR: dataDir() },
        ready: `http://127.0.0.1:${p}/health/ready`,
      }),
    );
    instances.set('worker', {
      args: ['apps/api/dist/main.js'],
      env: { ...common, ROLE: 'worker', WORKER_PORT: String(workerPort), DATABASE_URL: direct.toString(), DATA_DIR: dataDir() },
      ready: `http://127.0.0.1:${workerPort}/health/ready`,
    });
    webPorts.forEach((p, i) =>
      instances.set(`web${i + 1}`, {
        args: ['apps/web/server.js'],
        env: { ...common, PORT: String(p), API_URL: `http://127.0.0.1:${apiInternal}`, DATA_DIR: dataDir() },
        ready: `http://127.0.0.1:${p}/health/ready`,
      }),
    );
    cleanups.push(async () => {
      for (const instance of instances.values()) {
        const running = instance.process;
        if (running && running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
        await running?.exited;
      }
    });

    const get = (/** @type {string} */ name) => {
      const instance = instances.get(name);
      if (!instance) throw new Error(`no instance ${name}`);
      return instance;
    };
    /** Starts (or starts again) an instance; resolves once it is ready. */
    const launch = async (/** @type {string} */ name) => {
      const instance = get(name);
      instance.process = node(instance.args, instance.env);
      const started = instance.process;
      await until(`${name} ready`, async () => {
        if (started.child.exitCode !== null) throw new Error(`${name} exited:\n${started.output()}`);
        return (await fetch(instance.ready, { signal: AbortSignal.timeout(2_000) })).ok;
      });
    };
    await Promise.all([...instances.keys()].map(launch));

    const haproxy = await startHaproxy({
      webListen: `127.0.0.1:${webLb}`,
      apiListen: `127.0.0.1:${apiLb}`,
      apiInternalListen: `127.0.0.1:${apiInternal}`,
      webOrigins: webPorts.map((p) => `127.0.0.1:${p}`),
      apiOrigins: apiPorts.map((p) => `127.0.0.1:${p}`),
    });
    cleanups.push(() => haproxy.stop());
    const nginx = await startNginx({ listen: `127.0.0.1:${nginxPort}`, origin: `127.0.0.1:${webLb}`, workers: 1 });
    cleanups.push(() => nginx.stop());

    /** HAProxy's own view of an instance: UP, DOWN, MAINT… (its stats socket). */
    const haproxyState = (/** @type {string} */ name) =>
      new Promise((resolve, reject) => {
        const socket = createConnection(path.join(haproxy.stateDir, 'haproxy.sock'));
        let csv = '';
        socket.on('data', (chunk) => (csv += chunk.toString()));
        socket.on('error', reject);
        socket.on('end', () => {
          const backend = name.replace(/\d+$/, '');
          resolve(
            csv
              .split('\n')
              .map((line) => line.split(','))
              .find((fields) => fields[0] === backend && fields[1] === name)?.[17],
          );
        });
        socket.write('show stat\n');
      });
    /** Resolves once HAProxy sends traffic to the instance. */
    const inRotation = (/** @type {string} */ name) => until(`${name} in HAProxy's rotation`, async () => String(await haproxyState(name)).startsWith('UP'), 30_000);
    await Promise.all([...instances.keys()].filter((name) => name !== 'worker').map(inRotation));

    return {
      front,
      apiUrl,
      /** The database, directly (the worker's and the migrations' connection). */
      databaseUrl: direct.toString(),
      env: common,
      redis,
      pgbouncer,
      haproxy,
      nginx,
      names: () => [...instances.keys()],
      process: (/** @type {string} */ name) => get(name).process,
      launch,
      inRotation,
      /** SIGTERM: resolves with the exit code once the instance has drained and ended. */
      terminate: async (/** @type {string} */ name) => {
        const running = get(name).process;
        running?.child.kill('SIGTERM');
        return running?.exited;
      },
      /** SIGKILL, at once. */
      kill: async (/** @type {string} */ name) => {
        const running = get(name).process;
        running?.child.kill('SIGKILL');
        await running?.exited;
      },
      /** Runs the admin CLI against the cluster's database. */
      cli: async (/** @type {string[]} */ args) => {
        const cli = node(['apps/api/dist/cli.js', ...args], { ...common, DATABASE_URL: direct.toString(), DATA_DIR: dataDir() });
        if ((await cli.exited) !== 0) throw new Error(`cli ${args.join(' ')} failed:\n${cli.output()}`);
        return cli.output();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cluster = await startCluster({ env: process.env.SMTP_URL ? { SMTP_URL: process.env.SMTP_URL } : {} });
  console.log(`The cluster: ${cluster.front} (web through the cache), ${cluster.apiUrl} (the API); instances ${cluster.names().join(', ')}. Ctrl-C stops it.`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cluster.stop().then(() => process.exit(0)));
}
