/**
 * GrowthBook's SDK in the browser (ADR 012, 037), loaded after hydration by
 * `experiments.tsx`: the page hydrates with the feature values the server evaluated, then
 * this module starts the SDK from the very same payload, attributes and URL (so nothing
 * changes on screen), keeps the payload live through the stream under our own host
 * (/sub/:clientKey), runs redirect experiments and reports assignments as
 * `assign_experiment` events when the page's components evaluate their features with it.
 *
 * Nothing is stored in the browser before consent: the SDK's localStorage cache is off,
 * and the anonymous id is kept in a cookie only once analytics is granted.
 */
import { GrowthBook, configureCache, setPolyfills, type FeatureApiResponse } from '@growthbook/growthbook-react';
import {
  CACHE_MAX_AGE_MS,
  CACHE_MAX_ENTRIES,
  CACHE_STALE_TTL_MS,
  IDLE_STREAM_INTERVAL_MS,
  MAX_TRACKING_WAIT_MS,
  REDIRECT_DELAY_MS,
  SETUP_TIMEOUT_MS,
} from '@velvet/features/constants';
import { consentState, subscribeConsent } from '../consent/consent.ts';
import { reportError } from '../error-reporting/error-reporting.ts';
import { browserAnonymousId, bucketOf, trackAssignment } from './experiment-assignments.ts';
import { ANONYMOUS_ID_COOKIE, ANONYMOUS_ID_MAX_AGE_SECONDS, type ExperimentsData } from './experiments-shared.ts';

const INIT_FAILURE_MESSAGE = 'Failed to initialize Growthbook:';

/** Keeps the anonymous id in a cookie while analytics is granted; forgets it when not. */
function keepAnonymousIdWithConsent(data: ExperimentsData): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  const apply = () => {
    const { ready, analytics } = consentState();
    if (!ready) return;
    if (analytics) {
      document.cookie = `${ANONYMOUS_ID_COOKIE}=${browserAnonymousId(bucketOf(data))}; Max-Age=${ANONYMOUS_ID_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
    } else if (document.cookie.split(';').some((part) => part.trim().startsWith(`${ANONYMOUS_ID_COOKIE}=`))) {
      document.cookie = `${ANONYMOUS_ID_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax${secure}`;
    }
  };
  subscribeConsent(apply);
  apply();
}

let browser: GrowthBook | undefined;

/** The browser's instance: one per page load, whatever later revalidations of the root loader say. */
export function browserExperiments(data: ExperimentsData, loading: { end(why: 'ready' | 'failed' | 'redirect'): void }): GrowthBook {
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
  const bucket = bucketOf(data);
  const growthbook = new GrowthBook({
    clientKey: data.clientKey,
    attributes: { ...data.attributes, acqAnonymousId: bucket },
    enabled: data.enabled,
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
          trackingCallback: (experiment, result) => trackAssignment(experiment.key, result.key, bucket),
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
    void reportError(error, { message: INIT_FAILURE_MESSAGE, tags: { area: 'experiments' } });
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
  browser = growthbook;
  return browser;
}

