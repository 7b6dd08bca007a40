/**
 * Feature flags and A/B tests with GrowthBook's SDK (ADR 012), on the server and in the
 * browser from the same data: the server renders with the payload, attributes and URL of
 * the request, so the first paint already shows the assigned variation; the browser
 * hydrates with the very same inputs (no flicker), then keeps the payload live through the
 * stream under our own host (/sub/:clientKey) and reports assignments as
 * `assign_experiment` events. `?disablegb=true` turns testing off for the page.
 *
 * Nothing is stored in the browser before consent: the SDK's localStorage cache is off,
 * and the anonymous id is kept in a cookie only once analytics is granted.
 */
import {
  GrowthBook,
  GrowthBookContext,
  GrowthBookProvider,
  configureCache,
  setPolyfills,
  type FeatureApiResponse,
} from '@growthbook/growthbook-react';
import {
  CACHE_MAX_AGE_MS,
  CACHE_MAX_ENTRIES,
  CACHE_STALE_TTL_MS,
  IDLE_STREAM_INTERVAL_MS,
  MAX_TRACKING_WAIT_MS,
  REDIRECT_DELAY_MS,
  SETUP_TIMEOUT_MS,
} from '@velvet/features/constants';
import type { JsonValue } from '@velvet/features/definitions';
import { createContext, useContext, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { track } from './analytics.ts';
import { consentState, subscribeConsent } from './consent.ts';
import { reportError } from './error-reporting.ts';
import { ANONYMOUS_ID_COOKIE, ANONYMOUS_ID_MAX_AGE_SECONDS, type ExperimentsData } from './experiments-shared.ts';

const INIT_FAILURE_MESSAGE = 'Failed to initialize Growthbook:';

/**
 * The A/B-tests-loading flag (spec §4): starts true; false once the visitor is in their
 * experiments or none applies (the payload is there), when setup fails, or when a redirect
 * experiment navigates away.
 */
type LoadingEnd = 'ready' | 'failed' | 'redirect';

class LoadingFlag {
  private loading = true;
  private readonly listeners = new Set<() => void>();
  end = (_why: LoadingEnd) => {
    if (!this.loading) return;
    this.loading = false;
    for (const listener of [...this.listeners]) listener();
  };
  get = () => this.loading;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

interface Experiments {
  growthbook: GrowthBook;
  loading: LoadingFlag;
}

function baseOptions(data: ExperimentsData) {
  return { clientKey: data.clientKey, attributes: { ...data.attributes }, enabled: data.enabled };
}

/** The server's instance for one render: the request's URL (for ?KEY=N forcing), no tracking, no stream. */
function serverExperiments(data: ExperimentsData, url: string): Experiments {
  const loading = new LoadingFlag();
  const growthbook = new GrowthBook({ ...baseOptions(data), url });
  growthbook.initSync({ payload: data.payload as unknown as FeatureApiResponse });
  loading.end('ready');
  return { growthbook, loading };
}

/** Keeps the anonymous id in a cookie while analytics is granted; forgets it when not. */
function keepAnonymousIdWithConsent(data: ExperimentsData): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  const apply = () => {
    const { ready, analytics } = consentState();
    if (!ready) return;
    if (analytics) {
      document.cookie = `${ANONYMOUS_ID_COOKIE}=${data.attributes.acqAnonymousId}; Max-Age=${ANONYMOUS_ID_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
    } else if (document.cookie.split(';').some((part) => part.trim().startsWith(`${ANONYMOUS_ID_COOKIE}=`))) {
      document.cookie = `${ANONYMOUS_ID_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax${secure}`;
    }
  };
  subscribeConsent(apply);
  apply();
}

let browser: Experiments | undefined;

/** The browser's instance: one per page load, whatever later revalidations of the root loader say. */
function browserExperiments(data: ExperimentsData): Experiments {
  if (browser) return browser;
  // No storage before consent: the SDK keeps its cache in memory only.
  setPolyfills({ localStorage: undefined });
  configureCache({
    staleTTL: CACHE_STALE_TTL_MS,
    maxAge: CACHE_MAX_AGE_MS,
    maxEntries: CACHE_MAX_ENTRIES,
    idleStreamInterval: IDLE_STREAM_INTERVAL_MS,
    disableIdleStreams: false,
    backgroundSync: true,
  });
  const loading = new LoadingFlag();
  const { acqAnonymousId } = data.attributes;
  const growthbook = new GrowthBook({
    ...baseOptions(data),
    apiHost: window.location.origin,
    navigateDelay: REDIRECT_DELAY_MS,
    maxNavigateDelay: MAX_TRACKING_WAIT_MS,
    disableCrossOriginUrlRedirectExperiments: true,
    navigate: (url) => {
      loading.end('redirect');
      window.location.replace(url);
    },
    ...(data.enabled
      ? {
          trackingCallback: (experiment, result) => {
            track({ event: 'assign_experiment', experiment_id: experiment.key, variation_id: result.key, acq_anonymous_id: acqAnonymousId });
          },
        }
      : {}),
  });
  // A request cut short because the visitor is leaving the page is no failure.
  let leaving = false;
  const leave = () => (leaving = true);
  window.addEventListener('beforeunload', leave);
  window.addEventListener('pagehide', leave);
  const failed = (error: unknown) => {
    loading.end('failed');
    if (leaving) return;
    console.error(INIT_FAILURE_MESSAGE, error);
    reportError(error, { message: INIT_FAILURE_MESSAGE, tags: { area: 'experiments' } });
  };
  try {
    // The page came with the payload it was rendered with: the visitor is in their
    // experiments (or none applies) from the first render on, exactly as on the server.
    growthbook.initSync({ payload: data.payload as unknown as FeatureApiResponse });
    loading.end('ready');
  } catch (error) {
    failed(error);
  }
  // Then the set-up proper (spec §7.6): GET the payload from our own host (5 s time-out) and
  // subscribe to its stream; a failure is reported, and the page keeps the rendered payload.
  growthbook.init({ timeout: SETUP_TIMEOUT_MS, streaming: true }).then(
    (result) => {
      if (!result.success) failed(result.error ?? new Error(`features: ${result.source}`));
    },
    failed,
  );
  keepAnonymousIdWithConsent(data);
  browser = { growthbook, loading };
  return browser;
}

const LoadingContext = createContext<LoadingFlag | null>(null);

export function ExperimentsProvider({ data, publicUrl, children }: { data: ExperimentsData; publicUrl: string; children: React.ReactNode }) {
  const location = useLocation();
  const [experiments] = useState(() =>
    typeof window === 'undefined' ? serverExperiments(data, `${publicUrl}${location.pathname}${location.search}`) : browserExperiments(data),
  );
  return (
    <LoadingContext.Provider value={experiments.loading}>
      <GrowthBookProvider growthbook={experiments.growthbook}>{children}</GrowthBookProvider>
    </LoadingContext.Provider>
  );
}

function useGrowthBookOrNull(): GrowthBook | null {
  const context = useContext(GrowthBookContext) as { growthbook?: GrowthBook } | undefined;
  return context?.growthbook ?? null;
}

/** A feature's value for this visitor; `fallback` outside the provider (error pages) or when unknown. */
export function useFeatureValue<T extends JsonValue>(key: string, fallback: T): T {
  const growthbook = useGrowthBookOrNull();
  return growthbook ? (growthbook.getFeatureValue(key, fallback as never) as T) : fallback;
}

export function useFeatureIsOn(key: string, fallback = false): boolean {
  return useFeatureValue<boolean>(key, fallback) === true;
}

const stillLoading = () => true;
const noSubscription = () => () => {};

/** The A/B-tests-loading flag of spec §4 (false once experiments are settled for this page). */
export function useAbTestsLoading(): boolean {
  const flag = useContext(LoadingContext);
  return useSyncExternalStore(flag?.subscribe ?? noSubscription, flag?.get ?? stillLoading, flag?.get ?? stillLoading);
}
