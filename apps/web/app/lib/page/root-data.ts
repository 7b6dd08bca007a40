import type { Locale, Prefix } from '@velvet/i18n/locales';
import type { PromoStretch } from '../calendar/promo.ts';
import type { ConsentPage } from '../consent/consent-shared.ts';
import type { ExperimentsData } from '../experiments/experiments-shared.ts';
import type { RuntimeConfig } from './runtime-config.ts';

/** What the root loader gives every page. */
export interface RootData {
  locale: Locale;
  prefix: Prefix;
  publicUrl: string;
  /** The year of `now` in the club's calendar (the footer's copyright). */
  year: number;
  /**
   * The instant the page's calendar shows (ms since the epoch; ADR 021): the promotion and its
   * countdown are rendered from it on the server, hydrated from it, then tick on in the browser.
   * The server's clock, or a test's X-Test-Now when TEST_CLOCK allows it.
   */
  now: number;
  /** The promotions around `now` as instants (`seasonsAround`): the browser's banner needs no time-zone rules (ADR 068). */
  promoSeasons: PromoStretch[];
  /** Server-rendered runtime settings; /acquisition-defaults.json may override them. */
  runtime: RuntimeConfig;
  /** Inside the app's web view (as far as the server can tell), and where to hand back. */
  webView: { active: boolean; returnUrl: string | null };
  /** The consent script on this page and the tag manager (ADR 011). */
  consent: ConsentPage;
  /** Feature flags and A/B tests for this page (ADR 012). */
  experiments: ExperimentsData;
  /** The browser's error-report tunnel, null when reporting is off (ADR 013). */
  errorReporting: { endpoint: string; environment: string } | null;
}
