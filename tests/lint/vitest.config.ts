import { defineConfig } from 'vitest/config';

// The repository's own checks: the layer rules of ESLint (ADR 032) tried on fixtures.
export default defineConfig({ test: { name: 'lint', include: ['*.test.ts'], testTimeout: 60_000 } });
