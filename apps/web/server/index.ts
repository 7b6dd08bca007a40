/**
 * The web server's entry, and the input of React Router's server build (ADR 053, as React
 * Router's node-custom-server template): the Express app, the routes and everything they
 * import are one module graph, bundled by Vite into build/server/index.js. `server.js` starts
 * it — the production build as it is, or this file through Vite in development.
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { closeHttpServer } from '@velvet/config/drain';
import { EnvError, parseEnv } from '@velvet/config/env';
import pino from 'pino';
import type { ServerBuild } from 'react-router';
import type { ViteDevServer } from 'vite';
import { createWebApp } from './app.ts';
import { cmpBuildDir } from './entrance.ts';

/** React Router's server build: the routes, compiled into this bundle (in development, reloaded by Vite as they change). */
const serverBuild = () => import('virtual:react-router/server-build') as Promise<ServerBuild>;

interface StartOptions {
  /** apps/web: where build/ and the consent script's build are. */
  root: string;
  /** Development: Vite in middleware mode, serving the browser's modules with hot reload. */
  vite?: ViteDevServer;
}

/** @public Called by server.js, which imports the build (or this file through Vite). */
export async function start({ root, vite }: StartOptions): Promise<void> {
  try {
    await listen(root, vite);
  } catch (error) {
    // 2 says "configuration refused", which scripts/start.mjs does not restart (ADR 026).
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(error instanceof EnvError ? 2 : 1);
  }
}

async function listen(root: string, vite: ViteDevServer | undefined) {
  const env = parseEnv();
  const logger = pino({ level: env.LOG_LEVEL, base: { service: 'web' }, timestamp: pino.stdTimeFunctions.isoTime });
  let cmpDir = cmpBuildDir(root);
  if (vite && env.CMP_ENABLED) {
    // The consent script is its own small build (ADR 011); made once at start, beside (never
    // over) a production build's build/cmp that `npm start` or the e2e suite may be serving.
    cmpDir = path.join(root, 'node_modules/.cache/velvet-dev/cmp');
    const { build } = await import('vite');
    await build({ configFile: path.join(root, 'vite.cmp.config.ts'), root, logLevel: 'warn', build: { outDir: cmpDir } });
  }
  let draining = false;
  const app = createWebApp({
    env,
    logger,
    readiness: {
      get draining() {
        return draining;
      },
    },
    ...(vite ? { build: serverBuild, before: vite.middlewares } : { build: await serverBuild(), clientDir: path.join(root, 'build/client') }),
    cmpDir,
  });
  const server = createServer(app).listen(env.PORT, env.HOST, () => {
    const url = `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`;
    logger.info({ url }, vite ? 'web server listening (development: Vite, hot reload)' : 'web server listening');
    // Started by scripts/start.mjs: it prints one summary of every role (issue 23 §5).
    process.send?.({ velvet: 'ready', role: 'web', url });
  });
  /**
   * SIGTERM (ADR 062): /health/ready answers 503 at once; the port stays open SHUTDOWN_DELAY_MS for
   * the load balancer to notice, then closes; requests in flight finish; exit 0 within
   * SHUTDOWN_GRACE_MS. SIGINT (Ctrl-C) and a vanished launcher skip the delay.
   */
  const stop = (signal: 'SIGTERM' | 'SIGINT' | 'disconnect') => {
    if (draining) return;
    draining = true;
    const delayMs = signal === 'SIGTERM' ? env.SHUTDOWN_DELAY_MS : 0;
    logger.info({ signal, delayMs, graceMs: env.SHUTDOWN_GRACE_MS }, 'draining: /health/ready answers 503');
    setTimeout(() => {
      logger.error('graceful shutdown timed out');
      process.exit(1);
    }, delayMs + env.SHUTDOWN_GRACE_MS).unref();
    setTimeout(() => {
      app.closeStreams();
      void vite?.close();
      closeHttpServer(server).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }, delayMs);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // Started by scripts/start.mjs with an IPC channel: stop with the supervisor, even if it was killed (ADR 026).
  if (process.send) process.once('disconnect', () => stop('disconnect'));
}
