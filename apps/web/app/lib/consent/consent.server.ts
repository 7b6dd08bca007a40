/**
 * The page's part of the consent manager (ADR 011), worked out by the root loader: whether
 * the consent script loads on this page, its cache-busted address, the consent-manager
 * data of spec §3, the app's consent inside its web view, and where the tag manager lives.
 */
import type { RouterContextProvider } from 'react-router';
import type { IdentifiedCustomer } from '../auth-cookie.server.ts';
import { localeContext, requestInfoContext } from '../page/context.ts';
import { requestCountry } from '../i18n/country.ts';
import { CMP_SCRIPT_PATH, type ConsentPage, type OptionalCategory, cacheBuster } from './consent-shared.ts';
import { webViewFromRequest } from '../web-view/web-view.server.ts';

const BRAND = 'VELVET_ROPE';
const APPLICATION_CODE = 'ACQUISITION';

/**
 * `appConsent` (query, only inside the app's web view): the categories the app's own consent
 * dialog granted, comma-separated: `analytics,marketing`, `analytics`, or `none`. Anything
 * else means the app passed no consent, and the banner shows as on the web.
 */
export function parseAppConsent(value: string | null): OptionalCategory[] | null {
  if (value === null) return null;
  const parts = value.split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
  if (parts.length === 1 && parts[0] === 'none') return [];
  if (parts.length === 0 || parts.some((p) => p !== 'analytics' && p !== 'marketing')) return null;
  return [...new Set(parts as OptionalCategory[])].sort();
}

/** Spec §2: consent-manager initialisation is skipped on paths containing activateaccount. */
export function cmpSkipped(pathname: string): boolean {
  return pathname.toLowerCase().includes('activateaccount');
}

/**
 * `customer`: the customer the auth cookie identifies (ADR 022); the data then says
 * "Identified customer" with the customer id and its salted hash (spec §3, §6).
 */
export function consentPage(
  request: Request,
  context: Readonly<RouterContextProvider>,
  now: Date = new Date(),
  customer: IdentifiedCustomer | null = null,
): ConsentPage {
  const info = context.get(requestInfoContext);
  const { locale } = context.get(localeContext);
  const url = new URL(request.url);
  const tagManagerScriptUrl = info.consent.gtmScriptUrl;
  if (!info.consent.enabled || cmpSkipped(url.pathname)) return { cmp: null, tagManagerScriptUrl };

  const webView = webViewFromRequest(request, context).active;
  const appConsent = webView ? parseAppConsent(url.searchParams.get('appConsent')) : null;
  const scriptUrl = `${CMP_SCRIPT_PATH}?v=${cacheBuster(now)}`;
  return {
    cmp: {
      scriptUrl,
      config: {
        appConsent,
        data: {
          brand: BRAND,
          applicationCode: APPLICATION_CODE,
          applicationCountry: requestCountry(request, info.trustedCountryHeader),
          language: locale.toUpperCase(),
          applicationVersion: info.consent.appVersion,
          environment: webView ? 'APP_webview' : 'WEB_browser',
          ...(customer
            ? {
                userConnectionStatus: 'Identified customer' as const,
                customerId: customer.customerId,
                saltedHashedCustomerId: customer.saltedHashedCustomerId,
              }
            : { userConnectionStatus: 'Unidentified customer' as const }),
          optInTrackingConsent: appConsent ? appConsent.includes('analytics') : true,
          settingsId: info.consent.settingsId,
          scriptAddress: `${info.publicUrl}${scriptUrl}`,
          hideOnStartup: appConsent !== null,
          readOnly: false,
        },
      },
    },
    tagManagerScriptUrl,
  };
}
