/**
 * The one place where environment variables are read. Every process (web, API,
 * CLI, tests) parses them with this schema once at start-up; a bad value stops
 * start-up with a list of every problem, never a half-configured server.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(1).max(65535);
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: port.default(3000),
    API_PORT: port.default(9090),
    HOST: z.string().default('127.0.0.1'),
    /**
     * What apps/api/dist/main.js runs (ADR 062): `api` serves GraphQL and its subscriptions and runs
     * no background job; `worker` sends the outbox and runs the retention and waiting-list admission
     * jobs; `all` (the default: tests, `npm run dev`, a one-process install) does both.
     */
    ROLE: z.enum(['all', 'api', 'worker']).default('all'),
    /** The worker role's health endpoints (/health/live, /health/ready) listen here, on HOST. */
    WORKER_PORT: port.default(9091),
    /**
     * Whether the API migrates the database (and seeds it) when it starts. On by default, so the quick
     * start on a fresh machine just works; a deployment sets `false` and runs `npm run migrate` as its
     * own step before new instances start (ADR 062). Off, a process refuses to start while a migration
     * it knows is not applied.
     */
    MIGRATE_ON_START: booleanFlag.default(true),
    /**
     * After SIGTERM, how long a web or API process keeps accepting while /health/ready answers 503,
     * so the load balancer stops sending before the port closes (ADR 062). SIGINT (Ctrl-C) skips it.
     * Default: 5 s for a deployment, 0 on a local instance (no load balancer in front).
     */
    SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
    /** Then how long in-flight work (requests, an email being sent) may take before the process ends anyway. */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
    API_URL: optionalUrl,
    /** Where browsers reach the API (GraphQL over HTTP and websockets). */
    PUBLIC_API_URL: optionalUrl,
    PUBLIC_URL: optionalUrl,
    DATABASE_URL: z
      .string()
      .trim()
      .optional()
      .refine(
        (v) => !v || v.startsWith('file:') || /^postgres(ql)?:\/\//.test(v),
        'must start with file: (SQLite) or postgres:// (PostgreSQL)',
      ),
    /**
     * The API's operations at once (ADR 052), and on PostgreSQL the connections of its pool: an
     * operation never waits long for a connection. Beyond it operations wait in a queue.
     */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
    /** Operations that may wait for their turn; one more is answered OVERLOADED at once (ADR 052). */
    DATABASE_QUEUE_LIMIT: z.coerce.number().int().min(0).max(100_000).default(100),
    /** How long an operation may wait for its turn, in milliseconds; then it is answered OVERLOADED (ADR 052). */
    DATABASE_QUEUE_WAIT_MS: z.coerce.number().int().min(1).max(60_000).default(500),
    REDIS_URL: optionalUrl.refine((v) => !v || /^rediss?:\/\//.test(v), 'must be a redis:// URL'),
    /**
     * Start of every Redis key and pub/sub channel this deployment uses (rate limits,
     * registration events, feature announcements), so two deployments can share one Redis.
     */
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_.-]{0,64}$/, 'must be at most 64 letters, digits, colons, dots, dashes or underscores')
      .default('velvet:'),
    SMTP_URL: optionalUrl.refine((v) => !v || /^smtps?:\/\//.test(v), 'must be an smtp:// or smtps:// URL'),
    MAIL_FROM: z.string().trim().min(3).default('Velvet Rope <club@velvetrope.localhost>'),
    APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    TRUSTED_COUNTRY_HEADER: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]*$/, 'must be an HTTP header name')
      .optional(),
    /**
     * How many proxies stand in front of this server and append to X-Forwarded-For (ADR 003, 028):
     * the client is the right-most entry no trusted proxy wrote. `true`/`yes`/`1` is one hop,
     * `false`/`no`/`0` reads the socket only, `2`… more hops. Parsed as the number of hops.
     */
    TRUST_PROXY: z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => /^(true|false|yes|no|\d{1,2})$/.test(v), 'must be true, false or a number of proxy hops (0-99)')
      .transform((v) => (v === 'true' || v === 'yes' ? 1 : v === 'false' || v === 'no' ? 0 : Number(v)))
      .default(0),
    /** Access-code checks allowed per client address and minute (brute-force guard). */
    RATE_LIMIT_CODE_CHECKS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** Registrations (Mutation.register) allowed per client address and minute; e2e tests raise it. */
    RATE_LIMIT_REGISTRATIONS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** Public one-field forms (joinWaitlist and applyForMembership together) per client address and minute. */
    RATE_LIMIT_PUBLIC_FORMS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
    /** Consent records (Mutation.recordConsent) per client address and minute. */
    RATE_LIMIT_CONSENT_RECORDS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    /** First-party funnel batches (Mutation.recordFunnelEvents) per client address and minute; e2e tests raise it. */
    RATE_LIMIT_FUNNEL_BATCHES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    RATE_LIMIT_ADMIN_SIGN_INS_PER_MINUTE: z.coerce.number().int().min(1).default(5),
    /** Public forms' starts (GET /entrance/form-start, ADR 041) per client network and minute, in each web process; e2e tests raise it. */
    RATE_LIMIT_FORM_STARTS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /**
     * Registrations per invitation code and 10 minutes, whoever sends them (issue 12 §2). The
     * benchmark raises it: it registers thousands a second on one campaign code.
     */
    RATE_LIMIT_REGISTRATIONS_PER_CODE: z.coerce.number().int().min(1).default(20),
    /**
     * The proof-of-work check of registration, membership interest and the waiting list (issue 12
     * §2, ADR 041): on unless `false`. Tests of other rules turn it off.
     */
    PROOF_OF_WORK: booleanFlag.default(true),
    /**
     * Key derivations a browser makes on average to solve a challenge when sign-ups are quiet
     * (PBKDF2-SHA-256, 1,000 iterations each: about 0.2 ms in desktop Chromium); busier times
     * double it up to three times (ADR 041).
     */
    PROOF_OF_WORK_DIFFICULTY: z.coerce.number().int().min(1).max(1_000_000).default(1500),
    /**
     * The least time between a public form's start (fetched when the visitor is first shown a
     * public form) and its submission, in seconds (issue 12 §2, ADR 041): a faster post is a
     * script's and gets the answer of success without effect. 0 turns the check off (the e2e
     * suite, whose robots type faster than people).
     */
    FORM_MIN_FILL_SECONDS: z.coerce.number().min(0).max(60).default(2),
    /**
     * Whether the API asks DNS if an address's domain receives mail (MX, else A/AAAA; issue 12 §3,
     * ADR 042). Default: on for a deployment, and on a local instance only with EMAIL_DNS_SERVERS
     * (the quick start and the tests never ask a resolver outside this machine).
     */
    EMAIL_DOMAIN_CHECK: booleanFlag.optional(),
    /** The resolvers to ask, `host` or `host:port`, comma-separated; the system's when unset. */
    EMAIL_DNS_SERVERS: z
      .string()
      .trim()
      .refine(
        (v) => v.split(',').every((entry) => /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\])(:\d{1,5})?$/i.test(entry.trim())),
        'must be IP addresses with an optional :port, comma-separated',
      )
      .optional(),
    /** How long one DNS question may take, in milliseconds; then the address is accepted and flagged. */
    EMAIL_DNS_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1500),
    /**
     * The leak score at which an invitation code is quarantined (issue 12 §4, ADR 043): its new
     * registrations are held for review and its inviter gets a fresh private link.
     */
    CODE_QUARANTINE_SCORE: z.coerce.number().int().min(1).max(10_000).default(10),
    /** With ADMIN_PASSWORD: the admin user the seed creates when it does not exist yet. */
    ADMIN_EMAIL: z.string().trim().toLowerCase().pipe(z.email()).optional(),
    /** With ADMIN_EMAIL; at least 12 characters. Read at seed time only. */
    ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').max(1024).optional(),
    /** Comma-separated referrer host fragments that are denied; replaces the built-in list. */
    REFERRER_BLOCKLIST: z.string().trim().optional(),
    SEED_DEMO: booleanFlag.default(true),
    DATA_DIR: z.string().default('data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    CORS_ORIGINS: z.string().optional(),
    GTM_CONTAINER_ID: z
      .string()
      .regex(/^(GTM|G)-[A-Z0-9]+$/, 'must be GTM- or G- followed by upper-case letters and digits')
      .optional(),
    ACQ_ENVIRONMENT: z.string().default('local'),
    /**
     * The GraphQL address /acquisition-defaults.json hands browsers (spec §7.1), overriding the
     * server-rendered `${PUBLIC_API_URL}/graphql`; the CSP allows both (http(s) and ws(s)).
     */
    ACQ_BACKEND_GRAPHQL_URL: optionalUrl.refine((v) => !v || /^https?:\/\//.test(v), 'must be an http(s) URL'),
    /** The tag-manager script, loaded with ?id=<GTM_CONTAINER_ID> after analytics consent; tests point it at a stub. */
    GTM_SCRIPT_URL: z.string().trim().pipe(z.url({ protocol: /^https?$/ })).default('https://www.googletagmanager.com/gtm.js'),
    /** The consent manager (banner, preference centre, /entrance/cmp); false only for measurements (bench/lighthouse). */
    CMP_ENABLED: booleanFlag.default(true),
    /** The consent manager's settings id, pushed to the data layer with the consent-manager data (spec §3). */
    CMP_SETTINGS_ID: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, - or _').default('velvet-acq-web'),
    /** The application version pushed to the data layer (spec §3). */
    APP_VERSION: z.string().trim().regex(/^[A-Za-z0-9._+-]{1,40}$/, 'must be a version such as 1.4.0').default('0.0.0'),
    /** The native app's URL scheme: redirectUrl may lead there (web view hand-back). */
    APP_SCHEME_PREFIX: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*:\/\/$/, 'must look like myapp://')
      .default('velvetrope://'),
    /** Social sign-up (OpenID Connect): the provider's issuer; unset turns social sign-up off. */
    OIDC_ISSUER: optionalUrl,
    /** Our client at the provider; its redirect URI is `${PUBLIC_URL}/auth/social/callback`. */
    OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** Which sign-up button the provider answers (Google, Facebook or Apple) and the token's provider id. */
    OIDC_PROVIDER_NAME: z.string().trim().min(1).max(40).default('Google'),
    /** The client key in the features endpoint's path (/api/features/KEY, /sub/KEY); ADR 012. */
    FEATURES_CLIENT_KEY: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{3,64}$/, 'must be 3-64 letters, digits, dashes or underscores')
      .default('sdk-velvet-rope'),
    /** Where browser and server error reports go (a JSON collector or a Sentry store URL); unset turns reporting off. ADR 013. */
    ERROR_REPORTING_URL: optionalUrl.refine((v) => !v || /^https?:\/\//.test(v), 'must be an http(s) URL'),
    /**
     * The company the emails' imprint names (issue 22 row 19, ADR 060): each unset one keeps the
     * placeholder of @velvet/validation/shop (COMPANY), which is no real company. An operator
     * sets the real entries; the country is an ISO 3166 code, named in each reader's language.
     */
    COMPANY_NAME: z.string().trim().min(1).max(200).optional(),
    COMPANY_STREET: z.string().trim().min(1).max(200).optional(),
    COMPANY_POSTAL_CODE: z.string().trim().min(1).max(20).optional(),
    COMPANY_CITY: z.string().trim().min(1).max(100).optional(),
    COMPANY_COUNTRY: z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, 'must be a two-letter country code (ISO 3166)').optional(),
    COMPANY_REGISTER: z.string().trim().min(1).max(200).optional(),
    COMPANY_MANAGING_DIRECTORS: z.string().trim().min(1).max(300).optional(),
    COMPANY_EMAIL: z.string().trim().toLowerCase().pipe(z.email()).optional(),
    /**
     * Tests only (ADR 021): the web server takes the calendar's "now" (promotions, their countdown,
     * the footer's year) from an X-Test-Now request header. Refused unless PUBLIC_URL is a loopback
     * address (ADR 026); never moves
     * the expiry of tokens, links or cookies, which keep to the real clock.
     */
    TEST_CLOCK: booleanFlag.default(false),
  })
  .superRefine((env, ctx) => {
    // ADR 026: production semantics always under `npm start`; PUBLIC_URL alone tells the
    // quick start on this machine (a loopback address) from a deployment (any other address).
    const deployment = env.NODE_ENV === 'production' && !isLoopbackUrl(env.PUBLIC_URL ?? 'http://localhost');
    if (deployment && !env.APP_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['APP_SECRET'], message: 'is required when PUBLIC_URL is not a loopback address (a deployment; ADR 026)' });
    }
    if (deployment && !env.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required when PUBLIC_URL is not a loopback address: a deployment sends real email (ADR 026)' });
    }
    if (env.TEST_CLOCK && !isLoopbackUrl(env.PUBLIC_URL ?? 'http://localhost')) {
      ctx.addIssue({ code: 'custom', path: ['TEST_CLOCK'], message: 'is for tests only and must not be on when PUBLIC_URL is not a loopback address (ADR 026)' });
    }
    if (env.OIDC_ISSUER) {
      if (!env.OIDC_CLIENT_ID) ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'is required with OIDC_ISSUER' });
      if (!env.OIDC_CLIENT_SECRET) ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_SECRET'], message: 'is required with OIDC_ISSUER' });
      if (deployment && !env.OIDC_ISSUER.startsWith('https:')) {
        ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER'], message: 'must be an https:// URL in production' });
      }
    }
  });

