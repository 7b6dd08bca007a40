/**
 * The real web server in a test: createWebApp on an ephemeral port, it and the pages compiled by
 * Vite in middleware mode (one module graph, no build needed), features and errors as configured by `env`.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from '@velvet/config/env';
import type { Env } from '@velvet/config/env';
import pino from 'pino';
import type { ServerBuild } from 'react-router';
import { createServer, type ViteDevServer } from 'vite';
import type * as AppModule from '../../server/app.ts';
import type { WebAppOptions } from '../../server/app.ts';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let vite: ViteDevServer | undefined;

/** One Vite server per test file (the first call starts it). */
async function pages(): Promise<ViteDevServer> {
  vite ??= await createServer({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    appType: 'custom',
  });
  return vite;
}

/** A module of the pages, the very instance the running web server uses (one module graph): for a test to make a part of it fail. */
export async function pagesModule<T>(id: string): Promise<T> {
  return (await (await pages()).ssrLoadModule(id)) as T;
}

export async function stopPages(): Promise<void> {
  await vite?.close();
  vite = undefined;
}

export interface TestWebServer {
  url: string;
  env: Env;
  close(): Promise<void>;
}

function webTestEnv(overrides: Record<string, string> = {}): Env {
  return parseEnv({
    NODE_ENV: 'test',
    APP_SECRET: 'web-test-secret-that-is-long-enough-0123456789',
    PUBLIC_URL: 'http://localhost:3000',
    API_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'silent',
    CMP_ENABLED: 'false',
    ...overrides,
  });
}

export async function startWebServer(
  overrides: Record<string, string> = {},
  options: Partial<Omit<WebAppOptions, 'env' | 'logger' | 'build'>> = {},
): Promise<TestWebServer> {
  const env = webTestEnv(overrides);
  const dev = await pages();
  // The app through Vite as well: the server and the routes in one module graph, as in the build (ADR 053).
  const { createWebApp } = (await dev.ssrLoadModule('/server/app.ts')) as typeof AppModule;
  const app = createWebApp({
    env,
    logger: pino({ level: 'silent' }),
    build: () => dev.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
    before: dev.middlewares,
    ...options,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    env,
    async close() {
      app.closeStreams();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
