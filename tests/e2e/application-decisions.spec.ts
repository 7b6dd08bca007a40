/**
 * Applicants and waitlisters hear back (issue 24 §1, ADR 063), as the people involved meet it:
 * an operator at 1440 px declines an applicant in the console with a reason and sees the
 * address's history; a German applicant on a 390 px phone opens the decline email and the
 * status page it links to, and applying again within the cool-down is answered with the date;
 * a Polish waitlister on a phone opens their status page and leaves the list from it; a German
 * operator at 1440 px reads the list of every decline, filtered by reason and day, without an
 * address; a German applicant who is selected finds the status link in the invitation, saying
 * "invited". Zero axe violations on the console screens and the status page; screenshots in the
 * test's output folder.
 */
import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { graphql, lobbyLink, newAdmin, proofOfWork } from './support/data.ts';
import { signInToConsole } from './support/console.ts';
import type { ReceivedMail } from './support/mail.ts';
import { waitForMail } from './support/mail.ts';
import { animationsSettled, expect, test, text, textWithCounts } from './support.ts';

async function axeViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const APPLY = 'mutation ($email: String!, $language: String, $proof: String) { applyForMembership(email: $email, language: $language, proofOfWork: $proof) { accepted } }';

async function applyAs(email: string, language: string): Promise<void> {
  await graphql(APPLY, { email, language, proof: await proofOfWork('MEMBERSHIP_INTEREST') });
}

/** A new admin of `role`, signed in through the API: their address and the Bearer header. */
async function adminAuth(role: 'owner' | 'operator'): Promise<{ email: string; auth: Record<string, string> }> {
  const admin = await newAdmin(role);
  const { adminLogin } = await graphql<{ adminLogin: { token: string } }>('mutation ($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }', admin);
  return { email: admin.email, auth: { authorization: `Bearer ${adminLogin.token}` } };
}

/** The ids of `email`'s application, as the applicants list finds them. */
async function applicationIds(email: string, auth: Record<string, string>): Promise<string[]> {
  const { applicants } = await graphql<{ applicants: { entries: { id: string }[] } }>('query ($search: String) { applicants(search: $search) { entries { id } } }', { search: email }, auth);
  return applicants.entries.map((e) => e.id);
}

/** Declines the application of `email` through the API, as an operator would in the console; returns the operator's address. */
async function declineThroughApi(email: string, reasonId: string): Promise<string> {
  const { email: operator, auth } = await adminAuth('operator');
  await graphql('mutation ($ids: [String!]!, $reasonId: String!) { applicantsDecline(ids: $ids, reasonId: $reasonId) { declined } }', { ids: await applicationIds(email, auth), reasonId }, auth);
  return operator;
}

/** The status link in an email's HTML part (ADR 063). */
function statusLinkIn(mail: ReceivedMail): string {
  const match = /href="([^"]*\/status\?ref=[A-Za-z0-9_-]{22})"/.exec(mail.html);
  if (!match?.[1]) throw new Error(`No status link in: ${mail.subject}`);
  return match[1];
}

test.describe('as an operator (desktop)', () => {
  test.use({ locale: 'en-GB', viewport: { width: 1440, height: 1000 } });

  test('declines a ticked applicant with a reason, and the address’s history shows who decided, why and until when', async ({ page }, testInfo) => {
    const email = `decline-op-${randomBytes(4).toString('hex')}@example.com`;
    const [operator] = await Promise.all([newAdmin('operator'), applyAs(email, 'fr')]);
    await signInToConsole(page, 'en', operator, '/admin/waitlist');
    await page.goto(`/admin/waitlist?list=applicants&search=${encodeURIComponent(email)}`);

    const history = page.getByRole('region', { name: text('en', 'admin.decline.history.title', { email }) });
    await expect(history.getByRole('listitem')).toHaveText([new RegExp(text('en', 'admin.decline.history.applied'))]);
    const table = page.getByRole('region', { name: text('en', 'admin.applicants.tableLabel') });
    await expect(table.getByRole('rowheader')).toHaveText([email]);

    // Without a reason nothing is declined, and the page says why.
    await table.getByLabel(text('en', 'admin.waitlist.selectRow', { email })).check();
    await page.getByRole('button', { name: text('en', 'admin.decline.submit') }).click();
    await expect(page.getByRole('alert')).toHaveText(text('en', 'admin.decline.reasonMissing'));

    await table.getByLabel(text('en', 'admin.waitlist.selectRow', { email })).check();
    await page.getByLabel(text('en', 'admin.decline.reason')).selectOption({ label: 'All places are taken for now, so we cannot admit new members at the moment.' });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: text('en', 'admin.decline.submit') }).click();
    await expect(page.getByRole('status').filter({ hasText: textWithCounts('en', 'admin.decline.declined', { count: 1 }) })).toBeVisible();

    // The history now holds the decision: the reason, the operator, the end of the cool-down.
    await page.reload();
    await expect(history.getByRole('listitem')).toHaveCount(2);
    await expect(history.getByRole('listitem').first()).toContainText(text('en', 'admin.decline.history.declined'));
    await expect(history.getByRole('listitem').first()).toContainText('All places are taken for now');
    await expect(history.getByRole('listitem').first()).toContainText(operator.email);
    await expect(table.getByRole('rowheader')).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('decline-console-1440.png'), fullPage: true });

    // The decline email went out in the applicant's language.
    const mails = await waitForMail(email, 2);
    expect(mails.map((m) => m.subject)).toContain(text('fr', 'email.applicationDeclined.subject'));

    // The reasons tab: every role reads it; only the owner gets the forms' buttons.
    await page.getByRole('link', { name: text('en', 'admin.decline.tab') }).click();
    await expect(page.getByRole('heading', { name: text('en', 'admin.decline.reasons.title') })).toBeVisible();
    await expect(page.getByRole('button', { name: text('en', 'admin.decline.reasons.save') })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
  });
});

