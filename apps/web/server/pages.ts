/**
 * React Router's request handler on Express. It follows @react-router/express's adapter
 * (MIT, Remix Software), with two differences (ADR 028): the body a page receives is the
 * one `readBodies` already read within its limit, never the socket; and a request that
 * changes something must carry a form (415/400 otherwise) before any action runs.
 */
import { writeReadableStreamToWritable } from '@react-router/node';
import type express from 'express';
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from 'react-router';
import { acceptFormBody, fetchBody } from './request-body.ts';

export interface PageHandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  getLoadContext(req: express.Request, res: express.Response): Promise<RouterContextProvider>;
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

/** The Fetch API request React Router reads: the address as the visitor asked for it, the buffered body. */
function pageRequest(req: express.Request, res: express.Response): Request {
  // req.hostname and req.protocol honour X-Forwarded-Host/-Proto only from trusted proxies ('trust proxy').
  const hostHeader = (req.app.enabled('trust proxy') ? req.get('x-forwarded-host') : undefined) ?? req.get('host') ?? '';
  const port = /:(\d+)$/.exec(hostHeader)?.[1];
  const host = `${req.hostname.split(/[\\/?#@]/)[0] || 'localhost'}${port ? `:${port}` : ''}`;
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

export function pageHandler({ build, mode, getLoadContext }: PageHandlerOptions): express.RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      if (!(await acceptFormBody(req, res))) return;
      const response = await handle(pageRequest(req, res), await getLoadContext(req, res));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}