/**
 * True for an address only this machine can open (localhost, *.localhost, 127.0.0.0/8, ::1):
 * the PUBLIC_URL of the quick start and of tests, never of a deployment (ADR 026).
 */
function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

type RawEnv = z.infer<typeof envSchema>;

/** A deployment's SHUTDOWN_DELAY_MS: longer than a load balancer's health-check interval times its fall count. */
const DEPLOYMENT_SHUTDOWN_DELAY_MS = 5_000;

export interface Env
  extends Omit<
    RawEnv,
    'APP_SECRET' | 'API_URL' | 'PUBLIC_API_URL' | 'PUBLIC_URL' | 'DATABASE_URL' | 'ACQ_BACKEND_GRAPHQL_URL' | 'EMAIL_DOMAIN_CHECK' | 'SHUTDOWN_DELAY_MS'
  > {
  APP_SECRET: string;
  API_URL: string;
  PUBLIC_API_URL: string;
  /** What /acquisition-defaults.json serves as acqBackendGraphqlURL; `${PUBLIC_API_URL}/graphql` unless set. */
  ACQ_BACKEND_GRAPHQL_URL: string;
  PUBLIC_URL: string;
  DATABASE_URL: string;
  /** Origins allowed to call the API from a browser. */
  corsOrigins: string[];
  /** EMAIL_DOMAIN_CHECK as decided: on for a deployment, on locally only with EMAIL_DNS_SERVERS, unless set. */
  EMAIL_DOMAIN_CHECK: boolean;
  /** SHUTDOWN_DELAY_MS as decided: 5 s for a deployment, 0 on a local instance, unless set (ADR 062). */
  SHUTDOWN_DELAY_MS: number;
  /**
   * PUBLIC_URL is a loopback address: the quick start or a test run on this machine (ADR 026).
   * Only then are the embedded defaults allowed (generated secret, dev mailbox) and the local
   * aids served (/dev/mailbox, /dev/requests, TEST_CLOCK), whatever NODE_ENV says.
   */
  localInstance: boolean;
}

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** Parses `source` (default `process.env`); throws EnvError listing every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'} ${i.message}`));
  }
  const raw = result.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, '');
  const publicApiUrl = (raw.PUBLIC_API_URL ?? `http://localhost:${raw.API_PORT}`).replace(/\/$/, '');
  return {
    ...raw,
    DATA_DIR: dataDir,
    APP_SECRET: raw.APP_SECRET ?? developmentSecret(dataDir),
    API_URL: (raw.API_URL ?? `http://127.0.0.1:${raw.API_PORT}`).replace(/\/$/, ''),
    PUBLIC_API_URL: publicApiUrl,
    ACQ_BACKEND_GRAPHQL_URL: raw.ACQ_BACKEND_GRAPHQL_URL ?? `${publicApiUrl}/graphql`,
    PUBLIC_URL: publicUrl,
    localInstance: isLoopbackUrl(publicUrl),
    EMAIL_DOMAIN_CHECK: raw.EMAIL_DOMAIN_CHECK ?? (!isLoopbackUrl(publicUrl) || Boolean(raw.EMAIL_DNS_SERVERS)),
    SHUTDOWN_DELAY_MS: raw.SHUTDOWN_DELAY_MS ?? (isLoopbackUrl(publicUrl) ? 0 : DEPLOYMENT_SHUTDOWN_DELAY_MS),
    DATABASE_URL: raw.DATABASE_URL ?? `file:${path.join(dataDir, 'velvet.sqlite')}`,
    corsOrigins: [
      new URL(publicUrl).origin,
      ...(raw.CORS_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ],
  };
}

/** On a local instance (ADR 026) a secret is generated once and kept under the data directory. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}

let cached: Env | undefined;
/** The process-wide environment, parsed on first use. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
