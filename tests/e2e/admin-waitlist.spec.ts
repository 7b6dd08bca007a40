/**
 * The waiting list and applicants in the admin console (ADR 047), acting as each kind of role:
 * an operator (Swedish, desktop) searches, invites ticked people, releases a batch after a
 * confirmation and sets the daily capacity; a viewer (German) reads only and the server refuses
 * their posts; support (Polish, on a phone) reads only. Zero axe violations; screenshots at
 * 1440 and 390 px are written to the test's output folder.
 */
import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Locale } from '@velvet/i18n/locales';
import type { Page } from '@playwright/test';
import { graphql, lobbyLink, newAdmin, proofOfWork } from './support/data.ts';
import { waitForMail } from './support/mail.ts';
import { animationsSettled, expect, test, text, textWithCounts } from './support.ts';

/** Joins the waiting list with a lobby link (`lobbyLink`), as the lobby's button does. */
async function joinWith(link: string, language: string): Promise<void> {
  const token = new URL(link.trim()).searchParams.get('token') ?? '';
  await graphql('mutation ($token: String!, $language: String) { joinWaitlist(token: $token, language: $language) { outcome } }', { token, language });
}

/** Joins `email` to the waiting list. */
async function join(email: string, language: string): Promise<void> {
  await joinWith(await lobbyLink(email), language);
}

async function signIn(page: Page, locale: Locale, prefix: string, admin: { email: string; password: string }) {
  await page.goto(`${prefix}/admin/login?redirectTo=${encodeURIComponent(`${prefix}/admin/waitlist`)}`);
  await page.getByLabel(text(locale, 'admin.login.email')).fill(admin.email);
  await page.getByLabel(text(locale, 'admin.login.password')).fill(admin.password);
  await page.getByRole('button', { name: text(locale, 'admin.login.submit') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(locale, 'admin.waitlist.title'));
}

async function axeViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  return new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze().then((r) => r.violations.map((v) => v.id));
}

test.describe('as an operator (Swedish, desktop)', () => {
  test.use({ locale: 'sv-SE', viewport: { width: 1440, height: 1000 } });

  test('searches, invites ticked people, releases a batch after a confirmation and sets the daily capacity', async ({ page }, testInfo) => {
    const tag = randomBytes(4).toString('hex');
    const emails = [1, 2, 3].map((i) => `wl-op-${tag}-${i}@example.com`);
    const applicant = `wl-app-${tag}@example.com`;
    // The data at once (each CLI call is a process of its own: one after the other they took
    // most of the test's minute on a busy machine); the three join in order, the list's order.
    const [links, operator] = await Promise.all([
      Promise.all(emails.map((email) => lobbyLink(email))),
      newAdmin('operator'),
      proofOfWork('MEMBERSHIP_INTEREST').then((proof) =>
        graphql('mutation ($email: String!, $proof: String) { applyForMembership(email: $email, language: "sv", proofOfWork: $proof) { accepted } }', { email: applicant, proof }),
      ),
    ]);
    for (const link of links) await joinWith(link, 'sv');
    await signIn(page, 'sv', '/sv', operator);

    // Search by the beginning of the address: exactly these three, earliest first.
    await page.getByLabel(text('sv', 'admin.waitlist.search')).fill(`wl-op-${tag}`);
    await page.getByRole('button', { name: text('sv', 'admin.waitlist.submitSearch'), exact: true }).click();
    const table = page.getByRole('region', { name: text('sv', 'admin.waitlist.tableLabel') });
    await expect(table.getByRole('rowheader')).toHaveText(emails);

    // Tick two and invite them: they leave the "waiting" view; the third stays.
    await table.getByLabel(text('sv', 'admin.waitlist.selectRow', { email: emails[0]! })).check();
    await table.getByLabel(text('sv', 'admin.waitlist.selectRow', { email: emails[1]! })).check();
    await page.getByRole('button', { name: text('sv', 'admin.waitlist.inviteSelected') }).click();
    await expect(page.getByRole('status').filter({ hasText: '2 personer inbjudna.' })).toBeVisible();
    await expect(table.getByRole('rowheader')).toHaveText([emails[2]!]);
    // Their invitation emails went out through the outbox, in their language.
    const [mail] = await waitForMail(emails[0]!);
    expect(mail).toBeDefined();

    // Bad input changes nothing and says why.
    const release = page.getByLabel(text('sv', 'admin.waitlist.release.count'));
    await release.fill('0');
    await page.getByRole('button', { name: text('sv', 'admin.waitlist.release.submit') }).click();
    await expect(page.getByText(text('sv', 'admin.waitlist.release.countInvalid'))).toBeVisible();
    // A batch asks first, then shows how far it is.
    await release.fill('1');
    await page.getByRole('button', { name: text('sv', 'admin.waitlist.release.submit') }).click();
    const confirm = page.getByRole('alertdialog', { name: textWithCounts('sv', 'admin.waitlist.release.question', { count: 1 }) });
    await expect(confirm).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('waitlist-confirm-1440.png'), fullPage: true });
    await confirm.getByRole('button', { name: text('sv', 'admin.waitlist.release.confirm') }).click();
    await expect(page.getByText(`${text('sv', 'admin.waitlist.release.progress', { invited: '1', requested: '1' })}`).first()).toBeVisible();
    // The page came back by a redirect: reloading it asks how far the batch is, it does not post it again.
    await expect(page).toHaveURL(/\/sv\/admin\/waitlist\?list=waitlist$/);
    await page.reload();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    const admission = page.getByRole('region', { name: text('sv', 'admin.waitlist.admission') });
    await expect(admission.getByRole('listitem').filter({ hasText: operator.email })).toHaveCount(1);

    // The capacity: refused out of range, then saved and said with its time zone.
    const capacity = page.getByLabel(text('sv', 'admin.waitlist.capacity.label'));
    await capacity.fill('-1');
    await page.getByRole('button', { name: text('sv', 'admin.waitlist.capacity.save') }).click();
    await expect(page.getByText(text('sv', 'admin.waitlist.capacity.invalid'))).toBeVisible();
    await capacity.fill('0');
    await page.getByRole('button', { name: text('sv', 'admin.waitlist.capacity.save') }).click();
    await expect(page.getByText(text('sv', 'admin.waitlist.capacity.saved'))).toBeVisible();
    // The club's time zone in the page's language, not its IANA id (translation review of 27 Nov, X5).
    await expect(page.getByText(/^Automatisk antagning är avstängd\. I dag \(koordinerad universell tid\): \d+ inbjudna från väntelistan\.$/)).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('waitlist-operator-1440.png'), fullPage: true });

    // Applicants: selected from their own list.
    await page.getByRole('link', { name: text('sv', 'admin.applicants.tab') }).click();
    // The list is shown before the search is typed, as a person waits for it: both lists have the
    // same search box, and a search sent from the waiting list cancels the way to the applicants.
    const applicants = page.getByRole('region', { name: text('sv', 'admin.applicants.tableLabel') });
    await expect(applicants).toBeVisible();
    await page.getByLabel(text('sv', 'admin.waitlist.search')).fill(applicant);
    await page.getByRole('button', { name: text('sv', 'admin.waitlist.submitSearch'), exact: true }).click();
    await applicants.getByLabel(text('sv', 'admin.waitlist.selectRow', { email: applicant })).check();
    await page.getByRole('button', { name: text('sv', 'admin.applicants.inviteSelected') }).click();
    await expect(page.getByRole('status').filter({ hasText: '1 person inbjuden.' })).toBeVisible();
    await expect(applicants.getByRole('rowheader')).toHaveCount(0);
    await expect(applicants.getByText(text('sv', 'admin.waitlist.empty'))).toBeVisible();
  });
});

