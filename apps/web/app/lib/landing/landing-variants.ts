/**
 * Landing options (spec §3): what a campaign slug changes about the page. The texts and the
 * welcome voucher of a code's customization are the shared table of
 * @velvet/validation/customization (`customizationTexts`, `voucherFor`).
 */
import type { RegistrationFlow } from '@velvet/validation/registration';
import { SHOP_ORIGIN } from '@velvet/validation/shop';
import { EXTERNAL_LINKS } from '../external-links.ts';

export type LandingLayout = 'right-double-column' | 'center-single-column' | 'only-mobile';

/** The flows a campaign can start in: a lean registration starts at its first step. */
type EntryFlow = Exclude<RegistrationFlow, 'leanStep2'>;

export interface LandingOptions {
  layout: LandingLayout;
  /** registrationFlow: the flow a registration on this campaign starts in. */
  registrationFlow: EntryFlow;
  /** registrationFormFinishedInPopup: the form and its "check your inbox" open in a dialog. */
  registrationFormFinishedInPopup: boolean;
  /** previousPDPPage: the visitor comes from a member's shared product page. */
  previousPDPPage: boolean;
}

const DEFAULT_OPTIONS: LandingOptions = {
  layout: 'right-double-column',
  registrationFlow: 'default',
  registrationFormFinishedInPopup: false,
  previousPDPPage: false,
};

const SLUG_OPTIONS: Record<string, Partial<LandingOptions>> = {
  vip: {},
  social: { registrationFlow: 'socialRegistration' },
  viral: { registrationFormFinishedInPopup: true },
  share: { registrationFormFinishedInPopup: true, previousPDPPage: true },
  daba: { layout: 'center-single-column' },
  lean: { registrationFlow: 'leanStep1', layout: 'center-single-column' },
  app: { layout: 'only-mobile' },
};

export function landingOptions(slug: string | null | undefined): LandingOptions {
  return { ...DEFAULT_OPTIONS, ...(slug ? SLUG_OPTIONS[slug] : undefined) };
}

/**
 * Whether a route's loader data is a landing page in the only-mobile layout: the default
 * layout then draws the page in a phone-width frame (ADR 024).
 */
export function isOnlyMobileLanding(loaderData: unknown): boolean {
  if (!loaderData || typeof loaderData !== 'object' || !('options' in loaderData)) return false;
  const { options } = loaderData as { options: unknown };
  return Boolean(options && typeof options === 'object' && 'layout' in options && options.layout === 'only-mobile');
}

/**
 * The landing page options of spec §3 as the page holds them: the campaign's options above,
 * what the visit brought along (sourcePath) and the page's own state.
 */
export interface LandingPageOptions extends LandingOptions {
  /**
   * sourcePath: the page of the shop the visitor came from (a member's shared piece, a
   * members-only page), from the `sourcePath` query parameter. Kept in the flow cookie, it is
   * where "Shop now" leads once the account is active. Only a path on the shop's own origin.
   */
  sourcePath: string | null;
  /** isLandingPageLoading: the page's code check or its registration pop-up is on its way. */
  isLandingPageLoading: boolean;
  /** isWebView: the page runs inside the club's app (ADR 008). */
  isWebView: boolean;
}

const MAX_SOURCE_PATH = 300;

/**
 * A `sourcePath` the page may use: a path on the shop's origin (`/p/silk-dress?size=38`),
 * never another site (`//evil.example`, `https://…`, `/\evil.example`). Null otherwise.
 */
export function sourcePathFrom(value: string | null | undefined): string | null {
  if (!value || value.length > MAX_SOURCE_PATH || !value.startsWith('/') || value.startsWith('//')) return null;
  // No spaces, backslashes or control characters (browsers read `/\\host` as another site).
  if (/[\s\\]/.test(value) || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  const url = URL.parse(value, SHOP_ORIGIN);
  if (!url || url.origin !== SHOP_ORIGIN) return null;
  return `${url.pathname}${url.search}`;
}

/** Where "Shop now" leads: the page the visitor came from, else the shop's login. */
export function shopLink(sourcePath: string | null | undefined): string {
  const path = sourcePathFrom(sourcePath);
  return path ? `${SHOP_ORIGIN}${path}` : EXTERNAL_LINKS.login;
}
