/**
 * The web server in development (`npm run dev`, ADR 026): the same Express app as in
 * production, with Vite in middleware mode in front of it. Pages, components and styles reload
 * in the browser as they change (HMR); every request renders with the current modules, loaded
 * through Vite (`virtual:react-router/server-build`).
 *
 * React Router is one copy: Vite's SSR loads `react-router` from node_modules (an external,
 * not a pre-bundled copy) and the load context is made by the build's own entry module
 * (`createLoadContext`), so the context keys the server sets are the ones the routes read;
 * two copies are what makes "Invalid context value" (ADR 026).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvError, parseEnv } from '@velvet/config/env';
import pino from 'pino';
import type { ServerBuild } from 'react-router';
import { build as viteBuild, createServer } from 'vite';
import { createWebApp } from './app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const env = parseEnv();
  const logger = pino({ level: env.LOG_LEVEL, base: { service: 'web' }, timestamp: pino.stdTimeFunctions.isoTime });
  // The consent script is its own small build (ADR 011); made once at start, beside (never
  // over) a production build's build/cmp that `npm start` or the e2e suite may be serving.
  const cmpDir = path.join(root, 'node_modules/.cache/velvet-dev/cmp');
  if (env.CMP_ENABLED) await viteBuild({ configFile: path.join(root, 'vite.cmp.config.ts'), root, logLevel: 'warn', build: { outDir: cmpDir } });
  const vite = await createServer({ root, configFile: path.join(root, 'vite.config.ts'), server: { middlewareMode: true }, appType: 'custom' });
  const app = createWebApp({
    env,
    logger,
    build: () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
    before: vite.middlewares,
    cmpDir,
  });
  const server = app.listen(env.PORT, env.HOST, () => {
    logger.info({ url: `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}` }, 'web server listening (development: Vite, hot reload)');
  });
  const stop = () => {
    app.closeStreams();
    void vite.close();
    server.close(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(error instanceof EnvError ? 2 : 1);
});
