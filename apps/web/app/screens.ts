/**
 * The screens of spec §2, shared by the route table, the localized-path helpers and
 * the tests. Paths have no language prefix; every screen exists under all eight
 * prefixes ('' plus the seven languages).
 */
export type LayoutName = 'default' | 'centered' | 'black-inclined-lines' | 'no-footer' | 'admin';

export interface Screen {
  /** Stable name, also the suffix of the route id. */
  name: string;
  /** Path without language prefix, in React Router syntax, no leading slash. */
  path: string;
  layout: LayoutName;
  /** Route module, relative to app/. */
  file: string;
}

export const SCREENS = [
  { name: 'about-us', path: 'about-us', layout: 'centered', file: 'routes/about-us.tsx' },
  { name: 'stores', path: 'stores', layout: 'centered', file: 'routes/stores.tsx' },
  { name: 'admin-login', path: 'admin/login', layout: 'black-inclined-lines', file: 'routes/admin-login.tsx' },
  { name: 'admin-registration-link-generator', path: 'admin/registrationlinkgenerator', layout: 'admin', file: 'routes/admin-registration-link-generator.tsx' },
  { name: 'admin-split-generator', path: 'admin/splitgenerator', layout: 'admin', file: 'routes/admin-split-generator.tsx' },
  { name: 'admin-funnel', path: 'admin/funnel', layout: 'admin', file: 'routes/admin-funnel.tsx' },
  { name: 'admin-security', path: 'admin/security', layout: 'admin', file: 'routes/admin-security.tsx' },
  { name: 'admin-audit', path: 'admin/audit', layout: 'admin', file: 'routes/admin-audit.tsx' },
  { name: 'admin-codes', path: 'admin/codes', layout: 'admin', file: 'routes/admin-codes.tsx' },
  { name: 'admin-code', path: 'admin/codes/:code', layout: 'admin', file: 'routes/admin-code.tsx' },
  { name: 'admin-admins', path: 'admin/admins', layout: 'admin', file: 'routes/admin-admins.tsx' },
  { name: 'admin-members', path: 'admin/members', layout: 'admin', file: 'routes/admin-members.tsx' },
  { name: 'admin-privacy', path: 'admin/privacy', layout: 'admin', file: 'routes/admin-privacy.tsx' },
  { name: 'admin-waitlist', path: 'admin/waitlist', layout: 'admin', file: 'routes/admin-waitlist.tsx' },
  { name: 'admin-outbox', path: 'admin/outbox', layout: 'admin', file: 'routes/admin-outbox.tsx' },
  { name: 'admin-features', path: 'admin/features', layout: 'admin', file: 'routes/admin-features.tsx' },
  { name: 'admin-webhooks', path: 'admin/webhooks', layout: 'admin', file: 'routes/admin-webhooks.tsx' },
  { name: 'error-404', path: 'error/404', layout: 'centered', file: 'routes/not-found.tsx' },
  { name: 'lobby', path: 'lobby', layout: 'centered', file: 'routes/lobby.tsx' },
  { name: 'waitlist-leave', path: 'waitlist/leave', layout: 'centered', file: 'routes/waitlist-leave.tsx' },
  { name: 'application-status', path: 'status', layout: 'centered', file: 'routes/application-status.tsx' },
  { name: 'my-data', path: 'my-data', layout: 'centered', file: 'routes/my-data.tsx' },
  { name: 'membership-interest', path: 'membership-interest', layout: 'black-inclined-lines', file: 'routes/membership-interest.tsx' },
  { name: 'membership-interest-apply', path: 'membership-interest/apply', layout: 'black-inclined-lines', file: 'routes/membership-interest-apply.tsx' },
  { name: 'membership-interest-confirmation', path: 'membership-interest/confirmation', layout: 'black-inclined-lines', file: 'routes/membership-interest-confirmation.tsx' },
  { name: 'activate-account', path: 'registration/activateaccount', layout: 'no-footer', file: 'routes/activate-account.tsx' },
  { name: 'activate-account-error', path: 'registration/activateaccountError', layout: 'centered', file: 'routes/activate-account-error.tsx' },
  { name: 'deny', path: 'registration/deny', layout: 'black-inclined-lines', file: 'routes/deny.tsx' },
  { name: 'form-finished', path: 'registration/formfinished', layout: 'centered', file: 'routes/form-finished.tsx' },
  { name: 'form-started', path: 'registration/formstarted', layout: 'centered', file: 'routes/form-started.tsx' },
  { name: 'gift-voucher', path: 'registration/gift-voucher', layout: 'centered', file: 'routes/gift-voucher.tsx' },
  { name: 'email-active-complete', path: 'registration/registrationformemailactivecomplete', layout: 'centered', file: 'routes/email-active-complete.tsx' },
  { name: 'email-pending-complete', path: 'registration/registrationformemailpendingcomplete', layout: 'centered', file: 'routes/email-pending-complete.tsx' },
  { name: 'social-registration-second-step', path: 'registration/social-registration-second-step', layout: 'centered', file: 'routes/social-registration-second-step.tsx' },
  // Last: the optional slug would otherwise shadow nothing, but keeping it last reads clearly.
  { name: 'landing', path: ':slug?', layout: 'default', file: 'routes/landing.tsx' },
] as const satisfies readonly Screen[];

export const LAYOUT_FILES: Record<LayoutName, string> = {
  default: 'layouts/default.tsx',
  centered: 'layouts/centered.tsx',
  'black-inclined-lines': 'layouts/black-inclined-lines.tsx',
  'no-footer': 'layouts/no-footer.tsx',
  admin: 'layouts/admin.tsx',
};

/** Landing slugs the club runs campaigns under (/{slug}); any other single segment is a 404. */
export const LANDING_SLUGS = ['vip', 'social', 'viral', 'share', 'daba', 'lean', 'app'] as const;
