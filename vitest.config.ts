import { defineConfig } from 'vitest/config';

// One run for every workspace's unit and integration tests. End-to-end tests live in
// tests/e2e and run under Playwright, not here; tests/runtime starts the built product's
// own commands (`npm run build` first).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/api', 'apps/web', 'tests/runtime', 'tests/lint'],
  },
});
