import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against the real product as `npm start` runs it
 * (compiled, NODE_ENV=production; ADR 026): the API on a fresh, empty SQLite database (each
 * test makes its data: tests/e2e/support/data.ts) and the web server. A second
 * web server points at an API address where nothing listens, to test the outage pages.
 */
/** E2E_PORT_OFFSET lets two runs share a machine (every port and the data directory move). */
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const WEB_PORT = 3310 + OFFSET;
const API_PORT = 9310 + OFFSET;
/** The worker role's health port (ADR 062): scripts/start.mjs runs the worker as its own process. */
const WORKER_PORT = 9311 + OFFSET;
const DOWN_PORT = 3311 + OFFSET;
const DATA_DIR = OFFSET ? `test-results-${OFFSET}/e2e-data` : 'test-results/e2e-data';

const MAIL_SMTP_PORT = 2526 + OFFSET;
const MAIL_HTTP_PORT = 2527 + OFFSET;
/** A real OpenID Connect provider for social sign-up (tests/e2e/support/oidc-provider.ts), beside the web ports. */
const OIDC_PORT = 3312 + OFFSET;
/** Where the tag manager "lives" in tests: nothing listens there, every test answers it with a stub (tests/e2e/support.ts). */
const GTM_PORT = 3313 + OFFSET;
/** A local error-reporting service (tests/e2e/support/error-collector.ts): ERROR_REPORTING_URL of the product under test. */
const ERRORS_PORT = 3314 + OFFSET;

export const E2E = {
  base: `http://127.0.0.1:${WEB_PORT}`,
  api: `http://127.0.0.1:${API_PORT}`,
  /**
   * The API under another name: /acquisition-defaults.json hands browsers this GraphQL address
   * (ACQ_BACKEND_GRAPHQL_URL), so every page runs with the defaults file overriding the
   * server-rendered one, as deployments may (spec §7.1; ADR 022).
   */
  browserGraphql: `http://localhost:${API_PORT}/graphql`,
  down: `http://127.0.0.1:${DOWN_PORT}`,
  admin: { email: 'admin@velvetrope.test', password: 'correct horse battery staple' },
  dataDir: DATA_DIR,
  mailHttpPort: MAIL_HTTP_PORT,
  oidc: { issuer: `http://127.0.0.1:${OIDC_PORT}`, clientId: 'velvet-e2e', clientSecret: 'e2e-only-client-secret-not-a-real-one' },
  /** The consent manager's tag manager (ADR 011): GTM_SCRIPT_URL and GTM_CONTAINER_ID of the product under test. */
  gtm: { scriptUrl: `http://127.0.0.1:${GTM_PORT}/gtm.js`, containerId: 'GTM-E2ETEST' },
  /** The collector's reports (GET /reports) and the product's ERROR_REPORTING_URL (ADR 013). */
  errors: { collector: `http://127.0.0.1:${ERRORS_PORT}`, url: `http://127.0.0.1:${ERRORS_PORT}/api/1/store/?sentry_key=e2e` },
};

/**
 * Visitors as they arrive from the club's markets: the language the site must answer in, the
 * browser's language (bare or regional), the clock's time zone and the country that zone
 * belongs to (preselected in the registration form), and the device.
 */
export interface Visitor {
  name: string;
  language: 'en' | 'de' | 'fr' | 'it' | 'nl' | 'pl' | 'sv';
  acceptLanguage: string;
  timeZone: string;
  country: string;
  device: 'phone' | 'desktop';
}

export const VISITORS: Visitor[] = [
  { name: 'de-berlin', language: 'de', acceptLanguage: 'de', timeZone: 'Europe/Berlin', country: 'DE', device: 'desktop' },
  { name: 'en-us-vienna', language: 'en', acceptLanguage: 'en-US', timeZone: 'Europe/Vienna', country: 'AT', device: 'phone' },
  { name: 'fr-paris', language: 'fr', acceptLanguage: 'fr', timeZone: 'Europe/Paris', country: 'FR', device: 'phone' },
  { name: 'pl-warsaw', language: 'pl', acceptLanguage: 'pl-PL', timeZone: 'Europe/Warsaw', country: 'PL', device: 'desktop' },
  { name: 'sv-stockholm', language: 'sv', acceptLanguage: 'sv-SE', timeZone: 'Europe/Stockholm', country: 'SE', device: 'phone' },
  { name: 'it-rome', language: 'it', acceptLanguage: 'it', timeZone: 'Europe/Rome', country: 'IT', device: 'desktop' },
  { name: 'nl-amsterdam', language: 'nl', acceptLanguage: 'nl-NL', timeZone: 'Europe/Amsterdam', country: 'NL', device: 'phone' },
  { name: 'en-gb-madrid', language: 'en', acceptLanguage: 'en-GB', timeZone: 'Europe/Madrid', country: 'ES', device: 'desktop' },
];

