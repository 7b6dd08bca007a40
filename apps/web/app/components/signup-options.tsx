import { Form, Link } from 'react-router';
import type { SocialButton } from '../lib/registration/social-registration.ts';
import { useT } from '../lib/page/use-root.ts';
import { ButtonLabel } from './button-label.tsx';

const SOON = ['phone', 'google', 'facebook', 'apple'] as const;

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
 * a plain link to its sign-in (a full page load: it leaves the site); the other providers
 * answer "Coming soon" (a GET form, so it works without JavaScript too).
 *
 * One column of full-width buttons, as tall as the tallest: the card is narrow on phones, in
 * the double-column hero and in the only-mobile frame, and "Continue with …" labels are long
 * in most of the seven languages; side by side they wrapped into three or four lines.
 */
export function SignupOptions({
  emailHref,
  onEmail,
  onEmailIntent,
  hidden,
  comingSoon,
  social,
}: {
  emailHref: string;
  /** Opens the form in a dialog instead of following the link (popup variant). */
  onEmail?: (() => void) | undefined;
  /** The visitor is about to choose email (pointer over it, or focus): load what onEmail needs. */
  onEmailIntent?: (() => void) | undefined;
  /** Query parameters to keep when asking about another provider. */
  hidden: Record<string, string>;
  comingSoon: boolean;
  social?: SocialSignup | null | undefined;
}) {
  const t = useT();
  const socialFirst = Boolean(social?.primary);
  const socialLink = (className: string) =>
    social && (
      <a key="social" className={className} href={social.href}>
        <ButtonLabel>{t(`signup.${social.button}`)}</ButtonLabel>
      </a>
    );
  return (
    <div className="space-y-4" data-testid="signup-options">
      {socialFirst && socialLink('btn-primary w-full')}
      <Link
        className={socialFirst ? 'btn-outline w-full' : 'btn-primary w-full'}
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
      <p className="eyebrow text-center text-stone" aria-hidden="true">{t('signup.or')}</p>
      <Form method="get" preventScrollReset className="grid auto-rows-fr gap-3">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {SOON.map((provider) =>
          social?.button === provider ? (
            !socialFirst && socialLink('btn-outline')
          ) : (
            <button key={provider} type="submit" name="signup" value={provider} className="btn-outline">
              <ButtonLabel>{t(`signup.${provider}`)}</ButtonLabel>
            </button>
          ),
        )}
      </Form>
      <p role="status" className="min-h-5 text-center text-sm">
        {comingSoon ? t('signup.comingSoon') : ''}
      </p>
    </div>
  );
}
