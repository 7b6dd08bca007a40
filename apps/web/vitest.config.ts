import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'web',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // An unexpected console.error or console.warn fails the test (test/support/console-guard.ts).
    setupFiles: ['test/support/console-guard.ts'],
  },
});
