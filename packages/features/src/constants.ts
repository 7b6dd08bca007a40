/**
 * The A/B-testing constants of spec §9, in one place. They are GrowthBook's own defaults;
 * the browser SDK is configured with them (app/lib/experiments/experiments.tsx) and the servers use
 * the same numbers for their side of the protocol (ADR 012).
 */

/** How long the browser waits for the first payload when the page came without one. */
export const SETUP_TIMEOUT_MS = 5_000;

/** The SDK's feature cache: stale after 1 minute, dropped after 4 hours, at most 10 entries. */
export const CACHE_STALE_TTL_MS = 60_000;
export const CACHE_MAX_AGE_MS = 4 * 60 * 60 * 1_000;
export const CACHE_MAX_ENTRIES = 10;

/**
 * Idle stream interval: the browser closes its stream 20 s after the tab is hidden (and
 * reopens it when visible again); the servers send a keep-alive comment on an idle stream
 * every 20 s, so proxies never see it silent for longer.
 */
export const IDLE_STREAM_INTERVAL_MS = 20_000;

/**
 * Reconnecting a stream: after more than 3 errors in a row, wait base·factor^(errors−3)
 * with up to 100 % jitter, capped at 5 minutes (the SDK's rule, also used by the web
 * server's own connection to the API).
 */
export const RECONNECT_ERRORS_BEFORE_BACKOFF = 3;
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_FACTOR = 3;
export const RECONNECT_MAX_BACKOFF_MS = 5 * 60 * 1_000;

/** Redirect experiments: navigate after 100 ms, waiting at most 1000 ms for tracking. */
export const REDIRECT_DELAY_MS = 100;
export const MAX_TRACKING_WAIT_MS = 1_000;

/**
 * Realtime interval: how often an API instance checks the database for a changed feature
 * (a change made by the CLI of another process); with REDIS_URL the change also arrives at
 * once through pub/sub. (GrowthBook SDK 0.x used the same 2 s for its realtime usage
 * reports; SDK 1.x no longer has that option.)
 */
export const REALTIME_INTERVAL_MS = 2_000;

/**
 * Bucketing: GrowthBook's 32-bit FNV-1a hash of seed and hash attribute. Hash version 1
 * maps a visitor to one of 1000 buckets, version 2 (our experiments) to one of 10000.
 */
export const BUCKETS_BY_HASH_VERSION = { 1: 1_000, 2: 10_000 } as const;
export const DEFAULT_HASH_VERSION = 2;

/** The attribute experiments hash on (spec §3). */
export const HASH_ATTRIBUTE = 'acqAnonymousId';

/** `?disablegb=true` turns testing off for the page (spec §2, §5). */
export const DISABLE_PARAM = 'disablegb';
