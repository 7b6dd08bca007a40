/**
 * What the web server itself answers when React Router cannot: addresses that cannot even
 * be decoded, and errors no route caught. Visitors get the site's words in their language,
 * never Express's English page with a stack trace and server paths.
 */
import { catalogs } from '@velvet/i18n/catalogs';
import { unusableSiteHeader } from '@velvet/validation/request-head';
import type express from 'express';
import { localizedPath, resolveLocale } from '../app/lib/i18n/i18n.ts';
import { sameSitePath } from '../app/lib/same-site-path.ts';

/**
 * True when every percent-escape of `pathname` decodes (well-formed and UTF-8). The result is
 * used, not only the throw: a bundler may drop a call of a pure built-in whose result is unused
 * (Rolldown did, and `/%` reached the router: issue 19's one bundle).
 */
function decodable(pathname: string): boolean {
  try {
    return typeof decodeURIComponent(pathname) === 'string';
  } catch {
    return false;
  }
}

/**
 * `/de/%ZZ` or `/%C3%28` name no page, but Express's router would answer them with a 400
 * and a stack trace. They are sent to their well-formed spelling, percent signs escaped
 * (`/de/%25ZZ`): the literal text the visitor sent, which the pages answer with the
 * translated 404 in the prefix's language, the browser and the server reading one address.
 */
export const malformedPaths: express.RequestHandler = (req, res, next) => {
  const queryAt = req.url.indexOf('?');
  const pathname = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  if (decodable(pathname)) {
    next();
    return;
  }
  const wellFormed = sameSitePath(pathname.replaceAll('%', '%25') + (queryAt === -1 ? '' : req.url.slice(queryAt)));
  res.redirect(req.method === 'GET' || req.method === 'HEAD' ? 301 : 308, wellFormed);
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function visitorLocale(req: express.Request) {
  return resolveLocale({
    pathname: req.path,
    cookieHeader: req.get('cookie'),
    langParam: typeof req.query.lang === 'string' ? req.query.lang : null,
    acceptLanguage: req.get('accept-language'),
  });
}

/** A short page in the visitor's language: the status, a heading, a sentence and the way back to the start. */
function sendPlainPage(req: express.Request, res: express.Response, status: number, titleId: string, messageId: string) {
  const { locale, prefix } = visitorLocale(req);
  const m = catalogs[locale];
  const say = (id: string) => escapeHtml(m[id] ?? catalogs.en[id] ?? id);
  res
    .status(status)
    .type('html')
    .setHeader('Cache-Control', 'no-store')
    .send(
      `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${say(titleId)} — ${say('brand.name')}</title></head><body><main>` +
        `<p>${status}</p><h1>${say(titleId)}</h1><p>${say(messageId)}</p>` +
        `<p><a href="${localizedPath(prefix, '/')}">${say('nav.backToStart')}</a></p></main></body></html>`,
    );
}

/** What the web server answers a request body it will not read (ADR 028), in the visitor's language. */
export const refusedBody = {
  /** 413: over the limit, whatever the framing. */
  tooLarge: (req: express.Request, res: express.Response) => sendPlainPage(req, res, 413, 'error.bodyTooLarge.title', 'error.bodyTooLarge.message'),
  /** 415: a page's form sent as anything but a form (JSON, text…). */
  notAForm: (req: express.Request, res: express.Response) => sendPlainPage(req, res, 415, 'error.notAForm.title', 'error.notAForm.message'),
  /** 400: a form body that does not parse. */
  malformed: (req: express.Request, res: express.Response) => sendPlainPage(req, res, 400, 'error.malformedForm.title', 'error.malformedForm.message'),
};

/**
 * A request whose Host, trusted X-Forwarded-Host or Origin cannot name a site (`a<b`, `a/b`…)
 * gets the 400 page before any handler builds an address from it (issue 18 §1): no 500, no
 * stack, no error report — a client's mistake, not ours.
 */
export function refuseUnusableSiteHeaders(trustProxy: boolean): express.RequestHandler {
  return (req, res, next) => {
    if (unusableSiteHeader((name) => req.get(name), trustProxy)) sendPlainPage(req, res, 400, 'error.malformedForm.title', 'error.malformedForm.message');
    else next();
  };
}

/** The last resort after the pages: the generic message (spec §8) in the visitor's language. */
export const lastResortErrorPage: express.ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) {
    next(error);
    return;
  }
  sendPlainPage(req, res, 500, 'error.internal', 'error.generic');
};
