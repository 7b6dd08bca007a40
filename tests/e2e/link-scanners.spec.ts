/**
 * Links that scanners can't use up (issue 12 §1, ADR 040). Every single-use link the club emails
 * is opened first the way link scanners and chat previews open it — Outlook Safe Links and
 * Microsoft Office's prefetch, a Slack unfurl (Slackbot-LinkExpanding, Slack-ImgProxy), WhatsApp
 * and Facebook's previewers: GET and HEAD without scripts, and once in a browser that runs the
 * page with the previewer's user agent — and only then by the person. The person's click does
 * what the link promises, exactly once.
 */
import { expect, plain, test, text } from './support.ts';
import { cli } from './support/cli.ts';
import { activationLink, invitationLinkIn, lobbyLinkIn, uniqueEmail, waitForMail } from './support/mail.ts';
import { graphql, proofOfWork, registerPending } from './support/data.ts';
import type { APIRequestContext, Browser } from '@playwright/test';

const SCANNERS = {
  outlookSafeLinks: 'Mozilla/5.0 (compatible; MSOffice 16; Microsoft Outlook SafeLinks)',
  officePrefetch: 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17029; Pro)',
  slackUnfurl: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  slackImageProxy: 'Slack-ImgProxy (+https://api.slack.com/robots)',
  whatsApp: 'WhatsApp/2.23.20.0 A',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
};

/** Every scanner opens `link` with GET and HEAD, scripts off, as they do: the page answers, nothing is used. */
async function replayScanners(request: APIRequestContext, link: string): Promise<void> {
  for (const userAgent of Object.values(SCANNERS)) {
    const got = await request.get(link, { headers: { 'user-agent': userAgent }, maxRedirects: 0 });
    expect(got.status(), `GET as ${userAgent}`).toBe(200);
    const head = await request.head(link, { headers: { 'user-agent': userAgent }, maxRedirects: 0 });
    expect(head.status(), `HEAD as ${userAgent}`).toBe(200);
  }
}

/** A previewer that runs the page's scripts (Safe Links' detonation, Slack's unfurl in a browser): the page waits for a person. */
async function openWithScripts(browser: Browser, link: string, userAgent: string) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await page.goto(link);
  return { page, close: () => context.close() };
}

async function run(args: string[]): Promise<string> {
  const result = await cli(args);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

test.describe('emailed links opened by scanners first', () => {
  test('activation: scanners and previews change nothing, the person activates exactly once and gets the voucher once', async ({ page, browser, invitation }) => {
    const registrant = await registerPending(invitation.code, { firstName: 'Maja' });
    const [mail] = await waitForMail(registrant.email);
    const link = activationLink(mail!);

    await replayScanners(page.request, link);
    for (const userAgent of [SCANNERS.outlookSafeLinks, SCANNERS.slackUnfurl]) {
      const preview = await openWithScripts(browser, link, userAgent);
      await expect(preview.page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'activation.title'));
      await expect(preview.page.getByText(text('en', 'activation.confirmText'))).toBeVisible();
      await expect(preview.page.getByRole('button', { name: text('en', 'activation.button') })).toBeEnabled();
      await preview.close();
    }

    // The person: the page confirms by itself and shows the welcome voucher.
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'activation.welcomeTitle', { firstName: 'Maja' }));
    await expect(page.getByText(text('en', 'activation.voucherCode'))).toBeVisible();

    // Scanners again after the activation, then the person once more: already active, no second voucher.
    await replayScanners(page.request, link);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'activation.alreadyActive.title'));
    await expect(page.getByText(text('en', 'activation.voucherCode'))).toHaveCount(0);
  });

  test('waiting list: the emailed lobby link joins only when the person presses the button', async ({ page, browser }) => {
    const email = uniqueEmail('lobby-scanned');
    await graphql('mutation ($email: String!, $proof: String) { requestLobbyLink(email: $email, language: "en", proofOfWork: $proof) { sent } }', {
      email,
      proof: await proofOfWork('WAITING_LIST'),
    });
    const [mail] = await waitForMail(email);
    const link = lobbyLinkIn(mail!);

    await replayScanners(page.request, link);
    const preview = await openWithScripts(browser, link, SCANNERS.slackUnfurl);
    await expect(preview.page.getByRole('button', { name: text('en', 'lobby.join') })).toBeVisible();
    await preview.close();
    expect(await run(['waitlist', 'list', '--csv'])).not.toContain(email);

    await page.goto(link);
    await page.getByRole('button', { name: text('en', 'lobby.join') }).click();
    await expect(page.getByRole('status')).toHaveText(text('en', 'lobby.joined'));
    expect((await run(['waitlist', 'list', '--csv'])).split(email).length - 1).toBe(1);
  });

  test('a selected applicant: the invitation link survives scanners and registers the person', async ({ page }) => {
    const email = uniqueEmail('applicant-scanned');
    await graphql('mutation ($email: String!, $proof: String) { applyForMembership(email: $email, language: "en", proofOfWork: $proof) { accepted } }', {
      email,
      proof: await proofOfWork('MEMBERSHIP_INTEREST'),
    });
    await run(['interest', 'select', '--email', email]);
    // First "we received your application" (issue 22 §2), then the invitation.
    const [received, mail] = await waitForMail(email, 2);
    expect(received!.subject).toBe(text('en', 'email.applicationReceived.subject'));
    const link = invitationLinkIn(mail!);

    await replayScanners(page.request, link);
    await page.goto(link);
    await page.getByRole('link', { name: text('en', 'signup.email') }).click();
    await page.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
    await page.getByLabel(text('en', 'registration.firstName'), { exact: true }).fill('Ines');
    await page.getByLabel(text('en', 'registration.lastName'), { exact: true }).fill('Nowak');
    await page.getByLabel(text('en', 'registration.email')).fill(email);
    await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
    await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
    await expect(page).toHaveURL(/\/registration\/formfinished$/);
    await expect(page.getByText(text('en', 'formFinished.email', { email }))).toBeVisible();
  });
});
