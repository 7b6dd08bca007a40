/**
 * The admin console's outbox and flags (issue 13, ADR 049) as each role meets them: an operator
 * retries failed emails after a confirmation and runs an experiment (a bad weight refused, in
 * their language); a viewer and a support admin read both pages but see no way to change them,
 * and the server refuses them when they post anyway. German on a desktop, Polish on a phone,
 * Swedish on a phone; zero axe violations; screenshots at 1440 and 390 px.
 *
 * The flag changed here is the onboarding experiment at zero coverage: nobody is in it before,
 * during or after the change (?onboarding-variant=1 still forces the same variation), so tests
 * running beside this one see the same pages.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import Database from 'better-sqlite3';
import type { Page, TestInfo } from '@playwright/test';
import { E2E } from '../../playwright.config.ts';
import { newAdmin } from './support/data.ts';
import { animationsSettled, expect, test, text, textWithCounts } from './support.ts';
import { signInToConsole } from './support/console.ts';

type Locale = 'de' | 'pl' | 'sv' | 'en';

/** A message with one `{count, plural, …}`, as the page formats it for `count`. */
const counted = (locale: Locale, id: string, count: number): string => textWithCounts(locale, id, { count });

/**
 * Emails the worker gave up on, as it leaves them (10 attempts, the address replaced in the error);
 * with `waiting`, emails that failed 3 times and wait for an attempt far ahead (the worker leaves them).
 */
function failedEmails(count: number, { waiting = false } = {}): string[] {
  const db = new Database(path.resolve(E2E.dataDir, 'velvet.sqlite'), { fileMustExist: true, timeout: 10_000 });
  try {
    const insert = db.prepare(`insert into email_outbox (id, recipient, template, locale, payload, status, attempts, next_attempt_at, locked_until, last_error, created_at, sent_at)
      values (?, ?, 'activation', 'de', '{}', ?, ?, ?, null, ?, ?, null)`);
    const now = new Date().toISOString();
    return Array.from({ length: count }, () => {
      const id = randomUUID();
      const error = `Error: 550 mailbox unavailable for [address] (${id.slice(0, 8)})`;
      insert.run(id, `outbox-${id}@example.test`, waiting ? 'pending' : 'failed', waiting ? 3 : 10, waiting ? '2099-01-01T00:00:00.000Z' : now, error, now);
      return id;
    });
  } finally {
    db.close();
  }
}

function outboxStatus(id: string): { status: string; attempts: number } {
  const db = new Database(path.resolve(E2E.dataDir, 'velvet.sqlite'), { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    return db.prepare('select status, attempts from email_outbox where id = ?').get(id) as { status: string; attempts: number };
  } finally {
    db.close();
  }
}

async function axeViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  return new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze().then((r) => r.violations.map((v) => v.id));
}