test.describe('as the owner (desktop)', () => {
  test.use({ locale: 'en-GB', viewport: { width: 1440, height: 1000 } });

  test('writes a new decline reason in the seven languages and sets the cool-down', async ({ page }, testInfo) => {
    const owner = await newAdmin('owner');
    await signInToConsole(page, 'en', owner, '/admin/waitlist');
    await page.getByRole('link', { name: text('en', 'admin.decline.tab') }).click();
    await expect(page.getByRole('heading', { name: text('en', 'admin.decline.reasons.title') })).toBeVisible();

    const tag = randomBytes(3).toString('hex');
    const form = page.getByRole('form', { name: text('en', 'admin.decline.reasons.new') });
    const texts: Record<string, string> = {
      en: `We are pausing new memberships for a short while (${tag}).`,
      de: `Wir nehmen für kurze Zeit keine neuen Mitglieder auf (${tag}).`,
      fr: `Nous suspendons brièvement les nouvelles adhésions (${tag}).`,
      it: `Sospendiamo per poco tempo le nuove adesioni (${tag}).`,
      nl: `We nemen korte tijd geen nieuwe leden aan (${tag}).`,
      pl: `Na krótko wstrzymujemy przyjmowanie nowych członków (${tag}).`,
      sv: `Vi tar tillfälligt inte emot nya medlemmar (${tag}).`,
    };
    // One language left empty: the server refuses, and says what is missing.
    for (const [language, value] of Object.entries(texts)) {
      if (language !== 'sv') await form.getByLabel(new Intl.DisplayNames(['en'], { type: 'language' }).of(language)!, { exact: true }).fill(value);
    }
    await form.locator('textarea[name="sv"]').evaluate((el) => el.removeAttribute('required'));
    await form.getByRole('button', { name: text('en', 'admin.decline.reasons.add') }).click();
    await expect(page.getByRole('alert')).toHaveText(text('en', 'admin.decline.reason.textMissing'));
    await form.getByLabel('Swedish', { exact: true }).fill(texts.sv!);
    await form.getByRole('button', { name: text('en', 'admin.decline.reasons.add') }).click();
    await expect(page.getByRole('status')).toHaveText(text('en', 'admin.decline.reasons.saved'));
    // Listed with the others, and the new-reason form is empty again for the next one.
    await expect(page.locator('textarea', { hasText: texts.pl! })).toHaveCount(1);
    await expect(form.getByLabel('Polish', { exact: true })).toHaveValue('');

    await page.getByLabel(text('en', 'admin.decline.cooldown.label')).fill('90');
    await page.getByRole('button', { name: text('en', 'admin.decline.cooldown.save') }).click();
    await expect(page.getByRole('status')).toHaveText(text('en', 'admin.decline.cooldown.saved'));
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('decline-reasons-owner-1440.png'), fullPage: true });
  });
});

