/**
 * The web server: Express in front of React Router's request handler. It owns what is
 * not a page: security headers, CSRF guard, static assets with long-lived caching, the
 * acquisition defaults file, and per-request context for loaders.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Env } from '@velvet/config/env';
import compression from 'compression';
import express, { type Request, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import type { Logger } from 'pino';
import { RouterContextProvider, type ServerBuild } from 'react-router';
import { requestInfoContext, type RequestInfo } from '../app/lib/page/context.ts';
import { isLocale } from '@velvet/i18n/locales';
import { catalogJson, clientCatalogVersion } from '../app/lib/i18n/messages.server.ts';
import { sameSitePath } from '../app/lib/same-site-path.ts';
import { EXPERIMENT_VARIATION_HEADER, EXPERIMENT_VARIATION_PATH } from '../app/lib/experiments/experiments-shared.ts';
import { variationOf } from '../app/lib/experiments/experiments.server.ts';
import { PRIVATE_PAGE_CACHE_CONTROL, SHARED_PAGE_CACHE_CONTROL } from '../app/lib/page/page-caching.ts';
import { cmpStatic, entranceRouter } from './entrance.ts';
import { lastResortErrorPage, malformedPaths, refuseUnusableSiteHeaders } from './error-pages.ts';
import { ERROR_REPORTS_PATH, MAX_PAYLOAD_BYTES, createWebErrorReporting, errorReportTunnel } from './error-reports.ts';
import type { WebErrorReporting } from './error-reports.ts';
import { createFeatureRelay } from './features.ts';
import type { FeatureRelay } from './features.ts';
import { ENTRANCE_BODY_BYTES } from './entrance.ts';
import { pageHandler } from './pages.ts';
import { sameSiteRedirects } from './redirects.ts';
import { readBodies } from './request-body.ts';
import { contentSecurityPolicy, csrfGuard, securityHeaders } from './security.ts';
import { TEST_NOW_HEADER, calendarClock } from './test-clock.ts';

export interface WebAppOptions {
  env: Env;
  logger: Logger;
  /** The production build, or a loader of it (development: from Vite). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Directory of the built client assets; absent in development (Vite serves them). */
  clientDir?: string;
  /** Extra middleware installed before the pages (Vite's dev middleware). */
  before?: express.RequestHandler;
  /** Directory of the built consent script (build/cmp), served under /entrance/cmp. */
  cmpDir?: string;
  /** The features proxy (ADR 012); by default one streaming from API_URL. */
  features?: FeatureRelay;
  /** Error reporting (ADR 013); by default to ERROR_REPORTING_URL. */
  errorReporting?: WebErrorReporting;
  /** /health/ready answers 503 once this says draining (SIGTERM, ADR 062); absent: always ready. */
  readiness?: { readonly draining: boolean };
}

/** A request's context: what the server knows of it, read by loaders and actions (one module graph with the routes, ADR 053). */
function createLoadContext(info: RequestInfo): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, info);
  return context;
}

/** The largest body a page's form may send; the consent and funnel doors and the error-report tunnel have their own. */
export const MAX_BODY_BYTES = 100 * 1024;

