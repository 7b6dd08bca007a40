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

/**
 * Fewer copies (ADR 053's amendment): a page is the same for every bucket that gets the same
 * feature values and experiments, its *variation*. The cache in front asks the origin which
 * variation a bucket gets on an address (`EXPERIMENT_VARIATION_PATH`, kept like the page),
 * keys the page by that and names it in this header; the origin renders the page without the
 * bucket in it, naming instead every bucket of the variation (`buckets`), and the browser takes
 * one of them. A page then exists in one copy per variation (two for a 50/50 test) instead of 256.
 */
export const EXPERIMENT_VARIATION_HEADER = 'x-experiment-variation';
export const EXPERIMENT_VARIATION_PATH = '/__experiments/variation';

/**
 * Where a page's bucket came from: the variation the shared cache in front keys (the page names
 * the variation's buckets, not one), the bucket it keys, the visitor's kept id, or drawn for this response.
 */
export type BucketSource = 'variation' | 'cache' | 'cookie' | 'drawn';

export interface ExperimentsData {
  clientKey: string;
  /** The payload the server rendered with; the browser starts from the very same one. */
  payload: FeaturePayload;
  /**
   * `acqAnonymousId` is the visitor's bucket (two hex digits), never the id itself; absent on a
   * page shared by a variation's buckets (the browser takes one of `buckets`).
   */
  attributes: { acqAnonymousId?: string; applicationCountry: string };
  /** With `bucketSource: 'variation'`: the 256 buckets as 64 hex digits, a bit set for each whose visitors get this page. */
  buckets?: string;
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