test.describe('as a German applicant on a phone', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('opens the decline email and its status page, and applying again within the cool-down says from when', async ({ page }, testInfo) => {
    const email = `decline-de-${randomBytes(4).toString('hex')}@example.com`;
    await page.goto('/de/membership-interest/apply');
    await page.getByLabel(text('de', 'membershipInterestApply.email')).fill(email);
    await page.getByRole('button', { name: text('de', 'membershipInterestApply.submit') }).click();
    await expect(page).toHaveURL(/\/de\/membership-interest\/confirmation$/);
    await declineThroughApi(email, 'reason-country');

    const mails = await waitForMail(email, 2);
    const decline = mails.find((m) => m.subject === text('de', 'email.applicationDeclined.subject'));
    expect(decline, 'the decline email').toBeDefined();
    expect(decline!.text).toContain('In Ihrem Land nehmen wir derzeit noch keine neuen Mitglieder auf.');
    expect(decline!.text).toContain(text('de', 'email.lobby.button'));
    // The email as a mail client shows it (a page of its own, outside the site and its CSP), then its status link.
    const mailbox = await page.context().newPage();
    await mailbox.setContent(decline!.html);
    await expect(mailbox.getByRole('link', { name: text('de', 'email.status.link') })).toBeVisible();
    await mailbox.screenshot({ path: testInfo.outputPath('decline-email-de-390.png'), fullPage: true });
    await mailbox.close();
    const status = statusLinkIn(decline!);
    expect(new URL(status).pathname).toBe('/de/status');

    const response = await page.goto(status);
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'status.declined.title'));
    await expect(page.getByText('In Ihrem Land nehmen wir derzeit noch keine neuen Mitglieder auf.')).toBeVisible();
    await expect(page.getByText(text('de', 'status.reapplyFrom'))).toBeVisible();
    await expect(page.getByRole('button', { name: text('de', 'status.withdraw.button') })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('status-declined-de-390.png'), fullPage: true });

    // The "received" email's link shows the decision too.
    const received = mails.find((m) => m.subject === text('de', 'email.applicationReceived.subject'));
    await page.goto(statusLinkIn(received!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'status.declined.title'));
    // A decline keeps no address: the way to the person's data is the form that mails a data link.
    await page.getByRole('link', { name: text('de', 'status.myData') }).click();
    await expect(page).toHaveURL(/\/de\/my-data$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'myData.request.title'));

    // Applying again during the cool-down: a kind answer with the date, and no new email.
    await page.goto('/de/membership-interest/apply');
    await page.getByLabel(text('de', 'membershipInterestApply.email')).fill(email);
    await page.getByRole('button', { name: text('de', 'membershipInterestApply.submit') }).click();
    await expect(page.getByRole('status')).toContainText('Auf eine Anfrage von dieser Adresse haben wir vor Kurzem geantwortet.');
    await expect(page).toHaveURL(/\/de\/membership-interest\/apply$/);
  });
});

test.describe('as a Polish waitlister on a phone', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('opens the status page from the confirmation email and leaves the list from it', async ({ page }, testInfo) => {
    const email = `status-pl-${randomBytes(4).toString('hex')}@example.com`;
    await page.goto(`/pl/lobby?token=${new URL(await lobbyLink(email)).searchParams.get('token')}`);
    await page.getByRole('button', { name: text('pl', 'lobby.join') }).click();
    await expect(page.getByRole('status')).toHaveText(text('pl', 'lobby.joined'));

    const [confirmation] = await waitForMail(email);
    expect(confirmation?.subject).toBe(text('pl', 'email.waitlistJoined.subject'));
    expect(confirmation!.text).toContain(text('pl', 'email.status.text'));
    const response = await page.goto(statusLinkIn(confirmation!));
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('pl', 'status.waiting.title'));
    await expect(page.getByText(text('pl', 'status.expectedWait'), { exact: true })).toBeVisible();
    // An estimate from the last 30 days' invitations (other tests invite from the list), or honestly none: each says which.
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect(page.getByText(new RegExp(`^(${escape(text('pl', 'status.expectedWait.hint'))}|${escape(text('pl', 'status.expectedWait.unknownHint'))})$`))).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('status-waiting-pl-390.png'), fullPage: true });

    await page.getByRole('button', { name: text('pl', 'status.leave.button') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('pl', 'waitlistLeave.left.title'));
    await page.goto(statusLinkIn(confirmation!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('pl', 'status.unknown.title'));
  });
});

