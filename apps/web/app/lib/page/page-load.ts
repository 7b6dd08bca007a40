/**
 * One page load, one session id (spec §7.2 "X-Session-ID (one UUID per page load)"; ADR 022).
 * A document whose loaders called the API carries the id those calls used
 * (`<meta name="acq-session-id">`, and the page is then private: ADR 053); any other page
 * carries none — it may come from a shared cache — and the browser mints the page load's id.
 * The browser sends it on every request of that page load that reaches the API — the router's
 * `.data` requests of client-side navigations and submissions, the proof-of-work challenge, the
 * consent record, the funnel's beacons, and graphql-ws's connection_init — with the page's path
 * where the server cannot know it (`pageLoadHeaders`), and the server uses both for its calls.
 */

export const SESSION_HEADER = 'X-Session-ID';
export const SOURCE_PAGE_HEADER = 'X-Source-Page';
export const CORRELATION_HEADER = 'X-Correlation-ID';
/** The meta element that carries the page load's id into the browser. */
export const SESSION_META = 'acq-session-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A page-load id as the server mints it (a v4 UUID, lower-case); anything else is not one. */
export function isSessionId(value: string | null | undefined): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** A v4 UUID; `crypto.randomUUID` exists only in secure contexts, getRandomValues everywhere. */
export function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new correlation id for one call (spec §7.2: prefix plus new UUID). */
export function correlationId(): string {
  return `acq-web-${uuid()}`;
}

/** The id the document names, if it names one. Browser only. */
export function documentSessionId(): string | null {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${SESSION_META}"]`)?.content;
  return isSessionId(content) ? content.toLowerCase() : null;
}

/** Where the page load's id is kept: on the window, shared by the page's bundle and the consent script's (cmp/). */
const PAGE_LOAD_KEY = Symbol.for('velvet.page-load-id');

/** This page load's id: the one the document names, else one minted here, once. Browser only. */
export function pageLoadSessionId(): string {
  const store = window as unknown as Record<symbol, string | undefined>;
  store[PAGE_LOAD_KEY] ??= documentSessionId() ?? uuid();
  return store[PAGE_LOAD_KEY];
}

/** At most this long: a page's path as the browser's `location.pathname` gives it (percent-encoded). */
const MAX_PAGE_PATH = 512;
/** A path of one of our pages, percent-encoded (RFC 3986's path characters only): `/de/registration/formstarted`. */
const PAGE_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
/** Addresses that are no page: the doors and resources the pages' scripts call. */
const NOT_A_PAGE = /^\/(entrance|form-challenge|error-reports|healthz|__manifest)(\/|$)|\.data$/;

/**
 * The page's path a browser named (X-Source-Page, or a beacon's `page`), if it names one of our
 * pages' paths; a hostile or mistaken value is no path (the server then uses what it knows).
 */
export function pagePathSent(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_PAGE_PATH || !PAGE_PATH.test(value) || NOT_A_PAGE.test(value)) return null;
  return value;
}

/** The page's path as the browser shows it. Browser only. */
export function currentPagePath(): string {
  return window.location.pathname || '/';
}

/**
 * What a request of this page load's own scripts carries besides the router's (spec §7.2): the
 * page load's id and the page's path — a request to /form-challenge or /entrance names no page
 * by its address. Browser only.
 */
export function pageLoadHeaders(): Record<string, string> {
  return { [SESSION_HEADER]: pageLoadSessionId(), [SOURCE_PAGE_HEADER]: currentPagePath() };
}

/** Whether a request is one of the router's own: a loader/action `.data` request or route discovery, on our origin. */
export function isRouterRequest(url: URL, origin: string): boolean {
  return url.origin === origin && (url.pathname.endsWith('.data') || url.pathname === '/__manifest');
}

/**
 * Adds the page load's id to the router's requests. React Router 8.5 has the hook made for
 * this (`<HydratedRouter unstable_fetch>`), but its build tools (@react-router/dev, which must
 * match react-router's exact version) are not available for 8.5 here, so on 8.4 the router's
 * requests go through `window.fetch`, and this wraps it — for the router's requests only
 * (`.data` and `/__manifest` on our origin); every other request passes untouched. Moving to
 * `unstable_fetch` is one line in entry.client.tsx (ADR 022).
 */
export function sendSessionIdWithRouterRequests(): void {
  const sessionId = pageLoadSessionId();
  if (typeof window.fetch !== 'function') return;
  const original = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input, window.location.href);
    if (!isRouterRequest(url, window.location.origin)) return original(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set(SESSION_HEADER, sessionId);
    return original(input, { ...init, headers });
  };
}
