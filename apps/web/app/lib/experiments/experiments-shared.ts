/** What the root loader tells the page about feature flags and experiments (ADR 012). */
import type { FeaturePayload, JsonValue } from '@velvet/features/definitions';

/** Kept only after analytics consent: the anonymous id experiments hash on. */
export const ANONYMOUS_ID_COOKIE = 'acq_anonymous_id';
export const ANONYMOUS_ID_MAX_AGE_SECONDS = 182 * 86_400;
export const ANONYMOUS_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * What experiments hash on (ADR 053): the visitor's bucket, the first byte of their anonymous
 * id as two hex digits — the value of the `acqAnonymousId` attribute GrowthBook evaluates. A page
 * then exists in at most 256 versions, and a shared cache can keep them: for a visitor without
 * an id it draws the bucket itself and says so in this header (deploy/nginx), the origin renders
 * that bucket, and the id the browser mints (and keeps after consent) starts with it, so the
 * assignment sticks.
 */
export const EXPERIMENT_BUCKET_HEADER = 'x-experiment-bucket';
export const BUCKET_PATTERN = /^[0-9a-f]{2}$/;

/** Where a page's bucket came from: the shared cache in front, the visitor's kept id, or drawn for this response. */
export type BucketSource = 'cache' | 'cookie' | 'drawn';

export interface ExperimentsData {
  clientKey: string;
  /** The payload the server rendered with; the browser starts from the very same one. */
  payload: FeaturePayload;
  /** `acqAnonymousId` is the visitor's bucket (two hex digits), never the id itself. */
  attributes: { acqAnonymousId: string; applicationCountry: string };
  /** False with ?disablegb=true: everyone sees control, nothing is tracked. */
  enabled: boolean;
  bucketSource: BucketSource;
  /**
   * Every feature's value for this visitor and URL, evaluated by the server with GrowthBook
   * (null: no value, the component's fallback applies). The page renders and hydrates with
   * these; the browser loads the SDK only after hydration (ADR 037).
   */
  values: Record<string, JsonValue>;
  /**
   * The experiments GrowthBook puts the visitor in while evaluating those values, by feature
   * (what its trackingCallback would report): the page tracks `assign_experiment` for the ones
   * its components evaluate, from the first render on, before the SDK is there.
   */
  assignments: Record<string, Assignment>;
}

/** An experiment and the variation a visitor is in (spec §3: assign_experiment). */
export interface Assignment {
  experimentId: string;
  variationId: string;
}
