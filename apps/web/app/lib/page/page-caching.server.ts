/**
 * What a shared HTTP cache may do with a page (ADR 053). A page is the same for every visitor
 * of its address — `public`, kept for a minute — when it belongs to a public family (the
 * landing page, the static pages, the 404) and nothing about this visitor went into it: a GET
 * answered 200 or 404 with no form's answer and no cookie set, no cookie but the language ones,
 * no credentials, no test calendar, no API call made in the visitor's name (an invitation's
 * check is shared only without a referrer; a failed call is the visitor's), and an experiment
 * bucket or variation a cache can key (X-Experiment-Bucket, X-Experiment-Variation) or no experiment at all; an invitation's page is
 * kept a few seconds only. Anything else is `private, no-store`. `Vary` names what the page
 * depends on besides its address: Cookie (a visitor with any cookie is answered afresh), the language for
 * unprefixed pages, and the trusted country header.
 */
import { readInvitation } from '@velvet/validation/links';
import { PRIVATE_PAGE_CACHE_CONTROL, SHARED_INVITATION_PAGE_CACHE_CONTROL, SHARED_PAGE_CACHE_CONTROL } from './page-caching.ts';
import { EXPERIMENT_BUCKET_HEADER, EXPERIMENT_VARIATION_HEADER, type ExperimentsData } from '../experiments/experiments-shared.ts';
import { TEST_NOW_HEADER } from '../calendar/club-time.ts';
import { LANGUAGE_COOKIES } from '../i18n/i18n.ts';

/** The route families whose pages may be shared (the leaf route id's part after the language key). */
const PUBLIC_FAMILIES = new Set(['landing', 'about-us', 'stores', 'membership-interest', 'error-404', 'catch-all']);

export interface DocumentFacts {
  request: Request;
  status: number;
  /** The response headers so far (a loader's Set-Cookie, the root's Vary). */
  headers: Headers;
  /** The leaf route's id, e.g. `de:landing`. */
  leafRouteId: string | undefined;
  /** A form's answer is part of the page. */
  answeredForm: boolean;
  /** The page's loaders called the API in the visitor's name, or a call failed. */
  calledApi: boolean;
  experiments: Pick<ExperimentsData, 'bucketSource' | 'assignments'> | undefined;
  trustedCountryHeader: string | undefined;
}

function onlyLanguageCookies(header: string | null): boolean {
  return (header ?? '').split(';').every((part) => {
    const name = part.split('=')[0]!.trim();
    return name === '' || LANGUAGE_COOKIES.has(name);
  });
}

function isSharedPage(facts: DocumentFacts): boolean {
  const { request, experiments } = facts;
  const family = facts.leafRouteId?.split(':').at(-1);
  return (
    request.method === 'GET' &&
    (facts.status === 200 || facts.status === 404) &&
    family !== undefined &&
    PUBLIC_FAMILIES.has(family) &&
    !facts.answeredForm &&
    !facts.calledApi &&
    !facts.headers.has('set-cookie') &&
    onlyLanguageCookies(request.headers.get('cookie')) &&
    !request.headers.has('authorization') &&
    !request.headers.has(TEST_NOW_HEADER) &&
    experiments !== undefined &&
    // Keyed by a variation the page was not rendered for (the payload changed in between): the visitor's own.
    !(request.headers.has(EXPERIMENT_VARIATION_HEADER) && experiments.bucketSource !== 'variation') &&
    (experiments.bucketSource === 'variation' || experiments.bucketSource === 'cache' || Object.keys(experiments.assignments).length === 0)
  );
}

/** Sets the page's Cache-Control and adds to its Vary what a shared copy depends on; true for a shared page. */
export function applyPageCaching(facts: DocumentFacts): boolean {
  const { headers } = facts;
  if (!isSharedPage(facts)) {
    headers.set('Cache-Control', PRIVATE_PAGE_CACHE_CONTROL);
    return false;
  }
  const invitation = readInvitation(new URL(facts.request.url).searchParams) !== null;
  headers.set('Cache-Control', invitation ? SHARED_INVITATION_PAGE_CACHE_CONTROL : SHARED_PAGE_CACHE_CONTROL);
  const vary = new Set((headers.get('vary') ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  vary.add('Cookie');
  if (facts.experiments?.bucketSource === 'cache') vary.add(EXPERIMENT_BUCKET_HEADER);
  if (facts.experiments?.bucketSource === 'variation') vary.add(EXPERIMENT_VARIATION_HEADER);
  if (facts.trustedCountryHeader) vary.add(facts.trustedCountryHeader);
  headers.set('Vary', [...vary].join(', '));
  return true;
}
