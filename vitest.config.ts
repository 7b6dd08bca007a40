import { defineConfig } from 'vitest/config';

// One run for every workspace's unit and integration tests. End-to-end tests live in
// tests/e2e and run under Playwright, not here.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/api', 'apps/web'],
  },
});
