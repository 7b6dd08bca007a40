import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'tokens', include: ['test/**/*.test.ts'] } });
