/**
 * Named route middleware (spec §2): a route lists middleware by name; an unknown name is
 * a programming error ("Unknown route middleware"). "During first load, a middleware
 * returning false or an error produces a 404 'Page Not Found'": a middleware that throws,
 * returns false or returns an Error answers the page with status 404 and the 404 page inside
 * the site's frame, in the visitor's language — the routes above it (the root's language and
 * catalog, the layout) are prepared as usual, the route's own loader and action never run —
 * and the failure is reported. A client-side navigation to the page (its `.data` request runs
 * the same middleware here) gets the same 404: one failure, one answer, whichever way the
 * visitor came.
 */
import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { langCookie } from '../i18n/i18n.ts';
import { localeContext, requestInfoContext } from './context.ts';

type MiddlewareArgs = Parameters<MiddlewareFunction<Response>>[0];
type Next = Parameters<MiddlewareFunction<Response>>[1];

/** A route middleware: React Router's, which may also say no by returning false or an Error. */
export type RouteMiddleware = (args: MiddlewareArgs, next: Next) => Response | void | false | Error | Promise<Response | void | false | Error>;

/**
 * language: a link into a prefixed page (e.g. the activation link of a German email)
 * remembers that language for the visitor's next unprefixed visit.
 */
const languageMiddleware: RouteMiddleware = async ({ context }, next) => {
  const response = await next();
  const { prefix, locale } = context.get(localeContext);
  if (prefix) {
    response.headers.append('Set-Cookie', langCookie(locale, context.get(requestInfoContext).secureCookies));
  }
  return response;
};

/** The middleware a route may name, looked up on each request. */
export const ROUTE_MIDDLEWARE: Record<string, RouteMiddleware> = {
  language: languageMiddleware,
};

/** Set when one of this request's route middleware failed: the route's loader and action must not run. */
const middlewareFailed = createContext<boolean>(false);

/** Spec §2's 404 "Page Not Found" for a page whose middleware failed (no path: the address is right, the page could not be prepared). */
function notFound(): never {
  throw data({ unprepared: true }, { status: 404 });
}

function report({ request, context }: MiddlewareArgs, name: string, error: unknown): void {
  console.error(error);
  try {
    context.get(requestInfoContext).errors.report(error, {
      context: new URL(request.url).pathname,
      request: { url: request.url, method: request.method },
      tags: { handler: 'route-middleware', middleware: name },
    });
  } catch {
    // reporting never breaks a page
  }
}

/** `name` as React Router runs it: what the route answers, or its 404 when the middleware fails. */
function guarded(name: string): MiddlewareFunction<Response> {
  return async (args, next) => {
    let answer: Promise<Response> | undefined;
    const nextOnce: Next = () => (answer ??= next());
    let failure: unknown;
    try {
      const result = await ROUTE_MIDDLEWARE[name]!(args, nextOnce);
      if (result !== false && !(result instanceof Error)) return result;
      failure = result === false ? new Error(`Route middleware "${name}" returned false`) : result;
    } catch (error) {
      // A redirect or a response the middleware throws on purpose is an answer, not a failure.
      if (error instanceof Response) throw error;
      failure = error;
    }
    report(args, name, failure);
    if (!answer) {
      // Failed before the page was prepared: the routes above it are prepared as usual (the
      // language, the catalog, the layout: the 404 is in the site's frame and the visitor's
      // language), the route's own handlers answer 404 without running (`afterRouteMiddleware`).
      args.context.set(middlewareFailed, true);
      await nextOnce();
    }
    // Thrown after the page was prepared, the 404 goes to the nearest error boundary above this
    // route (its layout's), with the data of the routes above; the route's own data is dropped.
    return notFound();
  };
}

export function routeMiddleware(...names: string[]): MiddlewareFunction<Response>[] {
  return names.map((name) => {
    if (!Object.hasOwn(ROUTE_MIDDLEWARE, name)) throw new Error('Unknown route middleware');
    return guarded(name);
  });
}

/**
 * A loader or action of a route with named middleware: it never runs when the middleware
 * failed (a middleware may be a check; a page it could not prepare shows nothing of its own).
 */
export function afterRouteMiddleware<Args extends { context: Readonly<RouterContextProvider> }, Result>(
  handler: (args: Args) => Result,
): (args: Args) => Result {
  return (args) => {
    if (args.context.get(middlewareFailed)) notFound();
    return handler(args);
  };
}
