import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  routeDiscovery: { mode: 'initial' },
  // One file per route module (ADR 037): our routes' only client exports are clientActions,
  // which run after the page's module has loaded anyway; split, they cost a request more each.
  splitRouteModules: false,
} satisfies Config;
