/**
 * The root loader's part of feature flags and A/B tests (ADR 012): the payload the web
 * server holds, the visitor's attributes and whether testing is on for this page.
 *
 * Experiments hash on the visitor's bucket (ADR 053), never on a per-visitor value the page
 * would carry: the bucket a shared cache in front drew (X-Experiment-Bucket), else the first
 * byte of the anonymous id the visitor keeps after analytics consent, else one drawn for this
 * response. The browser evaluates with the same bucket, so hydration matches, and mints its
 * anonymous id starting with it; only once the visitor granted analytics does it keep the id
 * in a first-party cookie — from then on the assignment is sticky. A cookie whose visitor has
 * no analytics consent is ignored.
 *
 * A page is the same for all the buckets that get the same values and experiments: its
 * variation. The cache in front asks which variation a bucket gets (`variationOf`), keys the
 * page by it and names it (X-Experiment-Variation); that page names the variation's buckets
 * rather than one, and the browser takes one of them (`bucketOf`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { GrowthBook, type FeatureApiResponse } from '@growthbook/growthbook-react';
import type { FeaturePayload, JsonValue } from '@velvet/features/definitions';
import { DISABLE_PARAM } from '@velvet/features/constants';
import type { RouterContextProvider } from 'react-router';
import { choiceFromCookie } from '../consent/consent-shared.ts';
import { requestInfoContext } from '../page/context.ts';
import { requestCountry } from '../i18n/country.ts';
import {
  ANONYMOUS_ID_COOKIE,
  ANONYMOUS_ID_PATTERN,
  BUCKET_PATTERN,
  EXPERIMENT_BUCKET_HEADER,
  EXPERIMENT_VARIATION_HEADER,
  type Assignment,
  type BucketSource,
  type ExperimentsData,
} from './experiments-shared.ts';
import { readCookie } from '../i18n/i18n.ts';
import { INVITATION_PARAMS } from '@velvet/validation/links';

export function testingDisabled(url: URL): boolean {
  return url.searchParams.get(DISABLE_PARAM)?.toLowerCase() === 'true';
}

/** How the SDK evaluates at `address` (the page's or the one the cache asks about): its ?KEY=N forcing and the testing switch. */
function evaluationOptions(clientKey: string, publicUrl: string, address: URL) {
  return { clientKey, enabled: !testingDisabled(address), url: `${publicUrl}${address.pathname}${address.search}` };
}

export async function experimentsData(request: Request, context: Readonly<RouterContextProvider>): Promise<ExperimentsData> {
  const { features, trustedCountryHeader, publicUrl } = context.get(requestInfoContext);
  const { clientKey } = features;
  // At once, never waiting for the API (ADR 028): the relay's last payload, else the versioned file.
  const payload = await features.payload();
  const cookieHeader = request.headers.get('cookie') ?? '';
  const stored = readCookie(cookieHeader, ANONYMOUS_ID_COOKIE);
  const consented = choiceFromCookie(cookieHeader)?.analytics === true;
  const usable = consented && stored !== undefined && ANONYMOUS_ID_PATTERN.test(stored);
  const fromCache = cacheBucket(request);
  // The cache's bucket first (it keys the page by it), else the kept id's, else one drawn now.
  const [bucket, bucketSource]: [string, BucketSource] = fromCache ? [fromCache, 'cache'] : usable ? [stored.slice(0, 2), 'cookie'] : [randomBytes(1).toString('hex'), 'drawn'];
  const url = new URL(request.url);
  const applicationCountry = requestCountry(request, trustedCountryHeader);
  const options = evaluationOptions(clientKey, publicUrl, url);
  const evaluated = featureValues(payload, { ...options, attributes: { acqAnonymousId: bucket, applicationCountry } });
  const base = { clientKey, payload, enabled: options.enabled, ...evaluated };
  const variation = request.headers.get(EXPERIMENT_VARIATION_HEADER);
  if (fromCache && variation !== null) {
    // The cache keys this page by the variation it named: the page names that variation's
    // buckets instead of this one. A variation that is no longer this bucket's (the payload
    // changed in between) makes the page this visitor's own: not kept under a wrong name.
    if (variation !== variationKey(evaluated)) return { ...base, attributes: { acqAnonymousId: bucket, applicationCountry }, bucketSource: 'drawn' };
    return { ...base, attributes: { applicationCountry }, bucketSource: 'variation', buckets: variationBuckets(payload, options, applicationCountry, variation) };
  }
  return { ...base, attributes: { acqAnonymousId: bucket, applicationCountry }, bucketSource };
}

