/**
 * What the page, the consent script (`cmp/cmp.ts`, served at /entrance/cmp/js/cmp_min.js)
 * and the web server agree on: addresses, the consent cookie, the event that tells the app
 * the consent status, and the consent-manager data of spec §3. No React, no DOM at import
 * time: the consent script is bundled from this module too. See ADR 011.
 */

/** The consent script; the page adds `?v=YYYYMMDDHH` (spec §7.7). */
export const CMP_SCRIPT_PATH = '/entrance/cmp/js/cmp_min.js';
/** Its stylesheet, loaded by the script itself (the page's CSS stays as small as it was). */
export const CMP_STYLE_PATH = '/entrance/cmp/css/cmp_min.css';
/** POST: one consent choice, forwarded to the API's recordConsent. */
export const CONSENT_RECORD_PATH = '/entrance/cmp/consent';
/** POST (navigator.sendBeacon): a batch of first-party funnel events, forwarded to recordFunnelEvents. */
export const FUNNEL_PATH = '/entrance/funnel';

/** The consent manager's cookie (first-party, readable by the page, set only after a choice). */
export const CONSENT_COOKIE = 'acq_consent';
/** Raise it when the consent texts change in substance: every visitor is asked again. */
export const CONSENT_REVISION = 1;
/** How long a choice is kept before the visitor is asked again. */
export const CONSENT_DAYS = 182;

type ConsentCategory = 'necessary' | 'analytics' | 'marketing';
export type OptionalCategory = Exclude<ConsentCategory, 'necessary'>;

/** Spec §4: "the consent-status-updated event", dispatched on window by the consent script. */
export const CONSENT_STATUS_EVENT = 'acq:consent-status-updated';

/** The visitor's current choice. */
export interface ConsentChoice {
  analytics: boolean;
  marketing: boolean;
}

/**
 * Spec §3: the consent-manager data pushed to the data layer. A customer is unidentified on
 * these public pages; identified customers (app sessions, later) add their ids.
 */
type ConsentManagerData = {
  brand: string;
  applicationCode: string;
  /** ISO 3166-1 alpha-2, upper-case. */
  applicationCountry: string;
  /** Upper-case, e.g. DE. */
  language: string;
  applicationVersion: string;
  /** WEB_browser, or APP_webview inside the mobile app. */
  environment: 'WEB_browser' | 'APP_webview';
  optInTrackingConsent: boolean;
  settingsId: string;
  /** The consent script's address, cache-buster included. */
  scriptAddress: string;
  /** True when the banner is not shown at start (the app passed its consent). */
  hideOnStartup: boolean;
  readOnly: false;
} & (
  | { userConnectionStatus: 'Unidentified customer' }
  | {
      userConnectionStatus: 'Identified customer';
      customerConsentToken?: string;
      customerId: string;
      /** Salted SHA-256 of the customer id, hex. */
      saltedHashedCustomerId: string;
    }
);

/** What the page hands the consent script (window.__ACQ_CMP__, set by the inline snippet). */
export interface CmpPageConfig {
  data: ConsentManagerData;
  /** Inside the app's web view, the categories the app's own consent dialog granted; else null. */
  appConsent: OptionalCategory[] | null;
}

/** What the root loader hands the document. */
export interface ConsentPage {
  /** Null when the consent script does not load on this page (disabled, or an activateaccount path). */
  cmp: { scriptUrl: string; config: CmpPageConfig } | null;
  /** GTM_SCRIPT_URL: the tag manager loads from there, with the runtime container id, after analytics consent. */
  tagManagerScriptUrl: string;
}

/** What the consent script offers the page (window.AcqCmp). */
interface CmpApi {
  /** Spec §4: "the consent service reports initialised". */
  isInitialized(): boolean;
  /** The stored choice, or null while the visitor has not chosen. */
  choice(): ConsentChoice | null;
  showPreferences(): void;
}

declare global {
  interface Window {
    __ACQ_CMP__?: CmpPageConfig;
    AcqCmp?: CmpApi;
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

/** The hourly cache-buster of the consent script's address: YYYYMMDDHH in UTC. */
export function cacheBuster(now: Date): string {
  return now.toISOString().slice(0, 13).replace(/[-T]/g, '');
}

/** The data-layer entry that carries the consent-manager data. */
export const CMP_DATA_EVENT = 'cmp_data';

/**
 * The choice stored in the consent cookie (as the consent manager writes it), or null when
 * there is none, it is malformed, or it was given for older texts. For pages that run
 * without the consent script (activateaccount, spec §2).
 */
export function choiceFromCookie(cookieHeader: string): ConsentChoice | null {
  const raw = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONSENT_COOKIE}=`))
    ?.slice(CONSENT_COOKIE.length + 1);
  if (!raw) return null;
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as { categories?: unknown; revision?: unknown; consentId?: unknown };
    if (value.revision !== CONSENT_REVISION || typeof value.consentId !== 'string' || !Array.isArray(value.categories)) return null;
    const categories = value.categories.filter((c): c is string => typeof c === 'string');
    return { analytics: categories.includes('analytics'), marketing: categories.includes('marketing') };
  } catch {
    return null;
  }
}

/** Google Consent Mode v2 signals for a choice. */
export function consentModeSignals(choice: ConsentChoice | null): Record<'ad_storage' | 'analytics_storage' | 'ad_user_data' | 'ad_personalization', 'granted' | 'denied'> {
  const grant = (yes: boolean | undefined) => (yes ? 'granted' : 'denied');
  return {
    ad_storage: grant(choice?.marketing),
    analytics_storage: grant(choice?.analytics),
    ad_user_data: grant(choice?.marketing),
    ad_personalization: grant(choice?.marketing),
  };
}

/**
 * The inline snippet that runs before any other script (its digest is in the page's CSP): the
 * data layer, gtag and Google Consent Mode v2 defaults (everything denied, wait 500 ms for an
 * update), the consent script's configuration, and the consent script itself — added async
 * (trusted through 'strict-dynamic') once the page has loaded, so it never competes with what
 * the page needs to render.
 */
export function consentModeSnippet(cmp: { scriptUrl: string; config: CmpPageConfig } | null): string {
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028|\u2029/g, '');
  return [
    'window.dataLayer=window.dataLayer||[];',
    'window.gtag=window.gtag||function(){window.dataLayer.push(arguments)};',
    "gtag('consent','default',{ad_storage:'denied',analytics_storage:'denied',ad_user_data:'denied',ad_personalization:'denied',wait_for_update:500});",
    cmp
      ? `window.__ACQ_CMP__=${json(cmp.config)};` +
        `(function(){function l(){var s=document.createElement('script');s.async=true;s.src=${json(cmp.scriptUrl)};document.head.appendChild(s)}` +
        "if(document.readyState==='complete')l();else window.addEventListener('load',l,{once:true})})();"
      : '',
  ].join('');
}
