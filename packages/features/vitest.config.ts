import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'features', include: ['test/**/*.test.ts'] } });
