/** Typed values the Express server and the root middleware hand to loaders and actions. */
import { createContext } from 'react-router';
import type { Locale, Prefix } from '@velvet/i18n/locales';
import type { FeaturePayload } from '@velvet/features/definitions';
import type { CaptureOptions } from '@velvet/error-reporting/reporter';

export interface RequestInfo {
  /** The page's Content-Security-Policy, given the SHA-256 digests of its inline scripts (ADR 053). */
  contentSecurityPolicy(scriptHashes: readonly string[]): string;
  /** Correlation id of the incoming request, also sent to the API. */
  correlationId: string;
  clientIp: string | undefined;
  /**
   * The instant the page's calendar shows — promotions and their countdown, the footer's year
   * (ADR 021): the request's arrival, or its X-Test-Now header when TEST_CLOCK allows one.
   * Never for expiry: tokens, links and cookies keep to the real clock.
   */
  calendarNow: Date;
  /** Where the web server reaches the API. */
  apiUrl: string;
  /** Where browsers reach the API. */
  publicApiUrl: string;
  /** The public origin of the site, for canonical links and emails. */
  publicUrl: string;
  environment: string;
  gtmContainerId: string | undefined;
  /** Name of the trusted proxy/CDN country header, when configured. */
  trustedCountryHeader: string | undefined;
  secureCookies: boolean;
  /** Signs the web app's own cookies (registration flow, admin session). Server only. */
  appSecret: string;
  /** FORM_MIN_FILL_SECONDS: a public form sent sooner after its start is a script's (ADR 041). */
  formMinFillSeconds: number;
  /** The native app's URL scheme, e.g. velvetrope:// */
  appSchemePrefix: string;
  /** The consent manager and analytics (ADR 011). */
  consent: { enabled: boolean; settingsId: string; appVersion: string; gtmScriptUrl: string };
  /** Feature flags and A/B tests (ADR 012): the features proxy's client key and the payload it holds. */
  /** `payload` never waits for the API: the last payload received, else the versioned file (ADR 028). */
  features: { clientKey: string; payload(): Promise<FeaturePayload> };
  /** Error reporting (ADR 013); `browserEndpoint` is null when ERROR_REPORTING_URL is unset. */
  errors: {
    browserEndpoint: string | null;
    report(error: unknown, options?: CaptureOptions): void;
    /** The application-level hook for GraphQL and network errors of the API client (spec §8). */
    apiFailure(failure: ApiFailureReport): void;
  };
}

export interface ApiFailureReport {
  operation: string;
  kind: 'generic' | 'connection' | 'timeout' | 'rate-limited' | 'busy' | 'forbidden';
  /** The HTTP status, when the API answered. */
  status?: number;
  /** GraphQL error codes the API sent, if any. */
  codes?: string[];
  variables?: unknown;
  page: string;
}

export const requestInfoContext = createContext<RequestInfo>();

export interface LocaleInfo {
  locale: Locale;
  prefix: Prefix;
}

export const localeContext = createContext<LocaleInfo>();

/** This request's page load (ADR 022): its session id and the page's path, for the API's headers. */
export interface PageLoadInfo {
  /** X-Session-ID: minted for a document request, sent back by the browser on its `.data` requests. */
  sessionId: string;
  /** X-Source-Page: the page's path as the visitor sees it (never `….data`). */
  sourcePage: string;
  /**
   * Set by the first API call made with this id: `personal` for a call in the visitor's name or
   * any failed call (the page is then private, ADR 053), `shared` for a call whose answer is the
   * same for everyone (an invitation's details). A private document names the id.
   */
  calledApi?: 'personal' | 'shared';
}

export const pageLoadContext = createContext<PageLoadInfo>();


/**
 * Set on a path whose first segment names no language (`/xx/about-us`, ADR 059): the page
 * answers 404 and may not call the API — whatever its loader or action would do does not happen.
 */
export const strayPathContext = createContext<boolean>(false);
