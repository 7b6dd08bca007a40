import { readFileSync } from 'node:fs';
import path from 'node:path';
import { signLobbyToken, signSocialToken } from '@velvet/tokens/signed-token';
import { E2E } from '../../playwright.config.ts';
import { VIP, createInvitation, lobbyLink } from './support/data.ts';
import { leaveLinkIn, lobbyLinkIn, receivedMail, uniqueEmail, waitForMail } from './support/mail.ts';
import { dataLayerEvents, expect, plain, test, text } from './support.ts';

/** The product's secret in the e2e data directory (generated at its first start): to forge the tokens it must refuse. */
const secret = () => readFileSync(path.resolve(E2E.dataDir, 'app-secret'), 'utf8').trim();

test.describe('waiting list', () => {
  test('joins with the email of the shop’s token, once', async ({ page }) => {
    const email = uniqueEmail('lobby');
    const link = await lobbyLink(email);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'lobby.title'));
    await expect(page.getByText(text('en', 'lobby.consent', { email }))).toBeVisible();
    await page.getByRole('button', { name: text('en', 'lobby.join') }).click();
    await expect(page.getByRole('status')).toHaveText(text('en', 'lobby.joined'));
    await expect(page.getByRole('link', { name: text('en', 'lobby.backToLogin') })).toBeVisible();
    await expect.poll(() => page.evaluate(() => (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer.find((e) => e.event === 'join_waitlist'))).toEqual({ event: 'join_waitlist', method: 'Google' });

    // Opened again: already on the list, no form to join twice (UX review of 27 Nov, row 22).
    await page.goto(`/de/lobby?token=${new URL(link).searchParams.get('token')}`);
    await expect(page.getByRole('status')).toHaveText(text('de', 'lobby.alreadyJoined'));
    await expect(page.getByRole('button', { name: text('de', 'lobby.join') })).toHaveCount(0);

    // One confirmation, in the language the list was joined in, with a short way to leave (issue 22 §2).
    const [confirmation] = await waitForMail(email);
    expect(confirmation?.subject).toBe(text('en', 'email.waitlistJoined.subject'));
    const leave = leaveLinkIn(confirmation!);
    expect(`${new URL(leave).pathname}${new URL(leave).search}`).toMatch(/^\/waitlist\/leave\?ref=[A-Za-z0-9_-]{22}$/);
    await page.goto(leave);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'waitlistLeave.title'));
    await page.getByRole('button', { name: text('en', 'waitlistLeave.button') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'waitlistLeave.left.title'));
    // Off the list: the lobby lets the address join again; the used link says it no longer works.
    await page.goto(leave);
    await page.getByRole('button', { name: text('en', 'waitlistLeave.button') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'waitlistLeave.unknown.title'));
    await page.goto(link);
    await page.getByRole('button', { name: text('en', 'lobby.join') }).click();
    await expect(page.getByRole('status')).toHaveText(text('en', 'lobby.joined'));
    // The outbox sends in order: had the German "already on the list" queued one, it would come second.
    const mails = await waitForMail(email, 2);
    expect(mails.map((m) => m.subject)).toEqual([text('en', 'email.waitlistJoined.subject'), text('en', 'email.waitlistJoined.subject')]);
  });

  test('refuses every token that is not a valid lobby link', async ({ page }) => {
    const email = uniqueEmail('bad-token');
    const expired = await signLobbyToken({ email }, secret(), 60, new Date(Date.now() - 3_600_000));
    const social = await signSocialToken({ email, emailVerified: true, provider: 'test', subject: 's' }, secret(), 600);
    const valid = new URL(await lobbyLink(email)).searchParams.get('token') ?? '';
    const tampered = `${valid.slice(0, -4)}AAAA`;
    // A reference of the emailed link's shape that names no link (ADR 060) is refused the same way.
    const unknownReference = '?token=AAAAAAAAAAAAAAAAAAAAAA';
    for (const query of ['', '?token=', `?token=${expired}`, `?token=${social}`, `?token=${tampered}`, '?token=not-a-token', unknownReference]) {
      await page.goto(`/sv/lobby${query}`);
      await expect(page, query).toHaveURL(/\/sv\/registration\/deny\?reason=token$/);
      await expect(page.getByText(text('sv', 'deny.lead.token'))).toBeVisible();
    }
  });
});

