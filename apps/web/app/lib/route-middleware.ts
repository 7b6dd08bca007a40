/**
 * Named route middleware (spec §2): a route lists middleware by name; an unknown name is
 * a programming error ("Unknown route middleware"), and a guard that answers false stops
 * the request with a 404 "Page Not Found".
 */
import { data, type MiddlewareFunction } from 'react-router';
import { langCookie, readablePath } from './i18n.ts';
import { localeContext, requestInfoContext } from './context.ts';

type Guard = (args: Parameters<MiddlewareFunction<Response>>[0]) => boolean | Promise<boolean>;

/**
 * language: a link into a prefixed page (e.g. the activation link of a German email)
 * remembers that language for the visitor's next unprefixed visit.
 */
const languageMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
  const response = await next();
  const { prefix, locale } = context.get(localeContext);
  if (prefix) {
    response.headers.append('Set-Cookie', langCookie(locale, context.get(requestInfoContext).secureCookies));
  }
  return response;
};

const registry: Record<string, MiddlewareFunction<Response> | Guard> = {
  language: languageMiddleware,
};

const guards = new Set<string>();

export function registerGuard(name: string, guard: Guard): void {
  registry[name] = guard;
  guards.add(name);
}

export function routeMiddleware(...names: string[]): MiddlewareFunction<Response>[] {
  return names.map((name) => {
    const entry = registry[name];
    if (!entry) throw new Error('Unknown route middleware');
    if (!guards.has(name)) return entry as MiddlewareFunction<Response>;
    const guard = entry as Guard;
    return async (args, next) => {
      let allowed: boolean;
      try {
        allowed = await guard(args);
      } catch {
        allowed = false;
      }
      if (!allowed) throw data({ path: readablePath(new URL(args.request.url).pathname) }, { status: 404, statusText: 'Page Not Found' });
      return next();
    };
  });
}
