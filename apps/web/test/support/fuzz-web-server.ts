/**
 * The web server as a child process for the fuzz suite (apps/web/test/fuzz.test.ts): the
 * Express app of server/app.ts and the React Router app, both loaded by Vite in middleware mode
 * (one module graph, as in the build), so no build is needed. Prints one JSON line
 * {"ready":true,"port":…}; with --expose-gc, SIGUSR2 prints the memory in use after a collection.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from '@velvet/config/env';
import pino from 'pino';
import type { ServerBuild } from 'react-router';
import { createServer } from 'vite';
import type * as AppModule from '../../server/app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const env = parseEnv();
const logger = pino({ level: env.LOG_LEVEL, base: { service: 'web' } });
const vite = await createServer({
  root,
  configFile: path.join(root, 'vite.config.ts'),
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  appType: 'custom',
  logLevel: 'error',
});
const build = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
await build();
// The app through Vite as well: the server and the routes in one module graph, as in the build (ADR 053).
const { createWebApp } = (await vite.ssrLoadModule('/server/app.ts')) as typeof AppModule;
const app = createWebApp({ env, logger, build, before: vite.middlewares });
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ ready: true, port: (server.address() as AddressInfo).port })}\n`);
});

process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ memory: { rss, heapUsed } })}\n`);
});
process.once('SIGTERM', () => {
  app.closeStreams();
  server.closeAllConnections();
  server.close(() => void vite.close().then(() => process.exit(0)));
});
