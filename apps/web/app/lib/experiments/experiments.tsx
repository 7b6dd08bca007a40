/**
 * Feature flags and A/B tests (ADR 012, 037), the same on the server and in the browser: the
 * root loader evaluates every feature with GrowthBook's SDK for this visitor, this request's
 * URL (for ?KEY=N forcing) and the payload the web server holds (`experiments.server.ts`), so
 * the first paint already shows the assigned variation, and the page hydrates with those very
 * values (no flicker). GrowthBook's SDK itself is not part of the first load: after
 * hydration the provider loads it (`experiments-sdk.ts`), which starts from the same payload,
 * attributes and URL, keeps the payload live through the stream and reports assignments as
 * `assign_experiment` events when the page's components evaluate their features with it.
 * `?disablegb=true` turns testing off for the page.
 */
import type { JsonValue } from '@velvet/features/definitions';
import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { bucketOf, trackAssignment } from './experiment-assignments.ts';
import type { ExperimentsData } from './experiments-shared.ts';

/** What the components ask: a feature's value (GrowthBook's `getFeatureValue`). */
interface FeatureSource {
  getFeatureValue(key: string, fallback: never): unknown;
  setRenderer?(renderer: () => void): void;
}

/**
 * The page's features: the server's values until the SDK is running, then the SDK (which
 * re-renders the page's components when the stream brings a new payload). Also the
 * A/B-tests-loading flag of spec §4: true until the visitor is in their experiments — which
 * the server's values already settle — or setup failed, or a redirect experiment navigates.
 */
export class Features {
  private sdk: FeatureSource | null = null;
  private loading: boolean;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly data: ExperimentsData) {
    this.loading = false;
  }

  value<T extends JsonValue>(key: string, fallback: T): T {
    if (this.sdk) return this.sdk.getFeatureValue(key, fallback as never) as T;
    // As GrowthBook does while a component evaluates a feature: the assignment is tracked then.
    const assignment = this.data.assignments?.[key];
    if (assignment && typeof window !== 'undefined') trackAssignment(assignment.experimentId, assignment.variationId, bucketOf(this.data));
    const stored = this.data.values?.[key];
    return stored === undefined || stored === null ? fallback : (stored as T);
  }

  /**
   * The SDK takes over. Each part that reads a feature asks the SDK for its value and renders
   * again only when it differs (`useFeatureValue`): the server's values are normally the SDK's.
   */
  attach(sdk: FeatureSource): void {
    this.sdk = sdk;
    sdk.setRenderer?.(this.changed);
    this.changed();
  }

  end = (_why: 'ready' | 'failed' | 'redirect') => {
    if (!this.loading) return;
    this.loading = false;
    this.changed();
  };

  changed = () => {
    for (const listener of [...this.listeners]) listener();
  };

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  isLoading = () => this.loading;
}

let browser: Features | undefined;

const FeaturesContext = createContext<Features | null>(null);

export function ExperimentsProvider({ data, children }: { data: ExperimentsData; children: React.ReactNode }) {
  // One per page load in the browser, whatever later revalidations of the root loader say.
  const [features] = useState(() => (typeof window === 'undefined' ? new Features(data) : (browser ??= new Features(data))));
  useEffect(() => {
    let cancelled = false;
    void import('./experiments-sdk.ts').then(({ browserExperiments }) => {
      if (!cancelled) features.attach(browserExperiments(data, features));
    });
    return () => {
      cancelled = true;
    };
    // The first page load's data: the SDK keeps the payload live from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [features]);
  return <FeaturesContext.Provider value={features}>{children}</FeaturesContext.Provider>;
}

const noSubscription = () => () => {};

/** A feature's value for this visitor; `fallback` outside the provider (error pages) or when unknown. */
export function useFeatureValue<T extends JsonValue>(key: string, fallback: T): T {
  const features = useContext(FeaturesContext);
  const snapshot = () => featureSnapshot(features, key, fallback);
  useSyncExternalStore(features?.subscribe ?? noSubscription, snapshot, snapshot);
  return features ? features.value(key, fallback) : fallback;
}

/**
 * What a part that reads a feature renders again for: the feature's value, as text (an object
 * compares by content), not every payload. The SDK's first payload and its stream normally leave
 * the page's values as they were, and a whole landing section rendered again for nothing is a
 * long task on a phone.
 */
export function featureSnapshot(features: Features | null, key: string, fallback: JsonValue): string {
  return features ? JSON.stringify(features.value(key, fallback)) : '';
}

export function useFeatureIsOn(key: string, fallback = false): boolean {
  return useFeatureValue<boolean>(key, fallback) === true;
}

const stillLoading = () => true;

/** The A/B-tests-loading flag of spec §4 (false once experiments are settled for this page). */
export function useAbTestsLoading(): boolean {
  const features = useContext(FeaturesContext);
  return useSyncExternalStore(features?.subscribe ?? noSubscription, features?.isLoading ?? stillLoading, features?.isLoading ?? stillLoading);
}

/**
 * What depends on an A/B test, shown — its feature evaluated, its assignment tracked — only once
 * the A/B tests have loaded (the A/B-tests-loading flag of spec §4, read here): never a fallback
 * passed off as a variation, nor a variation that gives way to another. On a page the server
 * rendered the tests are loaded from the first render (ADR 037); outside the provider they never
 * load. `pending` keeps the content's place meanwhile.
 */
export function AbTested({ children, pending = null }: { children: React.ReactNode; pending?: React.ReactNode }): React.ReactNode {
  return useAbTestsLoading() ? pending : children;
}
