import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports": Node loads index.js (CJS) for Yoga and Pothos, while Vite would
    // pick index.mjs for our sources. Two copies break `instanceof GraphQLError`; use Node's.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(import.meta.resolve('graphql')) }],
  },
  test: {
    name: 'api',
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    // Each file has its own SQLite file, PostgreSQL schema and Redis key prefix, so files run in parallel.
    fileParallelism: true,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
