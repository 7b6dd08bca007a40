/**
 * Named route middleware (spec §2): a route lists middleware by name; an unknown name is
 * a programming error ("Unknown route middleware").
 */
import type { MiddlewareFunction } from 'react-router';
import { langCookie } from '../i18n/i18n.ts';
import { localeContext, requestInfoContext } from './context.ts';

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

const registry: Record<string, MiddlewareFunction<Response>> = {
  language: languageMiddleware,
};

export function routeMiddleware(...names: string[]): MiddlewareFunction<Response>[] {
  return names.map((name) => {
    const entry = registry[name];
    if (!entry) throw new Error('Unknown route middleware');
    return entry;
  });
}
