import type { Config } from '@react-router/dev/config';

// The bench builds this page into node_modules/.cache (ANCHOR_BUILD_DIR); see bench/lib/anchor-page.mjs.
export default {
  appDirectory: 'app',
  buildDirectory: process.env.ANCHOR_BUILD_DIR ?? 'build',
  ssr: true,
} satisfies Config;