type HeadersOnly = { url: string; headers: { get(name: string): string | null } };

/** The bucket the shared cache in front drew or took from the kept id (X-Experiment-Bucket), if any. */
function cacheBucket(request: HeadersOnly): string | undefined {
  const header = request.headers.get(EXPERIMENT_BUCKET_HEADER)?.toLowerCase();
  return header && BUCKET_PATTERN.test(header) ? header : undefined;
}

/**
 * The name of what a bucket gets on a page (ADR 053): every feature's value and every
 * experiment's variation, hashed. Buckets with the same name get the same page.
 */
function variationKey({ values, assignments }: Pick<ExperimentsData, 'values' | 'assignments'>): string {
  return createHash('sha256').update(JSON.stringify([values, assignments])).digest('base64url').slice(0, 16);
}

type EvaluationOptions = Omit<Parameters<typeof featureValues>[1], 'attributes'>;

const BUCKETS = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, '0'));
/** Per payload (a new one from the stream starts afresh): the buckets of each variation, by country, switch and address. */
const bucketsByPayload = new WeakMap<FeaturePayload, Map<string, string>>();
const KEPT_BUCKET_SETS = 1000;

/**
 * The buckets whose visitors get `variation` on this page, as 64 hex digits (a bit a bucket).
 * 256 evaluations (about 4 ms) the first time for a payload, country, testing switch and
 * address; an invitation's code is not part of what GrowthBook reads, so every invitation page
 * of a language shares the answer.
 */
function variationBuckets(payload: FeaturePayload, options: EvaluationOptions, applicationCountry: string, variation: string): string {
  const address = new URL(options.url);
  for (const name of Object.values(INVITATION_PARAMS)) address.searchParams.delete(name);
  const key = `${variation}|${applicationCountry}|${options.enabled}|${address.href}`;
  let kept = bucketsByPayload.get(payload);
  if (!kept) bucketsByPayload.set(payload, (kept = new Map()));
  const known = kept.get(key);
  if (known) return known;
  const bits = new Uint8Array(32);
  for (const [index, bucket] of BUCKETS.entries()) {
    if (variationKey(featureValues(payload, { ...options, attributes: { acqAnonymousId: bucket, applicationCountry } })) === variation) bits[index >> 3]! |= 1 << (index & 7);
  }
  const buckets = Buffer.from(bits).toString('hex');
  if (kept.size >= KEPT_BUCKET_SETS) kept.clear();
  kept.set(key, buckets);
  return buckets;
}

/**
 * What the shared cache in front asks before it looks a page up (EXPERIMENT_VARIATION_PATH,
 * deploy/nginx): the variation the bucket it drew gets at `address`; undefined without a bucket.
 */
export function variationOf(
  request: HeadersOnly,
  address: URL,
  { features, payload, publicUrl, trustedCountryHeader }: { features: { clientKey: string }; payload: FeaturePayload; publicUrl: string; trustedCountryHeader: string | undefined },
): string | undefined {
  const bucket = cacheBucket(request);
  if (!bucket) return undefined;
  const attributes = { acqAnonymousId: bucket, applicationCountry: requestCountry(request, trustedCountryHeader) };
  return variationKey(featureValues(payload, { ...evaluationOptions(features.clientKey, publicUrl, address), attributes }));
}

/**
 * Every feature of the payload, evaluated as the browser's SDK will: the same attributes and
 * the page's address (for ?KEY=N forcing), no stream; what the SDK would track is noted per
 * feature (the browser tracks it when a component evaluates the feature).
 */
export function featureValues(
  payload: FeaturePayload,
  options: { clientKey: string; attributes: Record<string, string>; enabled: boolean; url: string },
): Pick<ExperimentsData, 'values' | 'assignments'> {
  const assignments: Record<string, Assignment> = {};
  const growthbook = new GrowthBook({
    clientKey: options.clientKey,
    attributes: { ...options.attributes },
    enabled: options.enabled,
    url: options.url,
    trackingCallback: (experiment, result) => {
      if (result.featureId) assignments[result.featureId] = { experimentId: experiment.key, variationId: result.key };
    },
  });
  growthbook.initSync({ payload: payload as unknown as FeatureApiResponse });
  const values = Object.fromEntries(Object.keys(payload.features).map((key) => [key, growthbook.getFeatureValue(key, null as never) as JsonValue]));
  growthbook.destroy();
  return { values, assignments };
}
