/**
 * `npm run dev` (ADR 026): the web server with Vite in middleware mode renders pages with one
 * copy of React Router (two copies answer every page with "Invalid `context` value"), and the
 * API runs from its sources, restarted by tsx on change.
 */
import { utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, dataDir, eventually, freePort, run, status, type Running } from './support.ts';

describe('npm run dev', () => {
  let dev: Running;
  let web: string;
  let api: string;

  beforeAll(async () => {
    const [port, apiPort] = [await freePort(), await freePort()];
    web = `http://127.0.0.1:${port}`;
    api = `http://127.0.0.1:${apiPort}`;
    dev = run(['scripts/dev.mjs'], { PORT: String(port), API_PORT: String(apiPort), DATA_DIR: dataDir(), LOG_LEVEL: 'info' });
    await eventually('the dev servers', async () => ((await status(`${web}/healthz`)) === 200 && (await status(`${api}/health`)) === 200 ? true : undefined), 120_000);
  });
  afterAll(async () => {
    await dev?.stop();
  });

  it('renders the invitation page through Vite, in development mode', async () => {
    const response = await eventually('the first render (Vite optimizes dependencies once)', async () => {
      const r = await fetch(`${web}/?rc=WELCOME2026`);
      return r.status === 200 ? r : undefined;
    });
    const html = await response.text();
    expect(html).toMatch(/<title>Velvet Rope/);
    // The sources themselves, with React Router's hot-reload runtime.
    expect(html).toContain('/app/entry.client.tsx');
    expect(html).toContain('virtual:react-router/inject-hmr-runtime');
    expect(dev.output()).not.toContain('Invalid `context` value');
    expect(dev.output()).toMatch(/"nodeEnv":"development"/);
  });

  it('serves GraphiQL from the API sources in development', async () => {
    const page = await fetch(`${api}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type') ?? '').toMatch(/text\/html/);
  });

  it('restarts the API when one of its sources changes', async () => {
    const listening = () => dev.output().match(/"msg":"API listening"/g)?.length ?? 0;
    const before = listening();
    expect(before).toBeGreaterThanOrEqual(1);
    // A save without a change: only the file's time moves, nothing in the checkout differs.
    const now = new Date();
    utimesSync(path.join(ROOT, 'apps/api/src/server.ts'), now, now);
    await eventually('the API to start again', async () => (listening() > before && (await status(`${api}/health`)) === 200 ? true : undefined), 60_000);
  });
});
