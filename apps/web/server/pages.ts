/**
 * React Router's request handler on Express. It follows @react-router/express's adapter
 * (MIT, Remix Software), with two differences (ADR 028): the body a page receives is the
 * one `readBodies` already read within its limit, never the socket; and a request that
 * changes something must carry a form (415/400 otherwise) before any action runs.
 */
import { writeReadableStreamToWritable } from '@react-router/node';
import type express from 'express';
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from 'react-router';
import { PRIVATE_PAGE_CACHE_CONTROL } from '../app/lib/page/page-caching.ts';
import { acceptFormBody, fetchBody } from './request-body.ts';

export interface PageHandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  getLoadContext(req: express.Request, res: express.Response): RouterContextProvider;
}

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

async function sendResponse(res: express.Response, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // What React Router answers is someone's own unless it says otherwise (a page decides in entry.server, ADR 053).
  if (!response.headers.has('cache-control')) res.setHeader('Cache-Control', PRIVATE_PAGE_CACHE_CONTROL);
  // A page's CSP (its scripts' digests) replaces the middleware's; every other header adds to what is set.
  for (const [name, value] of response.headers.entries()) {
    if (name === 'content-security-policy') res.setHeader(name, value);
    else res.append(name, value);
  }
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

export function pageHandler({ build, mode, getLoadContext }: PageHandlerOptions): express.RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      if (!(await acceptFormBody(req, res))) return;
      const request = pageRequest(req, res);
      await sendResponse(res, await handle(request, getLoadContext(req, res)));
    } catch (error) {
      next(error);
    }
  };
}