test('an emailed lobby link while the API is away: the lobby says so, translated, and offers nothing it cannot do', async ({ page }) => {
  // A reference names its address only through the API (ADR 060); without it there is nothing to join with.
  await page.goto(`${E2E.down}/pl/lobby?token=AAAAAAAAAAAAAAAAAAAAAA`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('pl', 'lobby.title'));
  await expect(page.getByRole('alert')).toHaveText(text('pl', 'error.generic'));
  await expect(page.getByRole('button', { name: text('pl', 'lobby.join') })).toHaveCount(0);
});

test.describe('membership interest', () => {
  test('intro, apply with a checked email, confirmation; a repeat looks the same', async ({ page }) => {
    const email = uniqueEmail('apply');
    await page.goto('/fr/membership-interest');
    await page.getByRole('link', { name: text('fr', 'membershipInterest.cta') }).click();
    await expect(page).toHaveURL(/\/fr\/membership-interest\/apply$/);
    const field = page.getByLabel(text('fr', 'membershipInterestApply.email'));
    await field.fill('not-an-address');
    await page.getByRole('button', { name: text('fr', 'membershipInterestApply.submit') }).click();
    await expect(page.getByText(text('fr', 'validation.email'))).toBeVisible();
    for (let attempt = 0; attempt < 2; attempt++) {
      await page.goto('/fr/membership-interest/apply');
      await page.getByLabel(text('fr', 'membershipInterestApply.email')).fill(email);
      await page.getByRole('button', { name: text('fr', 'membershipInterestApply.submit') }).click();
      await expect(page).toHaveURL(/\/fr\/membership-interest\/confirmation$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('fr', 'membershipInterestConfirmation.title'));
    }
    // "We received your application" (issue 22 §2), in French, once for the two sends.
    const [received] = await waitForMail(email);
    expect(received?.subject).toBe(text('fr', 'email.applicationReceived.subject'));
    expect(received?.text).toContain(text('fr', 'email.applicationReceived.intro'));
    expect(received?.text).toContain('Velvet Rope GmbH');
    // A barrier: the outbox sends in order, so once a later applicant's email arrived, a second one for this address would have too.
    const later = uniqueEmail('apply-later');
    await page.goto('/fr/membership-interest/apply');
    await page.getByLabel(text('fr', 'membershipInterestApply.email')).fill(later);
    await page.getByRole('button', { name: text('fr', 'membershipInterestApply.submit') }).click();
    await waitForMail(later);
    expect(await receivedMail(email)).toHaveLength(1);
  });
});

test('a refused invitation is no dead end: apply, or have the waiting list’s link emailed to the address we know', async ({ page, invitation }) => {
  const email = uniqueEmail('dead-end');
  const expired = await createInvitation({ inviter: 'Marc', expires: '2025-12-31T23:59:59Z' });
  // The visitor typed an email in this visit (lean step 1 keeps it in the flow cookie)…
  await page.goto(`/lean?rc=${invitation.code}`);
  await page.getByRole('link', { name: text('en', 'signup.email') }).click();
  // The form's page, not the landing page's waiting-list field of the same name.
  await expect(page.getByText(text('en', 'registration.step', { current: '1', total: '2' }))).toBeVisible();
  await page.getByLabel(text('en', 'registration.email')).fill(email);
  await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
  await page.getByRole('button', { name: text('en', 'registration.continue') }).click();
  await expect(page.getByText(text('en', 'registration.step', { current: '2', total: '2' }))).toBeVisible();
  // …and then follows an expired invitation.
  await page.goto(`/registration/formstarted?rc=${expired.code}`);
  await expect(page.getByText(text('en', 'deny.expired'))).toBeVisible();
  await page.getByRole('link', { name: text('en', 'deny.applyCta') }).click();
  await expect(page.getByLabel(text('en', 'membershipInterestApply.email'))).toHaveValue(email);
  await page.goBack();
  await page.getByRole('button', { name: text('en', 'deny.waitlistCta') }).click();
  // The address only passed through this visit's cookie: the lobby link goes to its inbox (ADR 029).
  await expect(page.getByRole('status')).toHaveText(text('en', 'deny.waitlistSent', { email }));
  await expect(page).not.toHaveURL(/lobby/);
  await page.goto(lobbyLinkIn((await waitForMail(email))[0]!));
  await expect(page.getByText(text('en', 'lobby.consent', { email }))).toBeVisible();
  await page.getByRole('button', { name: text('en', 'lobby.join') }).click();
  await expect(page.getByRole('status')).toHaveText(text('en', 'lobby.joined'));
  expect(await dataLayerEvents(page)).toContain('join_waitlist');
});

