/**
 * The API's view of the configuration: the shared, Zod-parsed environment plus the
 * settings derived from it that only the API needs.
 */
import type { Env } from '@velvet/config/env';
import { DEFAULT_REFERRER_BLOCKLIST, parseReferrerBlocklist } from './domain/referrer-blocklist.ts';

export { parseEnv, EnvError } from '@velvet/config/env';
export type { Env } from '@velvet/config/env';

export const GRAPHQL_PATH = '/graphql';
export const HEALTH_PATH = '/health';
/** Largest request body accepted (JSON POSTs of our operations are a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

export interface ApiSettings {
  production: boolean;
  /** Introspection and GraphiQL are development aids only. */
  introspection: boolean;
  graphiql: boolean;
  /**
   * The local aids (/dev/mailbox, /dev/requests): on a local instance only, whatever NODE_ENV
   * says, so the quick start's production build still shows its mailbox (ADR 026).
   */
  localAids: boolean;
  referrerBlocklist: readonly string[];
  maxBodyBytes: number;
}

export function apiSettings(env: Env): ApiSettings {
  const production = env.NODE_ENV === 'production';
  return {
    production,
    introspection: !production,
    graphiql: env.NODE_ENV === 'development',
    localAids: env.localInstance,
    referrerBlocklist: env.REFERRER_BLOCKLIST ? parseReferrerBlocklist(env.REFERRER_BLOCKLIST) : DEFAULT_REFERRER_BLOCKLIST,
    maxBodyBytes: MAX_BODY_BYTES,
  };
}
