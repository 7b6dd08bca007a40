/**
 * The consent manager's and the first-party funnel's doors on the web server (ADR 011):
 * - GET  /entrance/cmp/js/cmp_min.js and /entrance/cmp/css/cmp_min.css: the consent script
 *   and its stylesheet, cached for a year (the page asks for `?v=YYYYMMDDHH`);
 * - POST /entrance/cmp/consent: one consent choice → the API's recordConsent;
 * - POST /entrance/funnel: a beacon of funnel events → the API's recordFunnelEvents;
 * - GET  /entrance/form-start: a public form's signed start (form-start.ts, ADR 041).
 * The POSTs pass the CSRF guard first (same origin only); they answer 204 whatever the API
 * says, and forward the visitor's address only for the API's rate limit.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Env } from '@velvet/config/env';
import { isLocale, supportedCountry } from '@velvet/i18n/locales';
import { FUNNEL_SESSION_PATTERN, MAX_FUNNEL_BATCH, isTrackedEventName } from '@velvet/validation/funnel';
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { CONSENT_REVISION } from '../app/lib/consent/consent-shared.ts';
import { SESSION_HEADER, SOURCE_PAGE_HEADER, isSessionId, pagePathSent } from '../app/lib/page/page-load.ts';
import { formStartDoor } from './form-start.ts';
import { bodyOf, readBodies } from './request-body.ts';

/** The largest consent choice or funnel batch the doors read. */
export const ENTRANCE_BODY_BYTES = 16 * 1024;

/** Where the consent script's build lands (vite.cmp.config.ts). */
export function cmpBuildDir(webRoot: string): string {
  return path.join(webRoot, 'build/cmp');
}

export function cmpStatic(dir: string): express.RequestHandler {
  return express.static(dir, { immutable: true, maxAge: '365d', index: false });
}

const consentBody = z.object({
  consentId: z.uuid(),
  action: z.enum(['ACCEPT_ALL', 'REJECT_ALL', 'CUSTOM']),
  source: z.enum(['BANNER', 'PREFERENCES', 'APP']),
  analytics: z.boolean(),
  marketing: z.boolean(),
  version: z.literal(CONSENT_REVISION),
  language: z.string().refine(isLocale),
  country: z.string().optional(),
});

const funnelBody = z.object({
  sessionId: z.string().regex(FUNNEL_SESSION_PATTERN),
  // A beacon carries no headers: the page load's id and the page's path come in its body
  // (ADR 022). Optional, for a tab from before they were sent; a malformed one is ignored.
  pageLoadId: z.string().max(64).optional(),
  page: z.string().max(1024).optional(),
  country: z.string().max(2).optional(),
  events: z
    .array(
      z.object({
        name: z.string().max(64),
        language: z.string().max(2).optional(),
        variant: z.string().max(64).optional(),
        registrationCode: z.string().max(64).optional(),
        landingSlug: z.string().max(40).optional(),
        analyticsConsent: z.boolean(),
      }),
    )
    .min(1)
    .max(MAX_FUNNEL_BATCH),
});

const RECORD_CONSENT = 'mutation recordConsent($input: RecordConsentInput!) { recordConsent(input: $input) }';
const RECORD_FUNNEL = 'mutation recordFunnelEvents($events: [FunnelEventInput!]!) { recordFunnelEvents(events: $events) }';

/** What a beacon names in its body instead of the headers it cannot carry. */
interface PageLoadSent {
  sessionId?: string | undefined;
  page?: string | undefined;
}

