import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { signLobbyToken, signSocialToken } from '@velvet/tokens/signed-token';
import { E2E } from '../../playwright.config.ts';
import { registerPending } from './support/data.ts';
import { activationLink, receivedMail, uniqueEmail, waitForMail } from './support/mail.ts';
import { PROVIDER_NAMES } from './support/oidc-accounts.ts';
import { dataLayerEvents, expect, plain, test, text } from './support.ts';

/**
 * Social sign-up against a real OpenID Connect provider (tests/e2e/support/oidc-provider.ts,
 * oidc-provider with its own sign-in and consent pages): the whole protocol runs, nothing of
 * ours is mocked. Who signs in decides what the provider tells us (support/oidc-accounts.ts).
 */

const SECOND_STEP = /\/registration\/social-registration-second-step\?token=[\w.-]+$/;

/** The product's secret in the e2e data directory (generated at its first start). */
const secret = () => readFileSync(path.resolve(E2E.dataDir, 'app-secret'), 'utf8').trim();

/** A fresh login at the provider: its address is the login, `named` adds given and family names. */
function providerLogin(kind: 'verified' | 'unverified' | 'noemail', named = false): string {
  return `${kind}+${named ? 'named-' : ''}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`;
}

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Signs in on the provider's own pages and consents to sharing the profile. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${escape(E2E.oidc.issuer)}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password will do');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

interface SecondStep {
  gender: 'female' | 'male';
  firstName?: string;
  lastName?: string;
  country?: string;
  preferences: string[];
}

async function fillSecondStep(page: Page, locale: Locale, values: SecondStep) {
  await page.getByLabel(text(locale, values.gender === 'female' ? 'registration.gender.female' : 'registration.gender.male'), { exact: true }).check();
  if (values.firstName !== undefined) await page.getByLabel(text(locale, 'registration.firstName')).fill(values.firstName);
  if (values.lastName !== undefined) await page.getByLabel(text(locale, 'registration.lastName')).fill(values.lastName);
  if (values.country) await page.getByLabel(text(locale, 'registration.country')).selectOption(values.country);
  for (const preference of values.preferences) {
    await page.getByRole('checkbox', { name: text(locale, `socialSecondStep.preference.${preference}`), exact: true }).check();
  }
  await page.getByRole('checkbox', { name: plain(locale, 'registration.terms') }).check();
}