test('a shared product asks for an email and starts the registration with the sharer’s invitation', async ({ page }) => {
  const email = uniqueEmail('share');
  const vip = await createInvitation(VIP);
  await page.goto(`/it/share?rc=${vip.code}`);
  const dialog = page.getByRole('dialog', { name: text('it', 'productShare.title') });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(text('it', 'productShare.text', { inviterName: vip.inviter }))).toBeVisible();
  await dialog.getByLabel(text('it', 'productShare.email')).fill('nope');
  await dialog.getByRole('button', { name: text('it', 'productShare.submit') }).click();
  await expect(dialog.getByText(text('it', 'validation.email'))).toBeVisible();
  await dialog.getByLabel(text('it', 'productShare.email')).fill(email);
  await dialog.getByRole('button', { name: text('it', 'productShare.submit') }).click();
  await expect(page).toHaveURL(new RegExp(`/it/registration/formstarted\\?rc=${vip.code}&slug=share$`));
  // The address URL changes a moment before the new page replaces the old one: wait for the form's heading.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('it', 'registration.title'));
  await expect(dialog).toHaveCount(0);
  await expect(page.getByLabel(text('it', 'registration.email'))).toHaveValue(email);
  await expect(page.getByText(text('it', 'registration.invitedBy', { inviterName: vip.inviter }))).toBeVisible();
});

test.describe('app web view', () => {
  // The shop's own sign-in page hands back to the app: our host, with the app's redirect_uri.
  const redirectUrl = encodeURIComponent(`${E2E.base}/done?redirect_uri=velvetrope://registered`);

  test('hides what leaves the app and hands back at the end of registration', async ({ page, invitation }) => {
    await page.goto(`/?rc=${invitation.code}&redirectUrl=${redirectUrl}`);
    await expect(page.getByRole('link', { name: text('en', 'nav.login') })).toHaveCount(0);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Instagram' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: text('en', 'footer.cookieSettings') })).toHaveCount(0);
    await page.getByRole('link', { name: text('en', 'signup.email') }).click();
    await page.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
    await page.getByLabel(text('en', 'registration.firstName')).fill('Ada');
    await page.getByLabel(text('en', 'registration.lastName')).fill('App');
    await page.getByLabel(text('en', 'registration.email')).fill(uniqueEmail('webview'));
    await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
    await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'formFinished.title'));
    await expect(page.getByRole('link', { name: text('en', 'webView.backToApp') })).toHaveAttribute('href', 'velvetrope://registered');
  });

  test('a native bridge alone turns the web view on', async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { VelvetAppBridge: object }).VelvetAppBridge = {};
    });
    await page.goto('/stores');
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Instagram' })).toHaveCount(0);
  });

  test('redirectUrl never leads elsewhere', async ({ page }) => {
    await page.goto(`/?redirectUrl=${encodeURIComponent('https://evil.example/?redirect_uri=https://evil.example/x')}`);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Instagram' })).toBeVisible();
    await expect(page.getByRole('link', { name: text('en', 'webView.backToApp') })).toHaveCount(0);
  });

  test('another host whose redirect_uri leads into the app means the web view (spec §4)', async ({ page }) => {
    await page.goto(`/?redirectUrl=${encodeURIComponent('https://login.partner.example/authorize?redirect_uri=velvetrope://x')}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Instagram' })).toHaveCount(0);
  });
});