test.describe('as a viewer (German, desktop)', () => {
  test.use({ viewport: { width: 1440, height: 1000 } });

  test('reads the list; nothing to invite with, and the server refuses a forged post', async ({ page }, testInfo) => {
    const [email] = [`wl-viewer-${randomBytes(4).toString('hex')}@example.com`];
    await join(email!, 'de');
    const viewer = await newAdmin('viewer');
    await signIn(page, 'de', '/de', viewer);
    await page.getByLabel(text('de', 'admin.waitlist.search')).fill(email!);
    await page.getByRole('button', { name: text('de', 'admin.waitlist.submitSearch'), exact: true }).click();
    const table = page.getByRole('region', { name: text('de', 'admin.waitlist.tableLabel') });
    await expect(table.getByRole('rowheader')).toHaveText([email!]);
    await expect(table.getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: text('de', 'admin.waitlist.inviteSelected') })).toHaveCount(0);
    await expect(page.getByRole('button', { name: text('de', 'admin.waitlist.release.submit') })).toHaveCount(0);
    await expect(page.getByLabel(text('de', 'admin.waitlist.capacity.label'))).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);

    // A post made by hand is refused by the API, and says so.
    // A post made by hand (the browser's own fetch, with the viewer's cookie) is refused by the API, and says so.
    const forged = await page.evaluate(async () => {
      const body = new URLSearchParams({ intent: 'release', count: '5', confirmed: 'yes' });
      return (await fetch('/de/admin/waitlist?list=waitlist', { method: 'POST', body })).text();
    });
    expect(forged).toContain(text('de', 'admin.forbidden'));
    await page.reload();
    await expect(table.getByRole('rowheader')).toHaveText([email!]);
    await page.screenshot({ path: testInfo.outputPath('waitlist-viewer-1440.png'), fullPage: true });
  });
});

test.describe('as support, a Polish admin in Warsaw on a phone', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw', viewport: { width: 390, height: 844 } });

  test('reads the waiting list and the applicants; no invitation controls', async ({ page }, testInfo) => {
    const [email] = [`wl-support-${randomBytes(4).toString('hex')}@example.com`];
    await join(email!, 'pl');
    const support = await newAdmin('support');
    await signIn(page, 'pl', '/pl', support);
    await page.getByLabel(text('pl', 'admin.waitlist.search')).fill(email!);
    await page.getByRole('button', { name: text('pl', 'admin.waitlist.submitSearch'), exact: true }).click();
    const table = page.getByRole('region', { name: text('pl', 'admin.waitlist.tableLabel') });
    await expect(table.getByRole('rowheader')).toHaveText([email!]);
    await expect(table.getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: text('pl', 'admin.waitlist.release.submit') })).toHaveCount(0);
    // The table scrolls sideways inside its region by keyboard; the page itself does not.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('waitlist-support-390.png'), fullPage: true });
    await page.getByRole('link', { name: text('pl', 'admin.applicants.tab') }).click();
    await expect(page.getByRole('region', { name: text('pl', 'admin.applicants.tableLabel') })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