/** The product's social sign-up (ADR 010); the outage server's issuer is a dead address. */
const OIDC_ENV = { OIDC_ISSUER: E2E.oidc.issuer, OIDC_CLIENT_ID: E2E.oidc.clientId, OIDC_CLIENT_SECRET: E2E.oidc.clientSecret };

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: OFFSET ? `test-results-${OFFSET}` : 'test-results',
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Journeys register, wait for an email and activate; test data comes from the CLI (about 1 s a call).
  // The console's journeys (every page of a role, an operator's waiting-list session with two axe
  // scans) took 43–62 s in a clean-clone CI run on the loaded 2-core machine: 90 s, not 60, each.
  timeout: 90_000,
  // An assertion waits for what a person waits for: a form post answered by a full page render.
  // Playwright's 5 s ran out once on the loaded 2-core CI machine (the German code form's
  // "missing code" message, a no-JS post and render, in the full run of 239 journeys).
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: E2E.base,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'chromium', testIgnore: /europe\.spec\.ts$/, use: { ...devices['Desktop Chrome'], channel: undefined } },
    // The club's visitors (tests/e2e/europe.spec.ts): each language in its home time zone, with a
    // bare or a regional Accept-Language (Playwright's `locale` sets both it and navigator.language), on a phone or a desktop.
    ...VISITORS.map((visitor) => ({
      name: visitor.name,
      testMatch: /europe\.spec\.ts$/,
      metadata: visitor,
      use: {
        ...(visitor.device === 'phone' ? devices['Pixel 7'] : devices['Desktop Chrome']),
        channel: undefined,
        locale: visitor.acceptLanguage,
        timezoneId: visitor.timeZone,
      },
    })),
  ],
  webServer: [
    {
      command: 'node --import tsx tests/e2e/support/error-collector.ts',
      url: `${E2E.errors.collector}/healthz`,
      reuseExistingServer: false,
      env: { ERROR_COLLECTOR_PORT: String(ERRORS_PORT) },
    },
    {
      command: 'node --import tsx tests/e2e/support/mail-peer.ts',
      url: `http://127.0.0.1:${MAIL_HTTP_PORT}/healthz`,
      reuseExistingServer: false,
      env: { MAIL_PEER_SMTP_PORT: String(MAIL_SMTP_PORT), MAIL_PEER_HTTP_PORT: String(MAIL_HTTP_PORT) },
    },
    {
      command: 'node --import tsx tests/e2e/support/oidc-provider.ts',
      url: `${E2E.oidc.issuer}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      env: {
        OIDC_PROVIDER_PORT: String(OIDC_PORT),
        OIDC_CLIENT_ID: E2E.oidc.clientId,
        OIDC_CLIENT_SECRET: E2E.oidc.clientSecret,
        OIDC_REDIRECT_URIS: `${E2E.base}/auth/social/callback`,
      },
    },
    {
      // The product as `npm start` runs it (ADR 026, 062): compiled JavaScript, NODE_ENV=production,
      // the migrate step, then web, api and worker under scripts/start.mjs (`npm run test:e2e` builds first).
      command: `rm -rf ${DATA_DIR} && node scripts/start.mjs`,
      url: `${E2E.base}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(WEB_PORT),
        API_PORT: String(API_PORT),
        WORKER_PORT: String(WORKER_PORT),
        DATA_DIR,
        PUBLIC_URL: E2E.base,
        PUBLIC_API_URL: E2E.api,
        ACQ_BACKEND_GRAPHQL_URL: E2E.browserGraphql,
        LOG_LEVEL: 'warn',
        // No demo seed: every test makes the codes and members it needs through the admin CLI
        // and the public API (tests/e2e/support/data.ts), so none depends on demo data that
        // another test may have used up, blocked or registered on.
        SEED_DEMO: 'false',
        SMTP_URL: `smtp://127.0.0.1:${MAIL_SMTP_PORT}`,
        ADMIN_EMAIL: E2E.admin.email,
        ADMIN_PASSWORD: E2E.admin.password,
        RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '1000',
        RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '1000',
        RATE_LIMIT_PUBLIC_FORMS_PER_MINUTE: '1000',
        RATE_LIMIT_CONSENT_RECORDS_PER_MINUTE: '1000',
        RATE_LIMIT_FUNNEL_BATCHES_PER_MINUTE: '10000',
        // Two browsers and the CLI share one API on a busy CI machine: a turn may take longer than
        // production's 500 ms wait without any overload (ADR 052's shedding is tested in apps/api/test/overload.test.ts).
        DATABASE_QUEUE_WAIT_MS: '10000',
        // Every admin test signs in from 127.0.0.1; the limit itself is tested in apps/api/test/admin.test.ts.
        RATE_LIMIT_ADMIN_SIGN_INS_PER_MINUTE: '1000',
        // Every page with a form fetches its start from 127.0.0.1 (ADR 041); the limit is tested in apps/web/test/form-guard.test.ts.
        RATE_LIMIT_FORM_STARTS_PER_MINUTE: '1000',
        GTM_CONTAINER_ID: E2E.gtm.containerId,
        GTM_SCRIPT_URL: E2E.gtm.scriptUrl,
        ERROR_REPORTING_URL: E2E.errors.url,
        // Pages are rendered for the calendar day a test sets with X-Test-Now (ADR 021, tests/e2e/support.ts).
        TEST_CLOCK: 'true',
        // Playwright fills a form faster than any person: the minimum fill time has its own tests
        // (apps/web/test/form-guard.test.ts); the proof of work stays on, solved by Chromium (ADR 041).
        FORM_MIN_FILL_SECONDS: '0',
        ...OIDC_ENV,
      },
    },
    {
      command: 'node apps/web/server.js',
      url: `${E2E.down}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { NODE_ENV: 'production', PORT: String(DOWN_PORT), API_URL: 'http://127.0.0.1:9', DATA_DIR, PUBLIC_URL: E2E.down, LOG_LEVEL: 'warn', ERROR_REPORTING_URL: E2E.errors.url, TEST_CLOCK: 'true', FORM_MIN_FILL_SECONDS: '0', ...OIDC_ENV, OIDC_ISSUER: 'http://127.0.0.1:9' },
    },
  ],
});
