/**
 * `assign_experiment` (spec §3), once per experiment and variation on a page: the server's
 * assignments (tracked while the page's components evaluate their features, before the SDK is
 * there: `experiments.tsx`) and GrowthBook's trackingCallback (`experiments-sdk.ts`) both
 * report through here, so a visitor the SDK puts in the same variation is not counted twice.
 */
import { track } from '../analytics/analytics.ts';
import { ANONYMOUS_ID_COOKIE, ANONYMOUS_ID_PATTERN, type ExperimentsData } from './experiments-shared.ts';
import { readCookie } from '../i18n/i18n.ts';
import { uuid } from '../page/page-load.ts';

const tracked = new Set<string>();
let anonymousId: string | undefined;
let pageBucket: string | undefined;

/**
 * The bucket this page load evaluates and tracks with: the one the page was rendered for, or on
 * a page shared by a variation's buckets (ADR 053) the kept id's when it is one of them, else
 * one of them drawn here — each equally likely, so visitors spread over the buckets as if the
 * cache had drawn for each.
 */
export function bucketOf(data: Pick<ExperimentsData, 'attributes' | 'buckets'>): string {
  if (data.attributes.acqAnonymousId) return data.attributes.acqAnonymousId;
  if (pageBucket) return pageBucket;
  const bits = data.buckets ?? '';
  const members = Array.from({ length: 256 }, (_, index) => index).filter((index) => (Number.parseInt(bits.slice(2 * (index >> 3), 2 * (index >> 3) + 2), 16) >> (index & 7)) & 1);
  const hex = (index: number) => index.toString(16).padStart(2, '0');
  const kept = readCookie(document.cookie, ANONYMOUS_ID_COOKIE)?.slice(0, 2);
  const candidates = members.length > 0 ? members.map(hex) : Array.from({ length: 256 }, (_, index) => hex(index));
  pageBucket = kept && candidates.includes(kept) ? kept : candidates[crypto.getRandomValues(new Uint32Array(1))[0]! % candidates.length]!;
  return pageBucket;
}

/**
 * The visitor's anonymous id (ADR 053), minted in the browser: the one kept in the cookie when
 * it belongs to the page's bucket, else a new v4 UUID starting with the bucket (its first byte
 * is random in any v4 UUID), so that kept after consent it brings the visitor back to the bucket.
 */
export function browserAnonymousId(bucket: string): string {
  if (anonymousId) return anonymousId;
  const kept = readCookie(document.cookie, ANONYMOUS_ID_COOKIE);
  anonymousId = kept && ANONYMOUS_ID_PATTERN.test(kept) && kept.startsWith(bucket) ? kept : `${bucket}${uuid().slice(2)}`;
  return anonymousId;
}

export function trackAssignment(experimentId: string, variationId: string, bucket: string): void {
  const key = `${experimentId}\n${variationId}`;
  if (tracked.has(key)) return;
  tracked.add(key);
  track({ event: 'assign_experiment', experiment_id: experimentId, variation_id: variationId, acq_anonymous_id: browserAnonymousId(bucket) });
}
