/**
 * The consent manager (ADR 011), bundled on its own (vite.cmp.config.ts) and served at
 * /entrance/cmp/js/cmp_min.js: vanilla-cookieconsent with the club's texts in seven
 * languages and black-and-white styling. The page configures it (window.__ACQ_CMP__, set by
 * the inline consent-mode snippet) and learns the visitor's choice from it (window.AcqCmp and
 * the consent-status-updated event). It:
 * - pushes the consent-manager data of spec §3 to the data layer;
 * - shows the banner unless a choice is stored, or the app passed its consent (web view);
 * - opens the preference centre from any [data-cc="show-preferencesModal"] (footer);
 * - stores every choice as a consent record (POST /entrance/cmp/consent → recordConsent).
 */
import 'vanilla-cookieconsent/dist/cookieconsent.css';
import './cmp.css';
import * as CookieConsent from 'vanilla-cookieconsent';
import translations from 'virtual:acq-cmp-translations';
import { pageLoadHeaders } from '../app/lib/page/page-load.ts';
import {
  CMP_DATA_EVENT,
  CMP_STYLE_PATH,
  CONSENT_COOKIE,
  CONSENT_DAYS,
  CONSENT_RECORD_PATH,
  CONSENT_REVISION,
  CONSENT_STATUS_EVENT,
  type CmpPageConfig,
  type ConsentChoice,
} from '../app/lib/consent/consent-shared.ts';
import { hasNativeBridge } from '../app/lib/web-view/web-view.ts';

/** Only readable while this (classic) script first runs. */
const ownSrc = (document.currentScript as HTMLScriptElement | null)?.src ?? '';

type Source = 'BANNER' | 'PREFERENCES' | 'APP';
const ACTIONS = { all: 'ACCEPT_ALL', necessary: 'REJECT_ALL', custom: 'CUSTOM' } as const;

function loadStylesheet(): Promise<void> {
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = `${CMP_STYLE_PATH}${ownSrc ? new URL(ownSrc).search : ''}`;
    link.onload = () => resolve();
    link.onerror = () => resolve();
    document.head.appendChild(link);
  });
}

function currentLanguage(): string {
  const lang = document.documentElement.lang.toLowerCase();
  return lang in translations ? lang : 'en';
}

async function boot(config: CmpPageConfig): Promise<void> {
  let initialised = false;
  let preferencesOpen = false;
  let fromApp = false;

  const choice = (): ConsentChoice | null =>
    CookieConsent.validConsent()
      ? { analytics: CookieConsent.acceptedCategory('analytics'), marketing: CookieConsent.acceptedCategory('marketing') }
      : null;
  window.AcqCmp = { isInitialized: () => initialised, choice, showPreferences: () => CookieConsent.showPreferences() };

  // The app's web view known only by its native bridge is the app's too (spec §3 environment,
  // §4 web-view flag): the server that wrote the data saw no redirectUrl, only this window sees the bridge.
  const data = hasNativeBridge(window) ? { ...config.data, environment: 'APP_webview' as const } : config.data;
  window.dataLayer ??= [];
  window.dataLayer.push({ event: CMP_DATA_EVENT, ...data });

  const announce = () => window.dispatchEvent(new CustomEvent(CONSENT_STATUS_EVENT, { detail: choice() }));

  const record = (consentId: string) => {
    const current = choice();
    const source: Source = fromApp ? 'APP' : preferencesOpen ? 'PREFERENCES' : 'BANNER';
    const body = {
      consentId,
      action: ACTIONS[CookieConsent.getUserPreferences().acceptType],
      source,
      analytics: current?.analytics ?? false,
      marketing: current?.marketing ?? false,
      version: CONSENT_REVISION,
      language: currentLanguage(),
      country: config.data.applicationCountry,
    };
    void fetch(CONSENT_RECORD_PATH, {
      method: 'POST',
      // The page load's id and the page's path go with the record to the API's request log (ADR 022), never into the record.
      headers: { 'content-type': 'application/json', ...pageLoadHeaders() },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined);
  };

  // The footer's "Cookie settings" may be re-rendered by the app after start-up: listen on the document.
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-cc="show-preferencesModal"]') : null;
    if (!target) return;
    event.preventDefault();
    CookieConsent.showPreferences();
  });

  await loadStylesheet();
  await CookieConsent.run({
    hideFromBots: false,
    mode: 'opt-in',
    revision: CONSENT_REVISION,
    autoShow: config.appConsent === null,
    disablePageInteraction: false,
    cookie: {
      name: CONSENT_COOKIE,
      expiresAfterDays: CONSENT_DAYS,
      sameSite: 'Lax',
      secure: location.protocol === 'https:',
    },
    guiOptions: {
      consentModal: { layout: 'box wide', position: 'bottom left', equalWeightButtons: true, flipButtons: false },
      preferencesModal: { layout: 'box', equalWeightButtons: true, flipButtons: false },
    },
    categories: {
      necessary: { enabled: true, readOnly: true },
      analytics: { autoClear: { cookies: [{ name: /^_ga/ }, { name: '_gid' }] } },
      marketing: { autoClear: { cookies: [{ name: '_gcl_au' }, { name: /^_gcl/ }] } },
    },
    language: { default: 'en', autoDetect: 'document', translations },
    onFirstConsent: ({ cookie }) => record(cookie.consentId),
    onConsent: () => announce(),
    onChange: ({ cookie }) => {
      record(cookie.consentId);
      announce();
    },
    onModalShow: ({ modalName }) => {
      if (modalName === 'preferencesModal') preferencesOpen = true;
    },
    onModalHide: ({ modalName }) => {
      if (modalName === 'preferencesModal') preferencesOpen = false;
    },
  });
  initialised = true;

  // Inside the app's web view the app's own consent dialog decides (spec: no banner there).
  if (config.appConsent) {
    const wanted = config.appConsent;
    const current = choice();
    if (!current || current.analytics !== wanted.includes('analytics') || current.marketing !== wanted.includes('marketing')) {
      fromApp = true;
      CookieConsent.acceptCategory([...wanted]);
      fromApp = false;
    }
  }
  if (choice()) announce();

  // A language change in the app (client-side navigation) changes <html lang>: follow it.
  new MutationObserver(() => void CookieConsent.setLanguage(currentLanguage())).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['lang'],
  });
}

function start(): void {
  const config = window.__ACQ_CMP__;
  if (!config || window.AcqCmp) return;
  void boot(config);
}

// An async script may run before the page is parsed: wait for the body (and the inline config).
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
