import type { KnipConfig } from 'knip';

/**
 * Dead code stays gone (ADR 032): unused files, dependencies and exports fail `npm run validate`.
 * Our packages and the API are private, so the files their `exports` maps name are checked too
 * (`includeEntryExports`): an export nothing imports loses `export`, or goes.
 */

const config: KnipConfig = {
  // React Router's generated route types (`./+types/<route>`, written by `react-router typegen`).
  ignoreUnresolved: [/^\.\/\+types\//],
  // A system program the Redis fault tests start (Debian's redis-server).
  ignoreBinaries: ['redis-server'],
  // bench/lighthouse.mjs runs node_modules/.bin/lighthouse by its path; app.css imports tailwindcss.
  ignoreDependencies: ['lighthouse', 'tailwindcss'],
  workspaces: {
    '.': {
      entry: ['scripts/*.mjs', 'bench/*.mjs', 'bench/anchors/*.mjs', 'bench/admin-lists/*.mjs', 'tests/e2e/**/*.spec.ts', 'tests/runtime/**/*.test.ts', 'tests/lint/*.test.ts', 'tests/lint/fixtures/*.ts'],
      project: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'tests/**/*.ts'],
    },
    'apps/api': {
      entry: ['src/main.ts', 'src/print-schema.ts', 'test/**/*.test.ts', 'test/support/fuzz-server.ts'],
      project: ['src/**/*.{ts,tsx}', 'test/**/*.ts'],
      includeEntryExports: true,
    },
    'apps/web': {
      entry: ['server.js', 'server/index.ts', 'cmp/cmp.ts', 'test/**/*.test.{ts,tsx}', 'test/support/fuzz-web-server.ts'],
      project: ['server.js', 'app/**/*.{ts,tsx}', 'server/**/*.ts', 'cmp/**/*.ts', 'test/**/*.{ts,tsx}'],
      // gql.tada's generated schema introspection (ADR 033): read by the type checker through its module augmentation.
      ignore: ['app/lib/api/graphql-env.d.ts'],
      includeEntryExports: true,
    },
    'packages/config': {
      project: ['src/**/*.ts'],
      includeEntryExports: true,
    },
    'packages/*': {
      entry: ['test/**/*.test.ts'],
      project: ['src/**/*.ts', 'test/**/*.ts'],
      includeEntryExports: true,
    },
  },
};

export default config;
