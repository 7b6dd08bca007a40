import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { type RouterContextProvider, ServerRouter, isRouteErrorResponse, type EntryContext, type HandleErrorFunction } from 'react-router';
import { pageLoadContext, requestInfoContext, type PageLoadInfo } from './lib/page/context.ts';
import { provideServerMessages } from './lib/i18n/messages.ts';
import { serverMessages } from './lib/i18n/messages.server.ts';
import { lowPriorityModulePreloads } from './lib/page/module-preloads.server.ts';
import { applyPageCaching } from './lib/page/page-caching.server.ts';
import type { RootData } from './lib/page/root-data.ts';
import { DocumentSessionIdContext } from './lib/page/document-session.ts';

// The whole catalogs live on the server; pages carry what they render (ADR 038).
provideServerMessages(serverMessages);

export const streamTimeout = 5_000;

/** Every inline script of a page (a `<script>` without `src`; a JSON or JSON-LD data block is never run): the CSP names each one's digest. */
const INLINE_SCRIPT = /<script(?![^>]*\s(?:src=|type="application\/(?:ld\+)?json"))[^>]*>([\s\S]*?)<\/script>/g;

/** The SHA-256 (base64) of each inline script's text, as CSP hash sources name them. */
function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, text] of html.matchAll(INLINE_SCRIPT)) hashes.add(createHash('sha256').update(text!).digest('base64'));
  return [...hashes];
}

/** The request's page load, when the root middleware got to set one. */
function documentPageLoad(context: RouterContextProvider): PageLoadInfo | null {
  try {
    return context.get(pageLoadContext);
  } catch {
    return null;
  }
}

/**
 * A page is rendered whole, then sent (ADR 053): its CSP names the digest of each of its inline
 * scripts, so the header is a function of the page's bytes and a shared cache may keep both.
 * (Our loaders return settled data: nothing would stream after the shell anyway.)
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { contentSecurityPolicy, trustedCountryHeader } = loadContext.get(requestInfoContext);
  // The loaders have run: a private page names its page load's id if they called the API with it.
  const pageLoad = documentPageLoad(loadContext);
  const handled = routerContext.staticHandlerContext;
  const shared = applyPageCaching({
    request,
    status: responseStatusCode,
    headers: responseHeaders,
    leafRouteId: handled.matches.at(-1)?.route.id,
    answeredForm: handled.actionData !== null,
    calledApi: pageLoad?.calledApi === 'personal',
    experiments: (handled.loaderData.root as RootData | undefined)?.experiments,
    trustedCountryHeader,
  });
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        timeoutId = undefined;
        const html = lowPriorityModulePreloads(Buffer.concat(chunks).toString('utf8'));
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(inlineScriptHashes(html)));
        resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });

    const { pipe, abort } = renderToPipeableStream(
      <DocumentSessionIdContext.Provider value={!shared && pageLoad?.calledApi ? pageLoad.sessionId : null}>
        <ServerRouter context={routerContext} url={request.url} />
      </DocumentSessionIdContext.Provider>,
      {
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/**
 * Errors of loaders, actions and rendering (React Router's default logs them; so do we) go
 * to the error reporter too (ADR 013). Aborted requests (the visitor left) are not errors.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted || isRouteErrorResponse(error)) return;
  console.error(error);
  try {
    (context as RouterContextProvider).get(requestInfoContext).errors.report(error, {
      context: new URL(request.url).pathname,
      request: { url: request.url, method: request.method },
      tags: { handler: 'react-router' },
    });
  } catch {
    // no request context (the error came before it was built): logged above
  }
};
