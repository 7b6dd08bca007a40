/**
 * Which pages the web server may serve from its page cache, and under which key (ADR 039).
 *
 * A page is cacheable when nothing about the visitor but their language, country and
 * experiment variation can be in it: a GET of a document with no query string (no `rc`, no
 * token, no `redirectUrl`, no forced variation…), no cookie but the language ones (no flow,
 * consent, member, admin or anonymous-id cookie), no X-Test-Now. Its key holds everything
 * else the HTML depends on: the path, the language, bot or browser (bots get the page in one
 * piece), the country, the consent script's hourly address, the features payload's revision
 * and the visitor's feature values, evaluated with the anonymous id this response will carry.
 * The page then renders with exactly those inputs (`presetExperimentsContext`), and may be
 * reused until its calendar changes (the promotion banner, its countdown, the footer's year).
 */
import { createHash } from 'node:crypto';
import { isbot } from 'isbot';
import type { RouterContextProvider } from 'react-router';
import type { FeaturePayload } from '@velvet/features/definitions';
import { clubDay, startOfClubDay } from './club-time.ts';
import { cacheBuster } from './consent-shared.ts';
import { pageLoadContext, presetExperimentsContext, requestInfoContext } from './context.ts';
import { experimentsFor, type ExperimentsInputs, type RequestHead } from './experiments.server.ts';
import type { ExperimentsData } from './experiments-shared.ts';
import { LANGUAGE_COOKIES, resolveLocale } from './i18n.ts';
import { nextBannerChange } from './promo.ts';

export interface PageCacheKey {
  key: string;
  /** The inputs of the render (the root loader uses them, `presetExperimentsContext`); a hit carries their anonymous id. */
  experiments: ExperimentsData;
  /** The calendar instant (ms) from which the page looks different (asked when the page is stored). */
  calendarValidUntil(): number;
  /** After the render: its page-load id (cut out of the stored page, like the nonce). */
  renderedSessionId(): string;
}

const revisions = new WeakMap<FeaturePayload, string>();

/** A payload's revision: its update time and a digest of its features (the relay hands out a new object on every change). */
function revisionOf(payload: FeaturePayload): string {
  let revision = revisions.get(payload);
  if (!revision) {
    revision = `${payload.dateUpdated ?? ''}:${createHash('sha256').update(JSON.stringify(payload.features)).digest('base64url').slice(0, 16)}`;
    revisions.set(payload, revision);
  }
  return revision;
}

/** Only the language cookies may come along: anything else may make the page someone's own. */
function onlyLanguageCookies(header: string | null): boolean {
  if (!header) return true;
  return header.split(';').every((part) => {
    const name = part.split('=')[0]?.trim() ?? '';
    return name === '' || LANGUAGE_COOKIES.includes(name);
  });
}

/** What a key is read from besides the request: the calendar's instant and the server's experiments inputs. */
export interface KeyInputs extends ExperimentsInputs {
  calendarNow: Date;
}

/** What the page cache's door knows of a request before Express: its method, address and headers. */
export interface CacheableRequest extends RequestHead {
  method: string;
  headers: RequestHead['headers'] & { has(name: string): boolean };
}

/**
 * The cache key of a request, or null when its page must be rendered for it alone. Pure and
 * at once: the door in front of Express (server/page-door.ts) and the page handler behind it
 * read the same key from the same request.
 */
export function cacheKeyOf(request: CacheableRequest, inputs: KeyInputs): Omit<PageCacheKey, 'renderedSessionId'> | null {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.search !== '' || url.pathname.endsWith('.data') || url.pathname.startsWith('/__')) return null;
  const { headers } = request;
  if (!onlyLanguageCookies(headers.get('cookie')) || headers.has('authorization') || headers.has('x-test-now')) return null;
  const { locale } = resolveLocale({ pathname: url.pathname, cookieHeader: headers.get('cookie'), langParam: null, acceptLanguage: headers.get('accept-language') });
  const experiments = experimentsFor(request, inputs);
  const userAgent = headers.get('user-agent');
  const now = inputs.calendarNow.getTime();
  const key = [
    url.pathname,
    locale,
    userAgent && isbot(userAgent) ? 'bot' : 'browser',
    experiments.attributes.applicationCountry,
    cacheBuster(new Date()),
    revisionOf(inputs.payload),
    experiments.enabled ? 'on' : 'off',
    JSON.stringify(experiments.values),
    // The experiments the page tracks the visitor into: a visitor outside an experiment sees the
    // control's values, but must never be counted in its control arm (issue 18 §5).
    JSON.stringify(experiments.assignments),
  ].join('\n');
  return {
    key,
    experiments,
    calendarValidUntil: () => Math.min(nextBannerChange(now), startOfClubDay({ year: clubDay(now).year + 1, month: 1, day: 1 })),
  };
}

/** The page handler's key: `cacheKeyOf` with the request's context; presets the render's experiments data. */
export async function pageCacheKey(request: Request, context: RouterContextProvider): Promise<PageCacheKey | null> {
  const info = context.get(requestInfoContext);
  const found = cacheKeyOf(request, {
    clientKey: info.features.clientKey,
    payload: await info.features.payload(),
    trustedCountryHeader: info.trustedCountryHeader,
    publicUrl: info.publicUrl,
    calendarNow: info.calendarNow,
  });
  if (!found) return null;
  context.set(presetExperimentsContext, found.experiments);
  return { ...found, renderedSessionId: () => context.get(pageLoadContext).sessionId };
}
