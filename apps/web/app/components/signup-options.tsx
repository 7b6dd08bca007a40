import { useState } from 'react';
import { Link } from 'react-router';
import type { SocialButton } from '../lib/registration/social-registration.ts';
import { useT } from '../lib/page/use-root.ts';
import { ButtonLabel } from './button-label.tsx';

const SOON = ['phone', 'google', 'facebook', 'apple'] as const;
type Provider = (typeof SOON)[number];
/** The providers' names as the row shows them: the brands' own, and the phone in the visitor's language. */
const BRAND_NAMES: Partial<Record<Provider, string>> = { google: 'Google', facebook: 'Facebook', apple: 'Apple' };

const COMING_SOON_ID = 'signup-coming-soon';

/** The provider that signs people up for real, when social sign-up is configured. */
export interface SocialSignup {
  button: SocialButton;
  /** /auth/social/start with the invitation and the language. */
  href: string;
  /** The social campaign (registrationFlow socialRegistration): the provider leads. */
  primary: boolean;
}

/**
 * "Continue with email" starts the registration; the configured social provider, if any, is
 * a plain link to its sign-in (a full page load: it leaves the site). The providers not yet
 * offered (spec §2: "Coming soon. Please sign-up with email") are one quiet row under them,
 * labelled by that message, which is always in sight: small, grey, dashed, aria-disabled, so
 * no one takes them for buttons that work (UX review of 27 Nov, row 1). A tap changes
 * nothing on the page and loads nothing; it only says the message again to a screen reader.
 *
 * One column of full-width buttons, as tall as the tallest: the card is narrow on phones, in
 * the double-column hero and in the only-mobile frame, and "Continue with …" labels are long
 * in most of the seven languages; side by side they wrapped into three or four lines.
 */
export function SignupOptions({
  emailHref,
  onEmail,
  onEmailIntent,
  social,
}: {
  emailHref: string;
  /** Opens the form in a dialog instead of following the link (popup variant). */
  onEmail?: (() => void) | undefined;
  /** The visitor is about to choose email (pointer over it, or focus): load what onEmail needs. */
  onEmailIntent?: (() => void) | undefined;
  social?: SocialSignup | null | undefined;
}) {
  const t = useT();
  // Taps on a provider not yet offered: each one says the message again (a new text for the live region).
  const [asked, setAsked] = useState(0);
  const socialFirst = Boolean(social?.primary);
  const socialLink = (className: string) =>
    social && (
      <a key="social" className={className} href={social.href}>
        <ButtonLabel>{t(`signup.${social.button}`)}</ButtonLabel>
      </a>
    );
  const or = <p className="eyebrow text-center text-stone" aria-hidden="true">{t('signup.or')}</p>;
  const soon = SOON.filter((provider) => social?.button !== provider);
  return (
    <div className="space-y-4" data-testid="signup-options">
      {socialFirst && socialLink('btn-primary w-full max-[359px]:min-h-16')}
      {socialFirst && or}
      <Link
        className={socialFirst ? 'btn-outline w-full max-[359px]:min-h-16' : 'btn-primary w-full max-[359px]:min-h-16'}
        to={emailHref}
        onPointerEnter={onEmailIntent}
        onFocus={onEmailIntent}
        onClick={(event) => {
          if (!onEmail) return;
          event.preventDefault();
          onEmail();
        }}
      >
        <ButtonLabel>{t('signup.email')}</ButtonLabel>
      </Link>
      {social && !socialFirst && or}
      {social && !socialFirst && socialLink('btn-outline w-full max-[359px]:min-h-16')}
      {soon.length > 0 && (
        <div role="group" aria-labelledby={COMING_SOON_ID} className="pt-2 text-center" data-testid="signup-coming-soon">
          <ul className="flex flex-wrap justify-center gap-1.5">
            {soon.map((provider) => (
              <li key={provider}>
                <button
                  type="button"
                  aria-disabled="true"
                  aria-describedby={COMING_SOON_ID}
                  className="min-h-6 cursor-not-allowed border border-dashed border-line px-2 py-1 text-xs text-stone"
                  onClick={() => setAsked((count) => count + 1)}
                >
                  {BRAND_NAMES[provider] ?? t(`signup.soon.${provider}`)}
                </button>
              </li>
            ))}
          </ul>
          <p id={COMING_SOON_ID} className="mt-2 text-xs text-stone">{t('signup.comingSoon')}</p>
          <p role="status" className="sr-only">{asked ? `${t('signup.comingSoon')}${'\u00a0'.repeat(asked % 2)}` : ''}</p>
        </div>
      )}
    </div>
  );
}
