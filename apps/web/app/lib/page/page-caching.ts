/**
 * How long a shared HTTP cache in front (nginx, a CDN) may keep a public page (ADR 053), and the
 * header that says so. Short: a feature change or a new promotion reaches visitors within a
 * minute or two; stale-if-error keeps the shop window up while the origins are away.
 */
const SHARED_PAGE_MAX_AGE_S = 60;
const SHARED_PAGE_STALE_S = 60;
export const SHARED_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${SHARED_PAGE_MAX_AGE_S}, stale-while-revalidate=${SHARED_PAGE_STALE_S}, stale-if-error=86400`;
/**
 * An invitation's page (`?rc=`) is kept a few seconds only: its code can run out, be withdrawn or
 * be held at any moment (the registration re-checks it under the code's lock anyway).
 */
const INVITATION_PAGE_MAX_AGE_S = 10;
const INVITATION_PAGE_STALE_S = 20;
export const SHARED_INVITATION_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${INVITATION_PAGE_MAX_AGE_S}, stale-while-revalidate=${INVITATION_PAGE_STALE_S}, stale-if-error=3600`;
/** A page rendered for one visitor (a cookie, a form's answer, an API call in their name): never stored. */
export const PRIVATE_PAGE_CACHE_CONTROL = 'private, no-store';
/** The oldest a page from a shared cache can be when it is shown (its freshness plus its stale-while-revalidate). */
export const SHARED_PAGE_OLDEST_MS = (SHARED_PAGE_MAX_AGE_S + SHARED_PAGE_STALE_S) * 1000;
