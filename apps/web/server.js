#!/usr/bin/env node
/**
 * Starts the web server (ADR 053): in production the server build (`npm run build` first),
 * whose entry is server/index.ts with the Express app and the routes in one bundle; with
 * NODE_ENV=development the same entry through Vite in middleware mode, pages and styles
 * reloading in the browser as they change.
 */
const root = import.meta.dirname;

if (process.env.NODE_ENV === 'development') {
  const { createServer } = await import('vite');
  const vite = await createServer({ root, server: { middlewareMode: true }, appType: 'custom' });
  const { start } = await vite.ssrLoadModule('/server/index.ts');
  await start({ root, vite });
} else {
  const { start } = await import('./build/server/index.js');
  await start({ root });
}
