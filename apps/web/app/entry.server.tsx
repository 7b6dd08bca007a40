import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server';
import { type RouterContextProvider, ServerRouter, isRouteErrorResponse, type EntryContext, type HandleErrorFunction } from 'react-router';
import { requestInfoContext } from './lib/context.ts';
import { provideServerMessages } from './lib/messages.ts';
import { serverMessages } from './lib/messages.server.ts';
import { lowPriorityModulePreloads } from './lib/module-preloads.server.ts';
import { NonceContext } from './lib/nonce.ts';

// The whole catalogs live on the server; pages carry what they render (ADR 038).
provideServerMessages(serverMessages);

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext.get(requestInfoContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          resolve(new Response(createReadableStreamFromReadable(body.pipe(lowPriorityModulePreloads())), { headers: responseHeaders, status: responseStatusCode }));
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
