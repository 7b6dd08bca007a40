/**
 * Security headers (a hash-based CSP, HSTS, frame and referrer policies) and the CSRF guard
 * for state-changing requests. A page's CSP names the SHA-256 of each of its inline scripts
 * (ADR 053): it is a function of the page's bytes, so a shared cache may keep the page with its
 * header, where a per-response nonce made every page someone's own.
 */
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { refusedBody } from './error-pages.ts';
import { visitorHost } from './pages.ts';

export interface SecurityOptions {
  publicUrl: string;
  publicApiUrl: string;
  /** What /acquisition-defaults.json hands browsers as acqBackendGraphqlURL (spec §7.1); may differ from publicApiUrl. */
  browserGraphqlUrl?: string | undefined;
  development: boolean;
  /** GTM_SCRIPT_URL when a container is configured: its origin may serve scripts and take connections. */
  tagManagerUrl?: string | undefined;
}

/** An API address as connect-src allows it: its origin over http(s) and over ws(s), for the websocket. */
function apiSources(address: string): string[] {
  const url = new URL(address);
  return [url.origin, `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`];
}

/**
 * The site's Content-Security-Policy for a response whose inline scripts have these SHA-256
 * digests (base64): none for anything but a page. 'strict-dynamic' lets the hashed entry
 * scripts load the route chunks and the consent script; the origin is for browsers without it.
 * In development Vite injects scripts of its own: 'unsafe-inline', and no hashes (they would void it).
 */
export function contentSecurityPolicy({ publicApiUrl, browserGraphqlUrl, development, publicUrl, tagManagerUrl }: SecurityOptions) {
  // The server-rendered address and the acquisition defaults' override: the page may use either.
  const apis = [...new Set([...apiSources(publicApiUrl), ...(browserGraphqlUrl ? apiSources(browserGraphqlUrl) : [])])];
  const tagManager = tagManagerUrl ? [new URL(tagManagerUrl).origin] : [];
  const rest = [
    `style-src 'self'${development ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "font-src 'self'",
    ['connect-src', "'self'", ...apis, ...tagManager, ...(development ? ['ws:'] : [])].join(' '),
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
    ...(publicUrl.startsWith('https:') ? ['upgrade-insecure-requests'] : []),
  ].join(';');
  return (scriptHashes: readonly string[]): string => {
    const scripts = development
      ? ["'self'", "'unsafe-inline'", ...tagManager]
      : ["'self'", ...scriptHashes.map((hash) => `'sha256-${hash}'`), "'strict-dynamic'", ...tagManager];
    return `default-src 'self';script-src ${scripts.join(' ')};${rest}`;
  };
}

/** The security headers of every response; a page replaces the CSP with its own scripts' digests (entry.server.tsx). */
export function securityHeaders(options: SecurityOptions) {
  const policy = contentSecurityPolicy(options)([]);
  const others = helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: options.publicUrl.startsWith('https:') ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', policy);
    others(req, res, next);
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses cross-site state changes: a POST must come from our own origin, told by
 * Sec-Fetch-Site where the browser sends it, else by Origin (or Referer).
 */
export function csrfGuard(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin') ?? originOf(req.get('referer'));
    const own = `${req.protocol}://${visitorHost((name) => req.get(name), req.app.enabled('trust proxy'))}`;
    if (site !== 'same-origin' && !(!site && origin && (allowed.has(origin) || origin === own))) {
      res.status(403).type('text/plain').send('Cross-site request refused');
      return;
    }
    // React Router refuses an action whose Origin is not its address's own origin, and reports that
    // as a server error with a stack: it is the client's mistake, answered here with the 400 page (issue 18 §7).
    const declared = req.get('origin');
    if (declared !== undefined && originOf(declared) !== originOf(own)) {
      refusedBody.malformed(req, res);
      return;
    }
    next();
  };
}

function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}