/** A form post from the signed-in page itself (same origin, its cookie), as a hand-made form would send it: the page's HTML answer. */
function postForm(page: Page, url: string, fields: Record<string, string>): Promise<string> {
  return page.evaluate(
    async ([to, body]) => (await fetch(to, { method: 'POST', body: new URLSearchParams(body), headers: { accept: 'text/html' } })).text(),
    [url, fields] as const,
  );
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test.describe('as an operator in Berlin, on a desktop', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 1440, height: 900 } });

  test('retries failed emails, one and several, each after a confirmation', async ({ page }, testInfo) => {
    const [first, second, third] = failedEmails(3) as [string, string, string];
    const [waiting] = failedEmails(1, { waiting: true }) as [string];
    await signInToConsole(page, 'de', await newAdmin('operator'), '/admin/outbox');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'admin.outbox.title'));
    await page.getByLabel(text('de', 'admin.outbox.status')).selectOption('failed');
    await page.getByRole('button', { name: text('de', 'admin.outbox.show') }).click();
    await expect(page).toHaveURL(/status=failed/);
    const row = (id: string) => page.getByTestId(`outbox-${id}`);
    await expect(row(first)).toContainText(text('de', 'admin.outbox.status.failed'));
    await expect(row(first)).toContainText(`mailbox unavailable for [address] (${first.slice(0, 8)})`);
    await expect(page.getByRole('table')).not.toContainText('@example.test');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'outbox-1440');

    // Nothing selected: said so, nothing sent.
    await page.getByRole('button', { name: text('de', 'admin.outbox.retrySelected') }).click();
    await expect(page.getByRole('alert')).toHaveText(text('de', 'admin.outbox.error.none'));

    await page.getByLabel(text('de', 'admin.outbox.selectRow', { id: first })).check();
    await page.getByLabel(text('de', 'admin.outbox.selectRow', { id: second })).check();
    await page.getByRole('button', { name: text('de', 'admin.outbox.retrySelected') }).click();
    const confirm = page.getByRole('alertdialog', { name: counted('de', 'admin.outbox.confirmQuestion', 2) });
    await expect(confirm).toBeVisible();
    expect(outboxStatus(first)).toEqual({ status: 'failed', attempts: 10 });
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: text('de', 'admin.outbox.confirm') }).click();
    await expect(page.getByRole('status').filter({ hasText: counted('de', 'admin.outbox.retried', 2) })).toBeVisible();
    // Due now with a fresh count: the worker may already be at it, but they are failed no more.
    for (const id of [first, second]) {
      expect(outboxStatus(id).status).not.toBe('failed');
      expect(outboxStatus(id).attempts).toBeLessThan(10);
      await expect(row(id)).toHaveCount(0);
    }

    // An email between attempts is told apart from a fresh one.
    await page.getByLabel(text('de', 'admin.outbox.status')).selectOption('pending');
    await page.getByRole('button', { name: text('de', 'admin.outbox.show') }).click();
    await expect(row(waiting)).toContainText(text('de', 'admin.outbox.status.retrying'));
    await page.getByLabel(text('de', 'admin.outbox.status')).selectOption('failed');
    await page.getByRole('button', { name: text('de', 'admin.outbox.show') }).click();

    await row(third).getByRole('button', { name: text('de', 'admin.outbox.retry') }).click();
    await page.getByRole('alertdialog', { name: counted('de', 'admin.outbox.confirmQuestion', 1) }).getByRole('button', { name: text('de', 'admin.outbox.confirm') }).click();
    await expect(page.getByRole('status').filter({ hasText: counted('de', 'admin.outbox.retried', 1) })).toBeVisible();
    expect(outboxStatus(third).status).not.toBe('failed');
  });
});

test.describe('as an operator in Warsaw, on a phone', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw', viewport: { width: 390, height: 844 } });

  test('runs an experiment: a bad weight is refused in Polish and changes nothing; then back to the file after a confirmation', async ({ page }, testInfo) => {
    await signInToConsole(page, 'pl', await newAdmin('operator'), '/admin/features');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('pl', 'admin.features.title'));
    const card = page.getByRole('region', { name: 'onboarding-variant' });
    await expect(card).toContainText('"full"');
    await expect(card).toContainText(text('pl', 'admin.features.source.file'));
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'features-390');

    await card.getByText(text('pl', 'admin.features.change')).click();
    const experiment = card.getByRole('form', { name: text('pl', 'admin.features.experimentTitle') });
    await experiment.getByLabel(text('pl', 'admin.features.weights')).fill('0.5,0.6');
    await experiment.getByLabel(text('pl', 'admin.features.coverage')).fill('0');
    await experiment.getByRole('button', { name: text('pl', 'admin.features.runExperiment') }).click();
    await expect(experiment.getByText(text('pl', 'admin.features.error.weightSum'))).toBeVisible();
    await expect(experiment.getByLabel(text('pl', 'admin.features.weights'))).toHaveAccessibleDescription(
      new RegExp(text('pl', 'admin.features.error.weightSum').replace(/[.]/g, '\\.')),
    );
    await expect(card).toContainText(text('pl', 'admin.features.source.file'));

    const value = card.getByRole('form', { name: text('pl', 'admin.features.serveTitle') });
    await value.getByLabel(text('pl', 'admin.features.value')).fill('short');
    await value.getByRole('button', { name: text('pl', 'admin.features.set') }).click();
    await expect(value.getByText(text('pl', 'admin.features.error.json'))).toBeVisible();

    // The form stays open with its message; the other form's message is gone after this submit.
    await experiment.getByLabel(text('pl', 'admin.features.weights')).fill('0.6,0.4');
    await experiment.getByLabel(text('pl', 'admin.features.coverage')).fill('0');
    await experiment.getByRole('button', { name: text('pl', 'admin.features.runExperiment') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('pl', 'admin.features.saved', { key: 'onboarding-variant' }) })).toBeVisible();
    await expect(card).toContainText(text('pl', 'admin.features.source.database'));
    await expect(card).toContainText('60%');
    // The running site serves it, as after `experiment set`.
    await expect
      .poll(async () => {
        const body = (await (await page.request.get('/api/features/sdk-velvet-rope')).json()) as { features: Record<string, { rules?: { weights: number[] }[] }> };
        return body.features['onboarding-variant']?.rules?.[0]?.weights;
      }, { timeout: 15_000 })
      .toEqual([0.6, 0.4]);
    await screenshot(page, testInfo, 'features-changed-390');

    await card.getByRole('button', { name: text('pl', 'admin.features.reset') }).click();
    const confirm = page.getByRole('alertdialog', { name: text('pl', 'admin.features.resetQuestion', { key: 'onboarding-variant' }) });
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: text('pl', 'admin.features.resetConfirm') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('pl', 'admin.features.saved', { key: 'onboarding-variant' }) })).toBeVisible();
    await expect(card).toContainText(text('pl', 'admin.features.source.file'));
  });
});

