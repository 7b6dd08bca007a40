#!/usr/bin/env node
/**
 * Compiles the programs that run on the server to plain JavaScript (ADR 026), so that
 * `npm start` runs no TypeScript: no tsx, no type stripping, no Vite.
 *
 *   apps/api/dist/main.js     the GraphQL API
 *   apps/api/dist/cli.js      the admin CLI
 *
 * Our own workspace packages (`@velvet/*`, whose exports are TypeScript sources) are bundled in;
 * every other package stays an import from node_modules, as installed by `npm ci`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bare imports of third-party packages (and node: built-ins) stay external; ours are bundled. */
const thirdPartyExternal = {
  name: 'third-party-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@velvet/') ? undefined : { path: args.path, external: true }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  jsx: 'automatic',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [thirdPartyExternal],
};

const started = Date.now();
await Promise.all([
  build({
    ...common,
    entryPoints: { main: 'apps/api/src/main.ts', cli: 'apps/api/src/cli.ts' },
    outdir: path.join(root, 'apps/api/dist'),
    absWorkingDir: root,
    tsconfig: path.join(root, 'apps/api/tsconfig.json'),
  }),
]);
console.log(`servers compiled in ${Date.now() - started} ms: apps/api/dist/{main,cli}.js`);
