/**
 * The route table names each screen once, after an optional language segment
 * (`:lang?/about-us`; ADR 059). React Router cannot say that the segment must be one of the
 * seven languages, so `/xx/about-us` matches about-us with `lang` = "xx": no page of the site.
 * Each layout's middleware answers such a path with the 404 "Page Not Found" inside the site's
 * frame, as the catch-all does, and nothing the matched page would do happens: its loader or
 * action runs (the routes above it are prepared as usual, so the 404 has the visitor's language
 * and the frame) but every API call is refused (`strayPathContext`), and its answer is replaced.
 * One segment only (`/vip`, `/xx`) is the landing's optional slug, which checks it itself.
 */
import { data, type MiddlewareFunction, type Params } from 'react-router';
import { isLocale } from '@velvet/i18n/locales';
import { strayPathContext } from '../page/context.ts';
import { pagePath, readablePath } from './i18n.ts';

/** Whether the path's first segment was taken for a language it does not name. */
export function strayLanguageSegment(params: Params, pathname: string): boolean {
  const { lang } = params;
  if (lang === undefined || isLocale(lang)) return false;
  return pagePath(pathname).split('/').filter(Boolean).length > 1;
}

export const languageSegment: MiddlewareFunction<Response> = async ({ params, request, context }, next) => {
  const url = new URL(request.url);
  if (!strayLanguageSegment(params, url.pathname)) return next();
  context.set(strayPathContext, true);
  await next();
  // The site's one 404, naming the path as typed (spec §2 "Page Not Found: {path}").
  throw data({ path: readablePath(url.pathname) }, { status: 404, statusText: 'Page Not Found' });
};
