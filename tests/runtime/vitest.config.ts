import { defineConfig } from 'vitest/config';

// The product as `npm start` and `npm run dev` run it: real processes on their own ports
// (ADR 026). They need the build (`npm run build`; `npm run validate` builds first).
export default defineConfig({
  test: {
    name: 'runtime',
    include: ['*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
