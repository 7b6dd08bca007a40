/**
 * Security headers (CSP with a fresh nonce per response, HSTS, frame and referrer
 * policies) and the CSRF guard for state-changing requests.
 */
import { randomFillSync } from 'node:crypto';
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

const NONCE_BYTES = 16;
/** Random bytes for 256 nonces, drawn from the CSPRNG at once (as Node's randomUUID does): a draw per response cost 5 % of a cached page. */
const pool = Buffer.alloc(NONCE_BYTES * 256);
let poolOffset = pool.length;

/** A CSP nonce: 128 bits from the CSPRNG, base64, never used for two responses. */
export function newNonce(): string {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const nonce = pool.toString('base64', poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

export function nonceMiddleware(_req: Request, res: Response, next: NextFunction) {
  res.locals.nonce = newNonce();
  next();
}

/** An API address as connect-src allows it: its origin over http(s) and over ws(s), for the websocket. */
function apiSources(address: string): string[] {
  const url = new URL(address);
  return [url.origin, `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`];
}

export function securityHeaders({ publicApiUrl, browserGraphqlUrl, development, publicUrl, tagManagerUrl }: SecurityOptions) {
  // The server-rendered address and the acquisition defaults' override: the page may use either.
  const apis = [...new Set([...apiSources(publicApiUrl), ...(browserGraphqlUrl ? apiSources(browserGraphqlUrl) : [])])];
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.nonce as string}'`;
  // 'strict-dynamic' already trusts what nonce'd scripts add; the origin is for browsers without it, and for connect-src.
  const tagManager = tagManagerUrl ? [new URL(tagManagerUrl).origin] : [];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // strict-dynamic: the nonce'd entry scripts may load the lazy route chunks.
        'script-src': development ? ["'self'", "'unsafe-inline'", ...tagManager] : ["'self'", nonce, "'strict-dynamic'", ...tagManager],
        'style-src': development ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'", ...apis, ...tagManager, ...(development ? ['ws:'] : [])],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        ...(publicUrl.startsWith('https:') ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    strictTransportSecurity: publicUrl.startsWith('https:') ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
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
