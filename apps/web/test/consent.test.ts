/** The consent manager's and the funnel's pure parts (ADR 011). */
import { RouterContextProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { withoutPersonalData } from '../app/lib/analytics/analytics.ts';
import { cmpSkipped, consentPage, parseAppConsent } from '../app/lib/consent/consent.server.ts';
import { CONSENT_COOKIE, cacheBuster, choiceFromCookie, consentModeSignals, consentModeSnippet } from '../app/lib/consent/consent-shared.ts';
import { localeContext, requestInfoContext } from '../app/lib/page/context.ts';
import { funnelEventFor, landingSlugOf } from '../app/lib/analytics/funnel.ts';
import { assertTagManagerId, tagManagerUrl } from '../app/lib/analytics/tag-manager.ts';
import { testRequestExtras } from './support/request-info.ts';

const cookie = (value: unknown) => `lang=de; ${CONSENT_COOKIE}=${encodeURIComponent(JSON.stringify(value))}; other=1`;

describe('consent cookie and consent mode', () => {
  it('busts the script cache once an hour (UTC)', () => {
    expect(cacheBuster(new Date('2026-11-22T08:59:59.999Z'))).toBe('2026112208');
    expect(cacheBuster(new Date('2026-11-22T09:00:00.000Z'))).toBe('2026112209');
  });

  it('reads a stored choice for the current texts only', () => {
    const stored = { categories: ['necessary', 'analytics'], revision: 1, consentId: '3f0c1c8e-7d1a-4c55-9a37-0d3a1b2c4d5e' };
    expect(choiceFromCookie(cookie(stored))).toEqual({ analytics: true, marketing: false });
    expect(choiceFromCookie(cookie({ ...stored, categories: ['necessary', 'analytics', 'marketing'] }))).toEqual({ analytics: true, marketing: true });
    expect(choiceFromCookie(cookie({ ...stored, revision: 0 }))).toBeNull();
    expect(choiceFromCookie(cookie({ ...stored, consentId: undefined }))).toBeNull();
    expect(choiceFromCookie(`${CONSENT_COOKIE}=%7Bnot-json`)).toBeNull();
    expect(choiceFromCookie('lang=de')).toBeNull();
  });

  it('maps choices to Google Consent Mode v2 signals', () => {
    expect(consentModeSignals(null)).toEqual({ ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' });
    expect(consentModeSignals({ analytics: true, marketing: false })).toEqual({
      ad_storage: 'denied',
      analytics_storage: 'granted',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
    });
  });

  it('writes the consent-mode defaults first and cannot be broken out of', () => {
    const snippet = consentModeSnippet({
      scriptUrl: '/entrance/cmp/js/cmp_min.js?v=2026112210',
      config: {
      appConsent: null,
      data: {
        brand: 'B</script><script>alert(1)</script>',
        applicationCode: 'A',
        applicationCountry: 'DE',
        language: 'DE',
        applicationVersion: '1',
        environment: 'WEB_browser',
        userConnectionStatus: 'Unidentified customer',
        optInTrackingConsent: true,
        settingsId: 's',
        scriptAddress: 'x',
        hideOnStartup: false,
        readOnly: false,
      },
      },
    });
    expect(snippet.indexOf("gtag('consent','default'")).toBeLessThan(snippet.indexOf('__ACQ_CMP__'));
    // The consent script: async, once the page has loaded.
    expect(snippet).toContain('s.async=true;s.src="/entrance/cmp/js/cmp_min.js?v=2026112210";document.head.appendChild(s)');
    expect(snippet).toContain("window.addEventListener('load',l,{once:true})})();");
    expect(snippet).toContain("ad_storage:'denied',analytics_storage:'denied',ad_user_data:'denied',ad_personalization:'denied',wait_for_update:500");
    expect(snippet).not.toContain('</script>');
    expect(consentModeSnippet(null)).not.toContain('__ACQ_CMP__');
  });
});

describe('the page side of the consent manager', () => {
  it('reads the app consent of the web view', () => {
    expect(parseAppConsent(null)).toBeNull();
    expect(parseAppConsent('none')).toEqual([]);
    expect(parseAppConsent('marketing, analytics')).toEqual(['analytics', 'marketing']);
    expect(parseAppConsent('analytics')).toEqual(['analytics']);
    expect(parseAppConsent('everything')).toBeNull();
    expect(parseAppConsent('')).toBeNull();
  });

  it('skips every path containing activateaccount', () => {
    expect(cmpSkipped('/registration/activateaccount')).toBe(true);
    expect(cmpSkipped('/de/registration/activateaccountError')).toBe(true);
    expect(cmpSkipped('/registration/formfinished')).toBe(false);
  });

  function context(overrides: { enabled?: boolean; gtmContainerId?: string } = {}) {
    const provider = new RouterContextProvider();
    provider.set(requestInfoContext, {
      contentSecurityPolicy: () => '', correlationId: 'c', clientIp: '203.0.113.9', apiUrl: 'http://127.0.0.1:9', publicApiUrl: 'http://127.0.0.1:9',
      publicUrl: 'https://www.velvetrope.example', environment: 'test', gtmContainerId: overrides.gtmContainerId, trustedCountryHeader: undefined,
      secureCookies: true, appSecret: 'x'.repeat(32), formMinFillSeconds: 0, appSchemePrefix: 'velvetrope://',
      consent: { enabled: overrides.enabled ?? true, settingsId: 'settings-1', appVersion: '2.1.0', gtmScriptUrl: 'https://tags.example/gtm.js' },
      ...testRequestExtras(),
    });
    provider.set(localeContext, { locale: 'fr', prefix: 'fr' });
    return provider;
  }
  const now = new Date('2026-11-22T10:15:00Z');

  it('configures the script with the consent-manager data of spec §3', () => {
    const page = consentPage(new Request('https://www.velvetrope.example/fr', { headers: { 'accept-language': 'fr-BE,fr;q=0.9' } }), context(), now);
    expect(page.tagManagerScriptUrl).toBe('https://tags.example/gtm.js');
    expect(page.cmp?.scriptUrl).toBe('/entrance/cmp/js/cmp_min.js?v=2026112210');
    expect(page.cmp?.config).toEqual({
      appConsent: null,
      data: {
        brand: 'VELVET_ROPE',
        applicationCode: 'ACQUISITION',
        applicationCountry: 'BE',
        language: 'FR',
        applicationVersion: '2.1.0',
        environment: 'WEB_browser',
        userConnectionStatus: 'Unidentified customer',
        optInTrackingConsent: true,
        settingsId: 'settings-1',
        scriptAddress: 'https://www.velvetrope.example/entrance/cmp/js/cmp_min.js?v=2026112210',
        hideOnStartup: false,
        readOnly: false,
      },
    });
  });

  it('says "Identified customer" with the customer id and its salted hash when the auth cookie names one (spec §3, §6)', () => {
    const customer = { customerId: '0b7f3c9e-6a51-4f0e-9d8c-2f4b1e7a9c01', saltedHashedCustomerId: 'ab'.repeat(32) };
    const data = consentPage(new Request('https://www.velvetrope.example/fr'), context(), now, customer).cmp?.config.data;
    expect(data).toMatchObject({ userConnectionStatus: 'Identified customer', ...customer });
    expect(consentPage(new Request('https://www.velvetrope.example/fr'), context(), now).cmp?.config.data).not.toHaveProperty('customerId');
  });

  it('hides the banner in the app web view when the app passed its consent, and only there', () => {
    const inApp = encodeURIComponent('velvetrope://registered');
    const page = consentPage(new Request(`https://www.velvetrope.example/fr?redirectUrl=${inApp}&appConsent=analytics`), context(), now);
    expect(page.cmp?.config.appConsent).toEqual(['analytics']);
    expect(page.cmp?.config.data).toMatchObject({ environment: 'APP_webview', hideOnStartup: true, optInTrackingConsent: true });
    const denied = consentPage(new Request(`https://www.velvetrope.example/fr?redirectUrl=${inApp}&appConsent=none`), context(), now);
    expect(denied.cmp?.config.data).toMatchObject({ hideOnStartup: true, optInTrackingConsent: false });
    // On the web a link cannot pre-accept anything for the visitor.
    const web = consentPage(new Request('https://www.velvetrope.example/fr?appConsent=analytics,marketing'), context(), now);
    expect(web.cmp?.config).toMatchObject({ appConsent: null, data: { environment: 'WEB_browser', hideOnStartup: false } });
  });

  it('does not load the script on activateaccount paths or when switched off', () => {
    expect(consentPage(new Request('https://www.velvetrope.example/registration/activateaccount?activationId=x'), context(), now).cmp).toBeNull();
    expect(consentPage(new Request('https://www.velvetrope.example/'), context({ enabled: false }), now).cmp).toBeNull();
  });
});

describe('tag manager', () => {
  it('accepts GTM- and G- ids of upper-case letters and digits only', () => {
    expect(assertTagManagerId('GTM-ABC123')).toBe('GTM-ABC123');
    expect(assertTagManagerId('G-XYZ9')).toBe('G-XYZ9');
    for (const bad of ['gtm-abc', 'GTM-abc', 'UA-12345-1', 'GTM-', 'GTM-ABC 1', 'GTM-ABC";alert(1)//']) {
      expect(() => assertTagManagerId(bad), bad).toThrow(/Invalid tag-manager id/);
    }
  });

  it('loads from the configured address with the container id', () => {
    expect(tagManagerUrl('http://127.0.0.1:3999/gtm.js', 'GTM-TEST1')).toBe('http://127.0.0.1:3999/gtm.js?id=GTM-TEST1');
    expect(() => tagManagerUrl('https://www.googletagmanager.com/gtm.js', 'nope')).toThrow();
  });
});

describe('first-party funnel events', () => {
  it('carry the event name, language, variant, code and campaign slug — nothing else', () => {
    const url = new URL('https://www.velvetrope.example/de/vip?rc=WELCOME2026&email=anna%40example.test');
    expect(funnelEventFor('landing', 'social', url, 'de', false)).toEqual({
      name: 'landing',
      language: 'de',
      variant: 'social',
      registrationCode: 'WELCOME2026',
      landingSlug: 'vip',
      analyticsConsent: false,
    });
    expect(funnelEventFor('code_entered', undefined, new URL('https://x.example/about-us'), 'xx', true)).toEqual({ name: 'code_entered', analyticsConsent: true });
  });

  it('know the campaign slug from the path or the registration pages', () => {
    expect(landingSlugOf(new URL('https://x.example/lean'))).toBe('lean');
    expect(landingSlugOf(new URL('https://x.example/pl/registration/formstarted?rc=A&slug=lean'))).toBe('lean');
    expect(landingSlugOf(new URL('https://x.example/registration/formstarted?slug=unknown'))).toBeUndefined();
    expect(landingSlugOf(new URL('https://x.example/about-us'))).toBeUndefined();
  });
});

describe('data-layer events', () => {
  it('carry email addresses and registration ids only as SHA-256 hex', async () => {
    const hashed = await withoutPersonalData({ event: 'registration_success', registrationIdHash: 'b6f1c7e2-raw-registration-id' });
    expect(hashed.registrationIdHash).toMatch(/^[0-9a-f]{64}$/);
    const already = 'a'.repeat(64);
    expect(await withoutPersonalData({ event: 'registration_success', registrationIdHash: already })).toEqual({ event: 'registration_success', registrationIdHash: already });
    const email = await withoutPersonalData({ event: 'email_submitted', flow: 'Anna@Example.test' as never });
    expect(email.flow).toMatch(/^[0-9a-f]{64}$/);
    expect(await withoutPersonalData({ event: 'landing', variant: 'default', hasCode: true })).toEqual({ event: 'landing', variant: 'default', hasCode: true });
  });

  it('hash one address to one value, whether a page holds its domain as written or in ASCII (ADR 042)', async () => {
    const hash = async (email: string) => (await withoutPersonalData({ event: 'email_submitted', flow: 'default', emailHash: email })).emailHash;
    expect(await hash('Anna@Müller.de')).toBe(await hash('anna@xn--mller-kva.de'));
  });
});