test.describe('as a viewer in Stockholm, on a phone', () => {
  test.use({ locale: 'sv-SE', timezoneId: 'Europe/Stockholm', viewport: { width: 390, height: 844 } });

  test('reads the outbox and the flags, finds nothing to change, and is refused by the server when posting anyway', async ({ page }, testInfo) => {
    const [failed] = failedEmails(1) as [string];
    await signInToConsole(page, 'sv', await newAdmin('viewer'), '/admin/outbox');
    const nav = page.getByRole('navigation', { name: text('sv', 'admin.nav.label') });
    await expect(nav.getByRole('link', { name: text('sv', 'admin.features.nav') })).toBeVisible();
    await page.getByLabel(text('sv', 'admin.outbox.status')).selectOption('failed');
    await page.getByRole('button', { name: text('sv', 'admin.outbox.show') }).click();
    await expect(page.getByTestId(`outbox-${failed}`)).toContainText(text('sv', 'admin.outbox.status.failed'));
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: text('sv', 'admin.outbox.retrySelected') })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'outbox-viewer-390');

    expect(await postForm(page, '/sv/admin/outbox', { ids: failed, confirmed: 'yes' })).toContain(text('sv', 'admin.forbidden'));
    expect(outboxStatus(failed)).toEqual({ status: 'failed', attempts: 10 });

    await nav.getByRole('link', { name: text('sv', 'admin.features.nav') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('sv', 'admin.features.title'));
    await expect(page.getByText(text('sv', 'admin.features.readOnly'))).toBeVisible();
    await expect(page.getByRole('textbox')).toHaveCount(0);
    const card = page.getByRole('region', { name: 'top-banner-copy' });
    await expect(card).toContainText('"members-first"');
    expect(await axeViolations(page)).toEqual([]);
    expect(await postForm(page, '/sv/admin/features', { intent: 'set', key: 'promo-banner', value: 'false' })).toContain(text('sv', 'admin.forbidden'));
  });
});

test('a support admin reads both pages and may change neither (English)', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToConsole(page, 'en', await newAdmin('support'), '/admin/features');
  await expect(page.getByText(text('en', 'admin.features.readOnly'))).toBeVisible();
  await expect(page.getByRole('button', { name: text('en', 'admin.features.runExperiment') })).toHaveCount(0);
  await screenshot(page, testInfo, 'features-support-1440');
  const change = { intent: 'experiment', key: 'onboarding-variant', variations: 'full,short', weights: '0.5,0.5', coverage: '0' };
  expect(await postForm(page, '/admin/features', change)).toContain(text('en', 'admin.forbidden'));
  await page.goto('/admin/outbox');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'admin.outbox.title'));
  await expect(page.getByRole('button', { name: text('en', 'admin.outbox.retrySelected') })).toHaveCount(0);
});