/** The path of the page that sent a request to /entrance: its Referer, when it is one of our own pages. */
function pageOf(req: Request, publicOrigin: string): string | undefined {
  const referer = req.get('referer');
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    const own = url.origin === publicOrigin || url.origin === `${req.protocol}://${req.get('host') ?? ''}`;
    return own ? (pagePathSent(url.pathname) ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}

export function entranceRouter({ env, logger }: { env: Env; logger: Logger }): Router {
  const router = express.Router();
  // Beacons arrive as text/plain or application/json; both are JSON here. The body was read
  // within ENTRANCE_BODY_BYTES by the server's body reader (ADR 028).
  const parseJson: express.RequestHandler = (req, _res, next) => {
    let parsed: unknown;
    try {
      parsed = req.is(['application/json', 'text/plain']) ? JSON.parse(bodyOf(req)?.toString('utf8') ?? '') : undefined;
    } catch {
      parsed = undefined;
    }
    req.body = parsed;
    next();
  };
  const json = [readBodies(() => ENTRANCE_BODY_BYTES), parseJson];

  const forward = async (req: Request, res: Response, operationName: string, query: string, variables: unknown, fromBody: PageLoadSent = {}) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-correlation-id': `acq-web-${randomUUID()}`,
    };
    // These doors serve a page: the API hears of that page — the one the page's script names,
    // else the Referer's path (our origin only) — and of its page load when the browser sent the
    // id (ADR 022), never of /entrance.
    const sourcePage = pagePathSent(req.get(SOURCE_PAGE_HEADER)) ?? pagePathSent(fromBody.page) ?? pageOf(req, new URL(env.PUBLIC_URL).origin);
    if (sourcePage) headers['x-source-page'] = sourcePage;
    const sessionId = [req.get(SESSION_HEADER), fromBody.sessionId].find(isSessionId);
    if (sessionId) headers['x-session-id'] = sessionId.toLowerCase();
    if (req.ip) headers['x-forwarded-for'] = req.ip;
    const acceptLanguage = req.get('accept-language');
    if (acceptLanguage) headers['accept-language'] = acceptLanguage;
    if (env.TRUSTED_COUNTRY_HEADER) {
      const country = req.get(env.TRUSTED_COUNTRY_HEADER);
      if (country) headers[env.TRUSTED_COUNTRY_HEADER] = country;
    }
    try {
      const response = await fetch(`${env.API_URL}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ operationName, query, variables }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      const code = body.errors?.[0]?.extensions?.code;
      if (code && code !== 'RATE_LIMITED') logger.warn({ correlationId: res.locals.correlationId, operationName, code }, 'entrance: API refused');
    } catch (error) {
      logger.warn({ correlationId: res.locals.correlationId, operationName, err: error instanceof Error ? error.message : String(error) }, 'entrance: API unreachable');
    }
  };

  router.get('/form-start', formStartDoor({ secret: env.APP_SECRET, minFillSeconds: env.FORM_MIN_FILL_SECONDS, perMinute: env.RATE_LIMIT_FORM_STARTS_PER_MINUTE }));

  router.post('/cmp/consent', ...json, (req: Request, res: Response) => {
    const parsed = consentBody.safeParse(req.body);
    res.status(parsed.success ? 204 : 400).end();
    if (!parsed.success) return;
    const { country, ...input } = parsed.data;
    const served = supportedCountry(country);
    void forward(req, res, 'recordConsent', RECORD_CONSENT, { input: { ...input, ...(served ? { country: served } : {}) } });
  });

  router.post('/funnel', ...json, (req: Request, res: Response) => {
    const parsed = funnelBody.safeParse(req.body);
    res.status(parsed.success ? 204 : 400).end();
    if (!parsed.success) return;
    const { sessionId, pageLoadId, page, country, events } = parsed.data;
    const served = supportedCountry(country);
    const known = events.filter((e) => isTrackedEventName(e.name));
    if (known.length === 0) return;
    void forward(req, res, 'recordFunnelEvents', RECORD_FUNNEL, {
      events: known.map((e) => ({
        name: e.name,
        sessionId,
        ...(served ? { country: served } : {}),
        ...(e.language && isLocale(e.language) ? { language: e.language } : {}),
        ...(e.variant ? { variant: e.variant } : {}),
        ...(e.registrationCode ? { registrationCode: e.registrationCode } : {}),
        ...(e.landingSlug ? { landingSlug: e.landingSlug } : {}),
        analyticsConsent: e.analyticsConsent,
      })),
    }, { sessionId: pageLoadId, page });
  });

  return router;
}
