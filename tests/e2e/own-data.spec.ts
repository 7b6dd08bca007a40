/**
 * Pre-members own their data without an account (issue 24 §2, ADR 066), as the people involved
 * meet it: a German applicant on a 390 px phone (Berlin) finds the "manage my data" link in the
 * footer of the email the door sent and goes there from its status page, sees what is held,
 * downloads it and deletes it (the email's link then opens nothing); the request
 * form answers the same for an address the club does not know; a Polish waitlister at 1440 px
 * (Warsaw), invited from the list and registered with the newsletter ticked, withdraws newsletter
 * consent through the link in the activation email; an operator sees a request with its due date
 * in the console's Privacy tab and marks it done. Zero axe violations; screenshots in the test's
 * output folder.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { CLUB_TIME_ZONE } from '@velvet/i18n/locales';
import { signInToConsole } from './support/console.ts';
import { createInvitation, graphql, lobbyLink, newAdmin, proofOfWork, registerPending } from './support/data.ts';
import type { ReceivedMail } from './support/mail.ts';
import { uniqueEmail, waitForMail } from './support/mail.ts';
import { expect, test, text, textWithCounts } from './support.ts';

const axeViolations = (page: Page) =>
  new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze().then((r) => r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));

/** The footer's "manage my data" link in an email's HTML part (ADR 066). */
function dataLinkIn(mail: ReceivedMail): string {
  const match = /href="([^"]*\/my-data\?ref=[A-Za-z0-9_-]{22})"/.exec(mail.html);
  if (!match?.[1]) throw new Error(`No data link in: ${mail.subject}`);
  return match[1];
}

test.describe('as a German applicant on a phone', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('opens the link in the email’s footer, sees what is held, downloads it and deletes it', async ({ page }, testInfo) => {
    const email = uniqueEmail('own-data-de');
    await graphql('mutation ($email: String!, $proof: String) { applyForMembership(email: $email, language: "de", proofOfWork: $proof) { accepted } }', {
      email,
      proof: await proofOfWork('MEMBERSHIP_INTEREST'),
    });
    const [received] = await waitForMail(email);
    expect(received!.subject).toBe(text('de', 'email.applicationReceived.subject'));
    expect(received!.text).toContain(text('de', 'email.footer.manageData'));
    dataLinkIn(received!);
    // The status page in the same email leads there too (a new link, posted for).
    const status = /href="([^"]*\/status\?ref=[A-Za-z0-9_-]{22})"/.exec(received!.html)?.[1];
    await page.goto(status!);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'status.received.title'));
    await page.screenshot({ path: testInfo.outputPath('status-de-390.png'), fullPage: true });
    await page.getByRole('button', { name: text('de', 'status.myData') }).click();
    await expect(page).toHaveURL(/\/de\/my-data\?ref=[A-Za-z0-9_-]{22}$/);

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'myData.title'));
    const held = page.getByRole('region', { name: text('de', 'myData.held.title') });
    await expect(held).toContainText(text('de', 'myData.held.application'));
    await expect(held).toContainText('Deutsch');
    await expect(held).toContainText(text('de', 'myData.held.newsletterNo'));
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('own-data-de-390.png'), fullPage: true });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: text('de', 'myData.download.button') }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^personal-data-[\w-]{8}-.+\.json$/);
    const exported = JSON.parse(await readFile((await file.path())!, 'utf8')) as Record<string, unknown>;
    expect(exported).toMatchObject({ schema: 'velvet-rope/personal-data-export', email, application: { language: 'de' } });

    await page.getByRole('button', { name: text('de', 'myData.erase.button') }).click();
    const confirm = page.getByRole('alertdialog', { name: text('de', 'myData.erase.question') });
    await expect(confirm).toContainText(text('de', 'myData.erase.confirmText'));
    await expect(confirm).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('own-data-de-confirm-390.png'), fullPage: true });
    await confirm.getByRole('button', { name: text('de', 'myData.erase.confirm') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'myData.erased.title'));
    expect(await axeViolations(page)).toEqual([]);

    // The email's link went with the data: opened, it says so and offers the form.
    await page.goto(dataLinkIn(received!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'myData.invalid.title'));
    await expect(page.getByLabel(text('de', 'myData.request.email'))).toBeVisible();
  });

  test('the request form answers the same for an address the club does not know, and the email brings the link', async ({ page }, testInfo) => {
    const email = uniqueEmail('own-data-stranger');
    await page.goto('/de/my-data');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'myData.request.title'));
    await page.getByLabel(text('de', 'myData.request.email')).fill(email);
    await page.getByRole('button', { name: text('de', 'myData.request.button') }).click();
    await expect(page.getByRole('status')).toHaveText(text('de', 'myData.request.sent'));
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('own-data-request-de-390.png'), fullPage: true });
    const [mail] = await waitForMail(email);
    expect(mail!.subject).toBe(text('de', 'email.dataLink.subject'));
    await page.goto(dataLinkIn(mail!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'myData.title'));
    // Nothing but the email with the link: said in words, not as a list of zeros.
    await expect(page.getByText(text('de', 'myData.nothingHeld.text'))).toBeVisible();
    await expect(page.getByText(textWithCounts('de', 'myData.nothingHeld.linkEmail', { days: 30 }))).toBeVisible();
    await expect(page.getByRole('heading', { name: text('de', 'myData.held.title'), exact: true })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('own-data-stranger-de-390.png'), fullPage: true });
  });
});

