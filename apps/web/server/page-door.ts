/**
 * The page cache's door (ADR 051): answers a request whose page the cache holds before Express
 * sees it, with what Express would have sent — the stored page's headers, the security headers
 * its middleware gave the stored response (with this response's own CSP nonce), a correlation
 * id and the request's log line. Anything else goes on to Express, untouched.
 *
 * It answers only what the page handler itself stored: the key is read by the same function
 * (`cacheKeyOf`, from the server bundle), and an entry exists only for an address the whole
 * Express chain answered with a complete 200 page. So the door never answers an address that
 * Express would redirect, refuse or serve as a file.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { unusableSiteHeader } from '@velvet/validation/request-head';
import type { Logger } from 'pino';
import type { CacheableRequest, KeyInputs, PageCacheKey } from '../app/lib/page-cache.server.ts';
import type { PageCache } from './page-cache.ts';
import { visitorHost } from './pages.ts';
import { newNonce } from './security.ts';

export interface PageDoorOptions {
  cache: PageCache;
  /** The bundle's `cacheKeyOf`: the page handler's own key. */
  keyOf(request: CacheableRequest, inputs: KeyInputs): Omit<PageCacheKey, 'renderedSessionId'> | null;
  /** Everything of the key's inputs but the calendar's instant, which is the request's. */
  inputs(): Omit<KeyInputs, 'calendarNow'>;
  /** A new signed rendering instant for the public forms (ADR 041). */
  formStartedAt(): string;
  /** TRUST_PROXY > 0: X-Forwarded-Host names the host, as for Express. */
  trustProxy: boolean;
  logger: Logger;
}

/** A node request's headers as the key reads them (lower-case names, repeated ones joined). */
function headerReader(headers: IncomingHttpHeaders): CacheableRequest['headers'] {
  return {
    get: (name) => {
      const value = headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    has: (name) => headers[name] !== undefined,
  };
}

/** Whether Accept-Encoding allows gzip (by name or `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    const allowed = q === undefined || Number(q) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return allowed;
    if (coding === '*') wildcard = allowed;
  }
  return wildcard;
}

/** The door: true when it answered the request from the cache, false when Express should. */
export function pageCacheDoor({ cache, keyOf, inputs, formStartedAt, trustProxy, logger }: PageDoorOptions) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const target = req.url ?? '';
    // A query string (an invitation, a token…) is never cached: those pass without a look.
    if (req.method !== 'GET' || cache.size === 0 || !target.startsWith('/') || target.includes('?')) return false;
    const started = process.hrtime.bigint();
    const requestHeaders = headerReader(req.headers);
    // An unusable Host goes on to Express, whose first middleware answers it with the 400 page.
    if (unusableSiteHeader((name) => requestHeaders.get(name) ?? undefined, trustProxy)) return false;
    const host = visitorHost((name) => requestHeaders.get(name) ?? undefined, trustProxy);
    // The scheme does not reach the key; the host does (its country), as the page handler's request has it.
    const url = `http://${host}${target}`;
    const calendarNow = new Date();
    const found = keyOf({ method: 'GET', url, headers: requestHeaders }, { ...inputs(), calendarNow });
    if (!found) return false;
    const nonce = newNonce();
    const gzip = acceptsGzip(req.headers['accept-encoding']);
    const answer = cache.get(
      found.key,
      { nonce, anonymousId: found.experiments.attributes.acqAnonymousId, now: calendarNow.getTime(), formStartedAt: formStartedAt() },
      { gzip },
    );
    if (!answer?.front) return false;
    const requested = req.headers['x-correlation-id'];
    const correlationId = (typeof requested === 'string' ? requested.slice(0, 100) : '') || `web-${randomUUID()}`;
    const headers: string[] = [];
    for (const [name, value] of answer.front) headers.push(name, value);
    for (const [name, value] of answer.headers) headers.push(name, value);
    headers.push('X-Correlation-ID', correlationId, 'x-page-cache', 'hit', 'Vary', 'Accept-Encoding', 'Content-Length', String(answer.body.length));
    if (answer.encoding === 'gzip') headers.push('Content-Encoding', 'gzip');
    // The path only, as Express logs it.
    const path = new URL(url).pathname;
    res.once('finish', () => {
      logger.info({ correlationId, method: 'GET', path, status: answer.status, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request');
    });
    res.writeHead(answer.status, headers);
    res.end(answer.body);
    return true;
  };
}
