/**
 * The page load of a request (ADR 022): a document request starts a new one (a fresh v4
 * UUID); a `.data` request of a client-side navigation or submission, and a request of the
 * page's own script to a resource route (the proof-of-work challenge), belongs to the page load
 * whose id it carries in X-Session-ID. Loaders and actions call the API with that id and the
 * page's path: the `.data` request's page, or the page a script's request names in X-Source-Page.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareFunction } from 'react-router';
import { pageLoadContext, type PageLoadInfo } from './context.ts';
import { pagePath } from '../i18n/i18n.ts';
import { SESSION_HEADER, SOURCE_PAGE_HEADER, isSessionId, pagePathSent } from './page-load.ts';

/** Resource routes only a page's script calls, in the name of its page (never a page of their own). */
const SCRIPT_RESOURCES: ReadonlySet<string> = new Set(['/form-challenge']);

/** The page load `request` belongs to; `url` is React Router's normalized URL when known. */
export function pageLoadOf(request: Request, url?: URL): PageLoadInfo {
  const { pathname } = new URL(request.url);
  const scriptRequest = SCRIPT_RESOURCES.has(pathname);
  const sent = request.headers.get(SESSION_HEADER);
  return {
    // A document request is a new page load whatever it carries; a data or script request
    // without a usable id (a browser-made prefetch, a tab from before a deploy) gets one of its own.
    sessionId: (scriptRequest || pathname.endsWith('.data')) && isSessionId(sent) ? sent.toLowerCase() : randomUUID(),
    sourcePage: (scriptRequest && pagePathSent(request.headers.get(SOURCE_PAGE_HEADER))) || (url ? url.pathname : pagePath(pathname)),
  };
}

export const pageLoadMiddleware: MiddlewareFunction<Response> = ({ request, url, context }, next) => {
  context.set(pageLoadContext, pageLoadOf(request, url));
  return next();
};
