/**
 * `assign_experiment` (spec §3), once per experiment and variation on a page: the server's
 * assignments (tracked while the page's components evaluate their features, before the SDK is
 * there: `experiments.tsx`) and GrowthBook's trackingCallback (`experiments-sdk.ts`) both
 * report through here, so a visitor the SDK puts in the same variation is not counted twice.
 */
import { track } from './analytics.ts';

const tracked = new Set<string>();

export function trackAssignment(experimentId: string, variationId: string, anonymousId: string): void {
  const key = `${experimentId}\n${variationId}`;
  if (tracked.has(key)) return;
  tracked.add(key);
  track({ event: 'assign_experiment', experiment_id: experimentId, variation_id: variationId, acq_anonymous_id: anonymousId });
}
