import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'error-reporting', include: ['test/**/*.test.ts'] } });
