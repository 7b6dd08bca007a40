/**
 * The consent-manager data the consent script pushes to the data layer (spec §3) says where it
 * runs: WEB_browser, or APP_webview inside the app — also when the app's web view is known only
 * by its native bridge (spec §4), which the server that wrote the page's data cannot see
 * (issue 20 §3). The script itself (`cmp/cmp.ts`) runs here on a minimal page.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CmpPageConfig } from '../app/lib/consent/consent-shared.ts';

vi.mock('virtual:acq-cmp-translations', () => ({ default: { en: {} } }));
// The banner itself is not what this test looks at: it never finishes starting here.
vi.mock('vanilla-cookieconsent', () => ({
  run: () => new Promise(() => {}),
  validConsent: () => false,
  acceptedCategory: () => false,
  acceptCategory: () => {},
  getUserPreferences: () => ({ acceptType: 'all' }),
  showPreferences: () => {},
  setLanguage: () => Promise.resolve(true),
}));

/** The data the server wrote into the page: it saw no redirectUrl, so a browser. */
const SERVER_DATA: CmpPageConfig = {
  appConsent: null,
  data: {
    brand: 'VELVET_ROPE',
    applicationCode: 'ACQUISITION',
    applicationCountry: 'DE',
    language: 'EN',
    applicationVersion: '1',
    environment: 'WEB_browser',
    userConnectionStatus: 'Unidentified customer',
    optInTrackingConsent: true,
    settingsId: 's',
    scriptAddress: 'https://club.example/entrance/cmp/js/cmp_min.js?v=2026112210',
    hideOnStartup: false,
    readOnly: false,
  },
};

/** The consent script on a page whose window has `bridge` (the app's objects, or none): what it pushes. */
async function cmpDataOn(bridge: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  vi.resetModules();
  const dataLayer: Record<string, unknown>[] = [];
  const win = { ...bridge, __ACQ_CMP__: structuredClone(SERVER_DATA), dataLayer, addEventListener: () => {}, dispatchEvent: () => true };
  vi.stubGlobal('window', win);
  vi.stubGlobal('location', { protocol: 'https:' });
  vi.stubGlobal('document', {
    currentScript: null,
    readyState: 'complete',
    documentElement: { lang: 'en' },
    head: { appendChild: () => {} },
    createElement: () => ({}),
    addEventListener: () => {},
  });
  await import('../cmp/cmp.ts');
  return dataLayer.find((entry) => entry.event === 'cmp_data');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the consent-manager data in the data layer', () => {
  it('says WEB_browser in a browser', async () => {
    expect(await cmpDataOn({})).toMatchObject({ event: 'cmp_data', environment: 'WEB_browser', brand: 'VELVET_ROPE' });
  });

  it('says APP_webview when the app’s native bridge is there, though no redirectUrl told the server (Android and iOS)', async () => {
    expect(await cmpDataOn({ VelvetAppBridge: {} })).toMatchObject({ event: 'cmp_data', environment: 'APP_webview', brand: 'VELVET_ROPE' });
    expect(await cmpDataOn({ webkit: { messageHandlers: { velvetApp: {} } } })).toMatchObject({ event: 'cmp_data', environment: 'APP_webview' });
  });
});