test.describe('as a German operator reading the declines (desktop)', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 1440, height: 1000 } });

  test('lists every decline newest first with reason, who decided, when and the cool-down’s end — filtered by reason and day, never an address', async ({ page }, testInfo) => {
    // A reason of this test's own, so the filter shows exactly its declines among everyone else's.
    const tag = randomBytes(3).toString('hex');
    const owner = await adminAuth('owner');
    const languages = ['en', 'de', 'fr', 'it', 'nl', 'pl', 'sv'] as const;
    const input = Object.fromEntries(languages.map((language) => [language, `${language === 'de' ? 'Kein Platz in dieser Saison' : 'No room this season'} (${tag})`]));
    const { declineReasonSave } = await graphql<{ declineReasonSave: { reason: { id: string } } }>(
      'mutation ($input: DeclineReasonInput!) { declineReasonSave(input: $input) { reason { id } } }',
      { input },
      owner.auth,
    );
    const reasonId = declineReasonSave.reason.id;
    const first = `declines-a-${tag}@example.com`;
    const second = `declines-b-${tag}@example.com`;
    await Promise.all([applyAs(first, 'nl'), applyAs(second, 'pl')]);
    const dayOf = (instant: Date) => instant.toISOString().slice(0, 10);
    const firstDay = dayOf(new Date());
    const firstOperator = await declineThroughApi(first, reasonId);
    const secondOperator = await declineThroughApi(second, reasonId);
    const secondDay = dayOf(new Date());

    const operator = await newAdmin('operator');
    await signInToConsole(page, 'de', operator, '/admin/waitlist');
    await page.getByRole('link', { name: text('de', 'admin.declines.tab') }).click();
    await expect(page.getByRole('link', { name: text('de', 'admin.declines.tab') })).toHaveAttribute('aria-current', 'page');
    const table = page.getByRole('region', { name: text('de', 'admin.declines.tableLabel') });
    await expect(table.getByRole('columnheader')).toHaveText(
      ['admin.declines.col.declined', 'admin.declines.col.reason', 'admin.declines.col.decidedBy', 'admin.declines.col.until', 'admin.waitlist.col.language'].map((id) => text('de', id)),
    );

    await page.getByLabel(text('de', 'admin.decline.reason')).selectOption({ label: input.de! });
    await page.getByRole('button', { name: text('de', 'admin.waitlist.submitSearch') }).click();
    await expect(page).toHaveURL(new RegExp(`reason=${reasonId}`));
    // Newest first: the second decline above the first, each with the reason in German and its operator.
    const rows = table.getByTestId('decline-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(secondOperator);
    await expect(rows.nth(1)).toContainText(firstOperator);
    await expect(rows.nth(0)).toContainText(input.de!);
    await expect(rows.nth(0).getByRole('cell').last()).toHaveText('pl');
    await expect(page.getByLabel(text('de', 'admin.decline.reason'))).toHaveValue(reasonId);
    // The cool-down's end, in the console's format ("24.11.2026, 12:49"), after the decline itself.
    const [declinedAt, until] = await Promise.all([rows.nth(0).getByRole('rowheader').textContent(), rows.nth(0).getByRole('cell').nth(2).textContent()]);
    expect(declinedAt).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    expect(until).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    // No address anywhere: a decline keeps only the address's pseudonym.
    await expect(page.locator('body')).not.toContainText(first);
    await expect(page.locator('body')).not.toContainText(second);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('declines-de-1440.png'), fullPage: true });

    // By day (UTC): the day of the second decline holds it, and the first too unless midnight (UTC)
    // fell between them; a day long past holds none, and says so.
    await page.getByLabel(text('de', 'admin.declines.day')).fill(secondDay);
    await page.getByRole('button', { name: text('de', 'admin.waitlist.submitSearch') }).click();
    await expect(page).toHaveURL(new RegExp(`day=${secondDay}`));
    await expect(rows).toHaveCount(firstDay === secondDay ? 2 : 1);
    await expect(rows.nth(0)).toContainText(secondOperator);
    await page.getByLabel(text('de', 'admin.declines.day')).fill('2020-01-01');
    await page.getByRole('button', { name: text('de', 'admin.waitlist.submitSearch') }).click();
    await expect(page).toHaveURL(/day=2020-01-01/);
    await expect(rows).toHaveCount(0);
    await expect(table).toContainText(text('de', 'admin.declines.empty'));
    expect(await axeViolations(page)).toEqual([]);
  });
});

test.describe('as a German applicant who is invited (phone)', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('finds the status link in the invitation email, and the status page says invited', async ({ page }, testInfo) => {
    const email = `invited-de-${randomBytes(4).toString('hex')}@example.com`;
    await applyAs(email, 'de');
    const { auth } = await adminAuth('operator');
    await graphql('mutation ($ids: [String!]!) { applicantsSelect(ids: $ids) { invited } }', { ids: await applicationIds(email, auth) }, auth);

    const mails = await waitForMail(email, 2);
    const invitation = mails.find((m) => m.subject === text('de', 'email.invitation.subject'));
    expect(invitation, 'the invitation email').toBeDefined();
    expect(invitation!.text).toContain(text('de', 'email.status.text'));
    const mailbox = await page.context().newPage();
    await mailbox.setContent(invitation!.html);
    await expect(mailbox.getByRole('link', { name: text('de', 'email.status.link') })).toBeVisible();
    await mailbox.screenshot({ path: testInfo.outputPath('invitation-email-de-390.png'), fullPage: true });
    await mailbox.close();

    await page.goto(statusLinkIn(invitation!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'status.invited.title'));
    await expect(page.getByRole('button', { name: text('de', 'status.withdraw.button') })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('status-invited-de-390.png'), fullPage: true });
  });
});