export function createWebApp({ env, logger, build, clientDir, before, cmpDir, ...options }: WebAppOptions) {
  const app = express();
  const features = options.features ?? createFeatureRelay({ apiUrl: env.API_URL, clientKey: env.FEATURES_CLIENT_KEY, logger });
  const errors = options.errorReporting ?? createWebErrorReporting({ url: env.ERROR_REPORTING_URL, environment: env.ACQ_ENVIRONMENT, logger });
  const development = env.NODE_ENV === 'development' && !clientDir;
  app.disable('x-powered-by');
  /** For the platform and the load balancer (ADR 062): live while the process answers, ready until it is asked to stop. */
  app.get('/health/live', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  app.use((_req, res, next) => {
    // Draining: each answer closes its connection, so a keep-alive client's next request opens one to another instance.
    if (options.readiness?.draining) res.setHeader('Connection', 'close');
    next();
  });
  app.get('/health/ready', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (options.readiness?.draining) res.status(503).json({ status: 'draining' });
    else res.json({ status: 'ok' });
  });
  // The number of proxy hops in front (ADR 028): the visitor is the right-most X-Forwarded-For entry they did not write.
  if (env.TRUST_PROXY > 0) app.set('trust proxy', env.TRUST_PROXY);
  app.use(sameSiteRedirects);
  app.use(malformedPaths);
  if (env.TEST_CLOCK) logger.warn(`TEST_CLOCK is on: requests may set the calendar's date with ${TEST_NOW_HEADER} (tests only, ADR 021)`);

  app.use((req, res, next) => {
    const correlationId = req.get('x-correlation-id')?.slice(0, 100) || `web-${randomUUID()}`;
    res.locals.correlationId = correlationId;
    res.setHeader('X-Correlation-ID', correlationId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // The path only: query strings can carry codes and tokens.
      logger.info(
        { correlationId, method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
        'request',
      );
    });
    next();
  });
  /** Before anything builds an address from them: Host, X-Forwarded-Host, Origin (issue 18 §1). */
  app.use(refuseUnusableSiteHeaders(env.TRUST_PROXY > 0));
  /** The calendar's "now" of each request (ADR 021). */
  app.use(calendarClock(env.TEST_CLOCK));
  /** Spec §7.6: GrowthBook's features endpoint and stream under our own host (before compression, which would hold the stream back). */
  app.use(features.router());
  /** The shared cache's question before it looks a page up (ADR 053): which variation its bucket gets there. */
  const siteOrigin = new URL(env.PUBLIC_URL).origin;
  app.get(EXPERIMENT_VARIATION_PATH, (req, res) => {
    // Only an address of this site: a hostile one (`/\evil.example`, `/\[`) names no variation, and the page's own answer follows.
    const asked = req.get('x-original-uri') ?? '';
    const parsed = asked.startsWith('/') ? URL.parse(asked, env.PUBLIC_URL) : null;
    const address = parsed?.origin === siteOrigin ? parsed : undefined;
    const headers = { get: (name: string) => req.get(name) ?? null };
    const settings = { features, payload: features.current(), publicUrl: env.PUBLIC_URL, trustedCountryHeader: env.TRUSTED_COUNTRY_HEADER };
    const variation = address && variationOf({ url: address.href, headers }, address, settings);
    // Always 2xx (the cache's sub-request takes anything else for an error); no variation: nothing kept.
    if (!variation) {
      res.setHeader('Cache-Control', PRIVATE_PAGE_CACHE_CONTROL);
      res.status(204).end();
      return;
    }
    // Kept as long as a page. After the payload changed, a page asked for under a variation that
    // is no longer the bucket's is rendered afresh and kept by no one (experiments.server.ts).
    // The country GrowthBook reads comes from these headers.
    res.setHeader('Cache-Control', SHARED_PAGE_CACHE_CONTROL);
    res.setHeader('Vary', ['Accept-Language', env.TRUSTED_COUNTRY_HEADER].filter(Boolean).join(', '));
    res.setHeader(EXPERIMENT_VARIATION_HEADER, variation);
    res.status(200).end();
  });
  app.use(compression());
  const security = {
    publicUrl: env.PUBLIC_URL,
    publicApiUrl: env.PUBLIC_API_URL,
    browserGraphqlUrl: env.ACQ_BACKEND_GRAPHQL_URL,
    development,
    tagManagerUrl: env.GTM_CONTAINER_ID ? env.GTM_SCRIPT_URL : undefined,
  };
  const pagePolicy = contentSecurityPolicy(security);
  app.use(securityHeaders(security));
  if (before) app.use(before);

  if (clientDir) {
    // Compressed at build time (ADR 069): the `.br` or `.gz` beside a file when the browser takes it.
    app.use('/assets', expressStaticGzip(path.join(clientDir, 'assets'), { enableBrotli: true, orderPreference: ['br', 'gzip'], index: false, serveStatic: { immutable: true, maxAge: '1y', index: false } }));
    // The public files (favicon.svg…): only addresses with a file extension look there, so a page
    // costs no file-system lookup (and no 404 error object) on its way to React Router or the page cache.
    const publicFiles = express.static(clientDir, { maxAge: '1h', index: false });
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }

  /** Spec §7.7: the consent script and its stylesheet (ADR 011). */
  if (cmpDir && env.CMP_ENABLED) app.use('/entrance/cmp', cmpStatic(cmpDir));

  /** Spec §7.1: runtime settings the browser reads at start-up. */
  app.get('/acquisition-defaults.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json({
      environment: env.ACQ_ENVIRONMENT,
      ...(env.GTM_CONTAINER_ID ? { gtmContainerId: env.GTM_CONTAINER_ID } : {}),
      acqBackendGraphqlURL: env.ACQ_BACKEND_GRAPHQL_URL,
    });
  });

  /** A language's whole client catalog, parsed (ADR 038): pages bring only what they render, and fetch this after hydration. */
  app.get('/messages/:file', (req, res, next) => {
    const locale = /^([a-z]{2})\.json$/.exec(req.params.file)?.[1];
    if (!locale || !isLocale(locale)) return next();
    res.setHeader('Cache-Control', req.query.v === clientCatalogVersion() ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.type('application/json').send(catalogJson(locale));
  });

  /** The client's last-resort hard redirect targets /acquisition/…: serve it from the root. */
  app.use('/acquisition', (req, res) => {
    res.redirect(301, sameSitePath(req.url));
  });

  app.use(csrfGuard([new URL(env.PUBLIC_URL).origin]));
  /** Every body is read here, counted as it streams, within its route's limit (ADR 028); handlers read `bodyOf(req)`. */
  app.use(
    readBodies((req) => (req.path === ERROR_REPORTS_PATH ? MAX_PAYLOAD_BYTES : req.path.startsWith('/entrance/') ? ENTRANCE_BODY_BYTES : MAX_BODY_BYTES)),
  );
  /** Browser error reports (ADR 013). */
  if (errors.send) app.use(errorReportTunnel(errors, logger));
  app.use('/entrance', entranceRouter({ env, logger }));

  app.all(
    '/{*path}',
    pageHandler({
      build,
      mode: env.NODE_ENV === 'production' ? 'production' : 'development',
      getLoadContext: (req: Request, res: Response) =>
        createLoadContext({
          contentSecurityPolicy: pagePolicy,
          correlationId: res.locals.correlationId as string,
          clientIp: req.ip,
          calendarNow: res.locals.calendarNow as Date,
          apiUrl: env.API_URL,
          publicApiUrl: env.PUBLIC_API_URL,
          publicUrl: env.PUBLIC_URL,
          environment: env.ACQ_ENVIRONMENT,
          gtmContainerId: env.GTM_CONTAINER_ID,
          trustedCountryHeader: env.TRUSTED_COUNTRY_HEADER,
          secureCookies: env.PUBLIC_URL.startsWith('https:'),
          appSecret: env.APP_SECRET,
          formMinFillSeconds: env.FORM_MIN_FILL_SECONDS,
          appSchemePrefix: env.APP_SCHEME_PREFIX,
          consent: { enabled: env.CMP_ENABLED, settingsId: env.CMP_SETTINGS_ID, appVersion: env.APP_VERSION, gtmScriptUrl: env.GTM_SCRIPT_URL },
          features: { clientKey: features.clientKey, payload: () => Promise.resolve(features.current()) },
          errors: { browserEndpoint: errors.send ? ERROR_REPORTS_PATH : null, report: errors.report, apiFailure: errors.apiFailure },
        }),
    }),
  );
  app.use(((error, req, _res, next) => {
    errors.report(error, { context: req.path, tags: { handler: 'express' } });
    next(error);
  }) as express.ErrorRequestHandler);
  app.use(lastResortErrorPage);
  return Object.assign(app, {
    /** Ends what keeps connections open (the features streams), so the server can close. */
    closeStreams: () => features.close(),
  });
}
