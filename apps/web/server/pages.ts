/**
 * React Router's request handler on Express. It follows @react-router/express's adapter
 * (MIT, Remix Software), with two differences (ADR 028): the body a page receives is the
 * one `readBodies` already read within its limit, never the socket; and a request that
 * changes something must carry a form (415/400 otherwise) before any action runs.
 */
import { writeReadableStreamToWritable } from '@react-router/node';
import type express from 'express';
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from 'react-router';
import { pageCacheKey } from '../app/lib/page-cache.server.ts';
import type { PageCache } from './page-cache.ts';
import { acceptFormBody, fetchBody } from './request-body.ts';

export interface PageHandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  getLoadContext(req: express.Request, res: express.Response): RouterContextProvider;
  /** A new signed rendering instant for the public forms (ADR 041), one per response. */
  formStartedAt(): string;
  /** Anonymous public pages from memory (ADR 039); none in development. */
  cache?: PageCache;
}

const PAGE_CACHE_HEADER = 'x-page-cache';

function requestHeaders(req: express.Request): Headers {
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(name, value);
    else headers.set(name, values);
  }
  return headers;
}

/**
 * The host a page's address has (the hostname can decide the visitor's country): the Host
 * header, or the first X-Forwarded-Host from a trusted proxy, as Express reads req.hostname.
 * Both were checked by the first middleware (`refuseUnusableSiteHeaders`): a URL can be built from them.
 */
export function visitorHost(header: (name: string) => string | undefined, trustProxy: boolean): string {
  const forwarded = trustProxy ? header('x-forwarded-host') : undefined;
  return (forwarded ? forwarded.split(',')[0]!.trim() : header('host')) || 'localhost';
}

/** The Fetch API request React Router reads: the address as the visitor asked for it, the buffered body. */
function pageRequest(req: express.Request, res: express.Response): Request {
  // req.protocol honours X-Forwarded-Proto only from trusted proxies ('trust proxy'), as visitorHost does X-Forwarded-Host.
  const host = visitorHost((name) => req.get(name), req.app.enabled('trust proxy'));
  const url = new URL(`${req.protocol}://${host}${req.originalUrl}`);
  const controller = new AbortController();
  let finished = false;
  res.on('finish', () => (finished = true));
  res.on('close', () => {
    if (!finished) controller.abort();
  });
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : fetchBody(req);
  return new Request(url.href, { method: req.method, headers: requestHeaders(req), signal: controller.signal, body });
}

/** The headers set on `res` so far, one pair per value. */
function headerList(res: express.Response): [string, string][] {
  return Object.entries(res.getHeaders()).flatMap(([name, value]): [string, string][] =>
    value === undefined ? [] : Array.isArray(value) ? value.map((one): [string, string] => [name, one]) : [[name, String(value)]],
  );
}

async function sendResponse(res: express.Response, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.headers.get('content-type')?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}

export function pageHandler({ build, mode, getLoadContext, formStartedAt, cache }: PageHandlerOptions): express.RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      if (!(await acceptFormBody(req, res))) return;
      const request = pageRequest(req, res);
      res.locals.formStartedAt = formStartedAt();
      const context = getLoadContext(req, res);
      const cacheKey = cache ? await pageCacheKey(request, context) : null;
      if (!cache || !cacheKey) {
        if (cache) res.setHeader(PAGE_CACHE_HEADER, 'bypass');
        await sendResponse(res, await handle(request, context));
        return;
      }
      const values = {
        nonce: res.locals.nonce as string,
        anonymousId: cacheKey.experiments.attributes.acqAnonymousId,
        now: (res.locals.calendarNow as Date).getTime(),
        formStartedAt: res.locals.formStartedAt as string,
      };
      const hit = cache.get(cacheKey.key, values);
      if (hit) {
        res.status(hit.status);
        for (const [name, value] of hit.headers) res.append(name, value);
        res.setHeader(PAGE_CACHE_HEADER, 'hit');
        res.end(hit.body);
        return;
      }
      // What the middleware set (the security headers with this response's nonce): the door answers with them later.
      const front = headerList(res);
      const response = await handle(request, context);
      res.setHeader(PAGE_CACHE_HEADER, 'miss');
      if (response.status !== 200 || !response.body) {
        await sendResponse(res, response);
        return;
      }
      // The visitor gets the stream as it renders; the cache gets the whole page once it is complete.
      const [toVisitor, toCache] = response.body.tee();
      void new Response(toCache).text().then(
        (body) =>
          cache.set(
            cacheKey.key,
            { status: response.status, headers: response.headers, body },
            { ...values, sessionId: cacheKey.renderedSessionId() },
            cacheKey.calendarValidUntil(),
            front,
          ),
        () => undefined,
      );
      await sendResponse(res, new Response(toVisitor, { status: response.status, statusText: response.statusText, headers: response.headers }));
    } catch (error) {
      next(error);
    }
  };
}