test.describe('social sign-up', () => {
  test('a verified address: second step, then the welcome voucher at once, and no activation email', async ({ page, invitation }) => {
    const login = providerLogin('verified', true);
    await page.goto(`/?rc=${invitation.code}`);
    const google = page.getByRole('link', { name: text('en', 'signup.google') });
    await expect(google).toHaveAttribute('href', `/auth/social/start?rc=${invitation.code}&lang=en`);
    await google.click();
    await signInAtProvider(page, login);

    await expect(page).toHaveURL(SECOND_STEP);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'socialSecondStep.title'));
    await expect(page.getByText(text('en', 'socialSecondStep.signedInWith', { email: login }))).toBeVisible();
    // The provider gave both names: the page does not ask for them.
    await expect(page.getByLabel(text('en', 'registration.firstName'))).toHaveCount(0);
    await expect(page.getByLabel(text('en', 'registration.lastName'))).toHaveCount(0);

    await page.getByRole('button', { name: text('en', 'socialSecondStep.submit') }).click();
    for (const id of ['validation.gender', 'validation.preferences', 'validation.terms']) {
      await expect(page.getByText(text('en', id), { exact: true })).toBeVisible();
    }
    await fillSecondStep(page, 'en', { gender: 'female', country: 'AT', preferences: ['WOMEN', 'LUXURY'] });
    await page.getByRole('button', { name: text('en', 'socialSecondStep.submit') }).click();

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'activation.welcomeTitle', { firstName: PROVIDER_NAMES.firstName }));
    await expect(page.getByText(text('en', 'activation.voucherPercent', { percent: '10' }))).toBeVisible();
    await expect(page.getByTestId('voucher-code')).toHaveText(/^[A-Z0-9-]{6,}$/);
    await expect
      .poll(() => dataLayerEvents(page))
      .toEqual(expect.arrayContaining(['email_submitted', 'step2_landed', 'step2_submitted', 'registration_success', 'welcome_landed']));

    // A barrier for "no activation email was sent": the outbox sends in the order mail was queued,
    // so once the activation email of a registration made after this one arrived, any email for
    // the login would have arrived too. The one email is the welcome voucher (ADR 058).
    const later = await registerPending(invitation.code);
    await waitForMail(later.email);
    expect((await receivedMail(login)).map((m) => m.subject)).toEqual([text('en', 'email.welcome.subject', { percent: '10' })]);
  });

  test('an unverified address: verify-email page, the activation email, then the welcome', async ({ page, invitation }) => {
    const login = providerLogin('unverified', true);
    await page.goto(`/?rc=${invitation.code}`);
    await page.getByRole('link', { name: text('en', 'signup.google') }).click();
    await signInAtProvider(page, login);
    await expect(page).toHaveURL(SECOND_STEP);
    await fillSecondStep(page, 'en', { gender: 'male', preferences: ['MEN'] });
    await page.getByRole('button', { name: text('en', 'socialSecondStep.submit') }).click();

    await expect(page).toHaveURL(/\/registration\/formfinished$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'formFinished.title'));
    await expect(page.getByText(text('en', 'formFinished.email', { email: login }))).toBeVisible();
    const [mail] = await waitForMail(login);
    expect(mail?.subject).toBe(text('en', 'email.activation.subject'));
    await page.goto(activationLink(mail!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'activation.welcomeTitle', { firstName: PROVIDER_NAMES.firstName }));
  });

  test('German, from the social campaign: the provider leads, the missing names are asked for', async ({ page, invitation }) => {
    const login = providerLogin('verified');
    await page.goto(`/de/social?rc=${invitation.code}`);
    const google = page.getByRole('link', { name: text('de', 'signup.google') });
    await expect(google).toHaveClass(/btn-primary/);
    await expect(page.getByRole('link', { name: text('de', 'signup.email') })).toHaveClass(/btn-outline/);
    await google.click();
    await signInAtProvider(page, login);

    await expect(page).toHaveURL(new RegExp(`^${escape(E2E.base)}/de${SECOND_STEP.source.slice(1)}`));
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'socialSecondStep.title'));
    await expect(page.getByText(text('de', 'socialSecondStep.signedInWith', { email: login }))).toBeVisible();
    await page.getByRole('button', { name: text('de', 'socialSecondStep.submit') }).click();
    for (const id of ['validation.gender', 'validation.firstName', 'validation.lastName', 'validation.preferences', 'validation.terms']) {
      await expect(page.getByText(text('de', id), { exact: true })).toBeVisible();
    }
    await fillSecondStep(page, 'de', { gender: 'male', firstName: 'Jürgen', lastName: 'Weiß', preferences: ['SPORT', 'HOME'] });
    await page.getByRole('button', { name: text('de', 'socialSecondStep.submit') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'activation.welcomeTitle', { firstName: 'Jürgen' }));
    await expect(page.getByTestId('voucher-code')).toBeVisible();
  });

  test('the second step refuses a missing, tampered, expired, foreign or address-less token', async ({ page }) => {
    const email = uniqueEmail('social-token');
    const claims = { email, emailVerified: true, provider: 'google', subject: 'e2e-subject' };
    const valid = await signSocialToken(claims, secret(), 900);
    const tampered = `${valid.slice(0, -4)}AAAA`;
    const expired = await signSocialToken(claims, secret(), 900, new Date(Date.now() - 3_600_000));
    const lobby = await signLobbyToken({ email }, secret(), 900);
    const noEmail = await signSocialToken({ ...claims, email: 'not-an-address' }, secret(), 900);
    for (const query of ['', '?token=', `?token=${tampered}`, `?token=${expired}`, `?token=${lobby}`, `?token=${noEmail}`, '?token=not-a-token']) {
      await page.goto(`/registration/social-registration-second-step${query}`);
      await expect(page, query).toHaveURL(/\/registration\/deny\?reason=sign-in$/);
      await expect(page.getByText(text('en', 'deny.lead.signIn'))).toBeVisible();
    }
    await page.goto(`/nl/registration/social-registration-second-step?token=${expired}`);
    await expect(page).toHaveURL(/\/nl\/registration\/deny\?reason=sign-in$/);
    await expect(page.getByText(text('nl', 'deny.lead.signIn'))).toBeVisible();
  });

  test('the second step and its errors pass axe, and the address can never be changed there', async ({ page, invitation }) => {
    const email = uniqueEmail('social-axe');
    const token = await signSocialToken({ email, emailVerified: false, provider: 'google', subject: `axe-${email}` }, secret(), 900);
    await page.goto(`/fr/registration/social-registration-second-step?rc=${invitation.code}&token=${token}`);
    await expect(page.getByText(text('fr', 'socialSecondStep.signedInWith', { email }))).toBeVisible();
    await expect(page.getByLabel(text('fr', 'registration.email'))).toHaveCount(0);
    await page.getByRole('button', { name: text('fr', 'socialSecondStep.submit') }).click();
    await expect(page.getByText(text('fr', 'validation.preferences'), { exact: true })).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  test('consent denied at the provider: back to the invitation with a notice', async ({ page, invitation }) => {
    await page.goto(`/it?rc=${invitation.code}`);
    await page.getByRole('link', { name: text('it', 'signup.google') }).click();
    await expect(page).toHaveURL(new RegExp(`^${escape(E2E.oidc.issuer)}/interaction/`));
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await expect(page).toHaveURL(new RegExp(`/it\\?rc=${invitation.code}&social=failed$`));
    await expect(page.getByRole('alert').filter({ hasText: text('it', 'socialSecondStep.failed') })).toBeVisible();
    await expect(page.getByRole('link', { name: text('it', 'signup.email') })).toBeVisible();
  });

  test('a forged or replayed answer is refused: state is checked, the transaction is single-use', async ({ page, invitation }) => {
    await page.goto(`/vip?rc=${invitation.code}`);
    await page.getByRole('link', { name: text('en', 'signup.google') }).click();
    await expect(page).toHaveURL(new RegExp(`^${escape(E2E.oidc.issuer)}/interaction/`));
    const forged = `/auth/social/callback?code=forged-code&state=forged-state&iss=${encodeURIComponent(E2E.oidc.issuer)}`;
    await page.goto(forged);
    await expect(page).toHaveURL(new RegExp(`/vip\\?rc=${invitation.code}&social=failed$`));
    await expect(page.getByRole('alert').filter({ hasText: text('en', 'socialSecondStep.failed') })).toBeVisible();
    // The transaction is gone: the same answer again only finds the landing page.
    await page.goto(forged);
    await expect(page).toHaveURL(/\/\?social=failed$/);
    await expect(page.getByRole('alert').filter({ hasText: text('en', 'socialSecondStep.failed') })).toBeVisible();
    await expect(page.getByLabel(text('en', 'landing.code.label'))).toBeVisible();
  });

  test('a provider account without an address cannot sign up', async ({ page, invitation }) => {
    await page.goto(`/sv?rc=${invitation.code}`);
    await page.getByRole('link', { name: text('sv', 'signup.google') }).click();
    await signInAtProvider(page, providerLogin('noemail'));
    await expect(page).toHaveURL(new RegExp(`/sv\\?rc=${invitation.code}&social=failed$`));
    await expect(page.getByRole('alert').filter({ hasText: text('sv', 'socialSecondStep.failed') })).toBeVisible();
  });

  test('a provider that cannot be reached: back to the invitation with a notice', async ({ page, invitation }) => {
    // The outage server's issuer is an address where nothing listens.
    await page.goto(`${E2E.down}/auth/social/start?rc=${invitation.code}&lang=fr`);
    await expect(page).toHaveURL(`${E2E.down}/fr?rc=${invitation.code}&social=failed`);
    await expect(page.getByRole('alert').filter({ hasText: text('fr', 'socialSecondStep.failed') })).toBeVisible();
  });

  test('the start sends only well-formed invitations, always to our own callback, with PKCE, state and nonce', async ({ request, invitation }) => {
    const malformed = await request.get('/auth/social/start?rc=%3Cscript%3E&lang=pl', { maxRedirects: 0 });
    expect(malformed.status()).toBe(302);
    expect(malformed.headers().location).toBe('/pl?social=failed');

    const started = await request.get(`/auth/social/start?rc=${invitation.code.toLowerCase()}&slug=https%3A%2F%2Fevil.example&validityTimestamp=%22%3E&lang=en`, { maxRedirects: 0 });
    expect(started.status()).toBe(302);
    const location = new URL(started.headers().location!);
    expect(`${location.origin}${location.pathname}`).toBe(`${E2E.oidc.issuer}/auth`);
    expect(location.searchParams.get('redirect_uri')).toBe(`${E2E.base}/auth/social/callback`);
    expect(location.searchParams.get('client_id')).toBe(E2E.oidc.clientId);
    expect(location.searchParams.get('scope')).toBe('openid email profile');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['code_challenge', 'state', 'nonce']) expect(location.searchParams.get(name)).toMatch(/^[\w-]{22,}$/);
    const cookie = started.headersArray().find((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith('acq_social='))?.value ?? '';
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).toMatch(/Path=\/auth\/social/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  test('the other providers are still coming soon', async ({ page, invitation }) => {
    await page.goto(`/?rc=${invitation.code}`);
    const soon = page.getByRole('group', { name: text('en', 'signup.comingSoon') });
    // Google signs up for real here, so it is not among them.
    await expect(soon.getByRole('button')).toHaveText([text('en', 'signup.soon.phone'), 'Facebook', 'Apple']);
    await expect(soon.getByText(text('en', 'signup.comingSoon'), { exact: true })).toBeVisible();
  });
});

test.describe('social sign-up without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the second step validates on the server and registers', async ({ page, invitation }) => {
    const login = providerLogin('unverified');
    await page.goto(`/pl?rc=${invitation.code}`);
    await page.getByRole('link', { name: text('pl', 'signup.google') }).click();
    await signInAtProvider(page, login);
    await expect(page).toHaveURL(new RegExp(`/pl${SECOND_STEP.source.slice(1)}`));
    await fillSecondStep(page, 'pl', { gender: 'female', firstName: 'Zofia', lastName: 'Wróblewska', preferences: [] });
    await page.getByRole('button', { name: text('pl', 'socialSecondStep.submit') }).click();
    await expect(page.getByText(text('pl', 'validation.preferences'), { exact: true })).toBeVisible();
    await expect(page.getByLabel(text('pl', 'registration.firstName'))).toHaveValue('Zofia');
    await page.getByRole('checkbox', { name: text('pl', 'socialSecondStep.preference.BEAUTY'), exact: true }).check();
    await page.getByRole('checkbox', { name: plain('pl', 'registration.terms') }).check();
    await page.getByLabel(text('pl', 'registration.gender.female'), { exact: true }).check();
    await page.getByRole('button', { name: text('pl', 'socialSecondStep.submit') }).click();
    await expect(page).toHaveURL(/\/pl\/registration\/formfinished$/);
    const [mail] = await waitForMail(login);
    expect(mail?.subject).toBe(text('pl', 'email.activation.subject'));
  });
});
