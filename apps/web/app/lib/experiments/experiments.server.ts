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
 */
import { randomBytes } from 'node:crypto';
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
  type Assignment,
  type BucketSource,
  type ExperimentsData,
} from './experiments-shared.ts';
import { readCookie } from '../i18n/i18n.ts';

export function testingDisabled(url: URL): boolean {
  return url.searchParams.get(DISABLE_PARAM)?.toLowerCase() === 'true';
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
  const fromCache = request.headers.get(EXPERIMENT_BUCKET_HEADER)?.toLowerCase();
  // The cache's bucket first (it keys the page by it), else the kept id's, else one drawn now.
  const [bucket, bucketSource]: [string, BucketSource] =
    fromCache && BUCKET_PATTERN.test(fromCache) ? [fromCache, 'cache'] : usable ? [stored.slice(0, 2), 'cookie'] : [randomBytes(1).toString('hex'), 'drawn'];
  const url = new URL(request.url);
  const attributes = {
    acqAnonymousId: bucket,
    applicationCountry: requestCountry(request, trustedCountryHeader),
  };
  const enabled = !testingDisabled(url);
  return {
    clientKey,
    payload,
    attributes,
    enabled,
    bucketSource,
    ...featureValues(payload, { clientKey, attributes, enabled, url: `${publicUrl}${url.pathname}${url.search}` }),
  };
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
