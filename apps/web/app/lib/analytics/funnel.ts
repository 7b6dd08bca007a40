/**
 * The first-party funnel (ADR 011): every tracked event also goes, without personal data,
 * to our own endpoint (/entrance/funnel → the API's recordFunnelEvents), whether or not the
 * visitor granted analytics. The only identifier is a random id made for this page load and
 * kept in memory: nothing is stored in or read from the browser for it. Events are sent in
 * batches with navigator.sendBeacon: a second after the last one, at 20, and when the page
 * is hidden or left. A beacon cannot carry headers, so each names the page load's id and the
 * page's path in its body, for the door's call to the API (spec §7.2, ADR 022); the API never
 * stores them with the events, which keep the funnel's own id (ADR 011).
 */
import { isLocale } from '@velvet/i18n/locales';
import { LANDING_SLUG_PATTERN, MAX_FUNNEL_BATCH } from '@velvet/validation/funnel';
import { INVITATION_PARAMS } from '@velvet/validation/links';
import { LANDING_SLUGS } from '../../screens.ts';
import { FUNNEL_PATH } from '../consent/consent-shared.ts';
import { consentState } from '../consent/consent.ts';
import { currentPagePath, pageLoadSessionId, uuid } from '../page/page-load.ts';

export interface FunnelBeaconEvent {
  name: string;
  language?: string;
  variant?: string;
  registrationCode?: string;
  landingSlug?: string;
  analyticsConsent: boolean;
}

interface FunnelBeacon {
  /** The funnel's own id of this page load, stored with the events (ADR 011). */
  sessionId: string;
  /** The page load's X-Session-ID (ADR 022): the door's API call carries it, nothing stores it. */
  pageLoadId: string;
  /** The page's path, the door's X-Source-Page. */
  page: string;
  country?: string;
  events: FunnelBeaconEvent[];
}

const FLUSH_AFTER_MS = 1000;
const FLUSH_AT = 20;

let sessionId: string | undefined;
let queue: FunnelBeaconEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

/** The campaign slug of the page: /vip, /de/vip, or ?slug=vip on the registration pages. */
export function landingSlugOf(url: URL): string | undefined {
  const segments = url.pathname.split('/').filter(Boolean);
  const first = segments[0] && isLocale(segments[0]) ? segments[1] : segments[0];
  const known = (value: string | null | undefined): value is string =>
    Boolean(value && (LANDING_SLUGS as readonly string[]).includes(value) && LANDING_SLUG_PATTERN.test(value));
  if (segments.length <= 2 && known(first)) return first;
  const fromQuery = url.searchParams.get('slug');
  return known(fromQuery) ? fromQuery : undefined;
}

export function funnelEventFor(name: string, variant: string | undefined, url: URL, language: string, analyticsConsent: boolean): FunnelBeaconEvent {
  const registrationCode = url.searchParams.get(INVITATION_PARAMS.code)?.trim().slice(0, 64) || undefined;
  const landingSlug = landingSlugOf(url);
  return {
    name,
    ...(isLocale(language) ? { language } : {}),
    ...(variant ? { variant } : {}),
    ...(registrationCode ? { registrationCode } : {}),
    ...(landingSlug ? { landingSlug } : {}),
    analyticsConsent,
  };
}

export function sendFunnelEvent(name: string, variant?: string): void {
  if (typeof window === 'undefined') return;
  sessionId ??= uuid();
  if (!listening) {
    listening = true;
    window.addEventListener('pagehide', flushFunnel);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flushFunnel();
    });
  }
  queue.push(funnelEventFor(name, variant, new URL(window.location.href), document.documentElement.lang, consentState().analytics));
  clearTimeout(timer);
  if (queue.length >= FLUSH_AT) flushFunnel();
  else timer = setTimeout(flushFunnel, FLUSH_AFTER_MS);
}

function flushFunnel(): void {
  clearTimeout(timer);
  if (queue.length === 0 || !sessionId) return;
  const events = queue.slice(0, MAX_FUNNEL_BATCH);
  queue = queue.slice(MAX_FUNNEL_BATCH);
  const country = window.__ACQ_CMP__?.data.applicationCountry;
  const body = JSON.stringify({ sessionId, pageLoadId: pageLoadSessionId(), page: currentPagePath(), ...(country ? { country } : {}), events } satisfies FunnelBeacon);
  const sent = typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(FUNNEL_PATH, new Blob([body], { type: 'application/json' }));
  if (!sent) {
    void fetch(FUNNEL_PATH, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(() => undefined);
  }
  if (queue.length > 0) flushFunnel();
}
