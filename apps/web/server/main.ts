/**
 * Starts the web server on the production build (`npm run build` first). Compiled to
 * apps/web/dist/server.js by scripts/build-servers.mjs; `npm start` runs that (ADR 026).
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvError, parseEnv } from '@velvet/config/env';
import pino from 'pino';
import type { ServerBuild } from 'react-router';
import { createWebApp } from './app.ts';
import { cmpBuildDir } from './entrance.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

async function main() {
  const env = parseEnv();
  const logger = pino({ level: env.LOG_LEVEL, base: { service: 'web' }, timestamp: pino.stdTimeFunctions.isoTime });
  const build = (await import(path.join(root, 'build/server/index.js'))) as ServerBuild;
  const app = createWebApp({ env, logger, build, clientDir: path.join(root, 'build/client'), cmpDir: cmpBuildDir(root) });
  const server = createServer(app.requestListener).listen(env.PORT, env.HOST, () => {
    logger.info({ url: `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}` }, 'web server listening');
  });
  const stop = () => {
    app.closeStreams();
    server.close(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Started by scripts/start.mjs with an IPC channel: stop with the supervisor, even if it was killed (ADR 026).
  if (process.send) process.once('disconnect', stop);
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) {
    console.error(error.message);
    // As the API: 2 says "configuration refused", which scripts/start.mjs does not restart.
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
