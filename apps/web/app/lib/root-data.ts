import type { Locale, Prefix } from '@velvet/i18n/locales';
import type { ConsentPage } from './consent.server.ts';
import type { ExperimentsData } from './experiments-shared.ts';
import type { RuntimeConfig } from './runtime-config.ts';

/** What the root loader gives every page. */
export interface RootData {
  locale: Locale;
  prefix: Prefix;
  messages: Record<string, string>;
  publicUrl: string;
  year: number;
  /** Promotional banner active today, if any (server-rendered, so no layout shift). */
  promo: 'blackFriday' | 'blackWeek' | 'cyberMonday' | null;
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