test.describe('as a Polish waitlister on a desktop', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw', viewport: { width: 1440, height: 1000 } });

  test('withdraws newsletter consent through the link in the activation email, and nothing else changes', async ({ page }, testInfo) => {
    const email = uniqueEmail('own-data-pl');
    const token = new URL((await lobbyLink(email)).trim()).searchParams.get('token') ?? '';
    await graphql('mutation ($token: String!) { joinWaitlist(token: $token, language: "pl") { outcome } }', { token });
    const invitation = await createInvitation();
    await registerPending(invitation.code, { email, firstName: 'Zofia', lastName: 'Wiśniewska', language: 'pl', newsletter: true });
    const mails = await waitForMail(email, 2);
    const activation = mails.find((m) => m.subject === text('pl', 'email.activation.subject'));
    if (!activation) throw new Error(`no activation email among: ${mails.map((m) => m.subject).join(', ')}`);
    await page.goto(dataLinkIn(activation));

    const held = page.getByRole('region', { name: text('pl', 'myData.held.title') });
    await expect(held).toContainText(text('pl', 'myData.held.waitingList'));
    await expect(held).toContainText('Zofia Wiśniewska');
    await expect(held).toContainText(text('pl', 'myData.held.newsletterYes'));
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('own-data-pl-1440.png'), fullPage: true });

    await page.getByRole('button', { name: text('pl', 'myData.newsletter.button') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('pl', 'myData.newsletter.withdrawn') })).toBeVisible();
    await expect(held).toContainText(text('pl', 'myData.held.newsletterNo'));
    await expect(page.getByRole('button', { name: text('pl', 'myData.newsletter.button') })).toHaveCount(0);
    // Nothing else went: reloaded, the page still shows the registration and the place on the list.
    await page.reload();
    await expect(held).toContainText(text('pl', 'myData.held.newsletterNo'));
    await expect(held).toContainText(text('pl', 'myData.held.waitingList'));
    await expect(held).toContainText('Zofia Wiśniewska');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('own-data-pl-withdrawn-1440.png'), fullPage: true });
  });
});

test.describe('as a privacy operator (desktop)', () => {
  test.use({ locale: 'en-GB', viewport: { width: 1440, height: 1000 } });

  test('sees a request in the Privacy tab with its received and due dates, and marks it done', async ({ page }, testInfo) => {
    const email = uniqueEmail('own-data-request');
    const message = `Please correct my surname (${email.slice(0, 24)}).`;
    await graphql('mutation ($email: String!, $message: String, $proof: String) { requestDataLink(email: $email, language: "en", message: $message, proofOfWork: $proof) { sent } }', {
      email,
      message,
      proof: await proofOfWork('WAITING_LIST'),
    });
    const admin = await newAdmin('privacy');
    await signInToConsole(page, 'en', admin, '/admin/privacy');
    const requests = page.getByRole('region', { name: text('en', 'admin.privacy.requests.title') });
    const item = requests.getByRole('listitem').filter({ hasText: email });
    await expect(item).toContainText(message);
    const received = new Date();
    const due = new Date(received);
    due.setUTCMonth(due.getUTCMonth() + 1);
    const medium = (d: Date) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: CLUB_TIME_ZONE }).format(d);
    await expect(item).toContainText(`${text('en', 'admin.privacy.requests.received')}${medium(received)}`);
    await expect(item).toContainText(`${text('en', 'admin.privacy.requests.due')}${medium(due)}`);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('privacy-requests-1440.png'), fullPage: true });

    await item.getByRole('button', { name: text('en', 'admin.privacy.requests.markDone') }).click();
    await expect(item).toContainText(text('en', 'admin.privacy.requests.done'));
    await expect(item.getByRole('button', { name: text('en', 'admin.privacy.requests.markDone') })).toHaveCount(0);
  });
});
