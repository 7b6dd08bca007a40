/**
 * The page load of a request (ADR 022): a document request starts a new one (a fresh v4
 * UUID); a `.data` request of a client-side navigation or submission belongs to the page load
 * whose id it carries in X-Session-ID. Loaders and actions call the API with that id and the
 * page's path.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareFunction } from 'react-router';
import { pageLoadContext, type PageLoadInfo } from './context.ts';
import { pagePath } from '../i18n/i18n.ts';
import { SESSION_HEADER, isSessionId } from './page-load.ts';

/** The page load `request` belongs to; `url` is React Router's normalized URL when known. */
export function pageLoadOf(request: Request, url?: URL): PageLoadInfo {
  const { pathname } = new URL(request.url);
  const dataRequest = pathname.endsWith('.data');
  const sent = request.headers.get(SESSION_HEADER);
  return {
    // A document request is a new page load whatever it carries; a data request without a
    // usable id (a browser-made prefetch, a tab from before a deploy) gets one of its own.
    sessionId: dataRequest && isSessionId(sent) ? sent.toLowerCase() : randomUUID(),
    sourcePage: url ? url.pathname : pagePath(pathname),
  };
}

export const pageLoadMiddleware: MiddlewareFunction<Response> = ({ request, url, context }, next) => {
  context.set(pageLoadContext, pageLoadOf(request, url));
  return next();
};
