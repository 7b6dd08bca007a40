/**
 * Webhooks in the console (issue 24 §4, ADR 065) as the owner meets them, in German on a desktop in
 * Berlin: an endpoint added (its secret shown once) pointing at a receiver on this machine, a
 * registration delivered to it — signed, verified here with the Standard Webhooks library — shown
 * in the endpoint's deliveries, sent again with the same webhook-id, and the endpoint deleted after
 * a confirmation. Zero axe violations; screenshots at 1440 px (German) and 390 px (Polish).
 */
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { createInvitation, newAdmin, registerPending } from './support/data.ts';
import { animationsSettled, expect, test, text, textWithCounts } from './support.ts';
import { signInToConsole } from './support/console.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** The club's CRM, as far as this test needs it: answers 204 to every request and keeps it. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${randomUUID().slice(0, 8)}`,
    received,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function axeViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  return new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze().then((r) => r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** The requests for the registration on `code`, verified with `secret` as a receiver does. */
function deliveriesFor(received: Received[], code: string, secret: string) {
  return received.flatMap((request) => {
    const event = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
    return event.type === 'member.registered' && event.data.code === code ? [{ id: String(request.headers['webhook-id']), event }] : [];
  });
}

test.describe('as the owner in Berlin, on a desktop', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 1440, height: 900 } });

  test('adds an endpoint, sees a registration delivered, sends it again with the same id, and deletes the endpoint', async ({ page }, testInfo) => {
    const receiver = await startReceiver();
    try {
      await signInToConsole(page, 'de', await newAdmin('owner'), '/admin/webhooks');
      await expect(page.getByRole('heading', { level: 1, name: text('de', 'admin.webhooks.title') })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);

      const name = `CRM ${randomUUID().slice(0, 8)}`;
      const form = page.getByRole('region', { name: text('de', 'admin.webhooks.new') });
      await form.getByLabel(text('de', 'admin.webhooks.url')).fill(receiver.url);
      await form.getByLabel(text('de', 'admin.webhooks.description')).fill(name);
      // Only registrations: the other events of tests running beside this one stay away.
      for (const type of ['member.activated', 'waitlist.joined', 'application.received', 'application.decided', 'code.quarantined']) {
        await form.getByRole('checkbox', { name: new RegExp(`^${text('de', `admin.webhooks.event.${type}`)}`) }).uncheck();
      }
      await form.getByRole('button', { name: text('de', 'admin.webhooks.create') }).click();
      const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await expect(page.getByRole('heading', { name: text('de', 'admin.webhooks.secretOnce') })).toBeVisible();
      // The form is empty again: a second click would not add the same endpoint twice.
      await expect(form.getByLabel(text('de', 'admin.webhooks.url'))).toHaveValue('');

      const invitation = await createInvitation();
      await registerPending(invitation.code, { language: 'de' });
      await expect.poll(() => deliveriesFor(receiver.received, invitation.code, secret).length, { timeout: 15_000 }).toBe(1);
      const [{ id, event }] = deliveriesFor(receiver.received, invitation.code, secret) as [ReturnType<typeof deliveriesFor>[number]];
      expect(Object.keys(event.data).sort()).toEqual(['code', 'country', 'language', 'memberId', 'status']);
      expect(event.data).toMatchObject({ status: 'pending', country: 'DE', language: 'de' });

      // The delivery in the console: delivered at the first attempt, HTTP 204.
      await page.reload();
      const endpoint = page.getByTestId('webhook-endpoint').filter({ has: page.getByRole('heading', { name }) });
      const row = endpoint.getByTestId(`delivery-${id}`);
      await expect(row).toContainText(text('de', 'admin.webhooks.event.member.registered'));
      await expect(row).toContainText(text('de', 'admin.webhooks.status.delivered'));
      await expect(row).toContainText('HTTP 204');
      expect(await axeViolations(page)).toEqual([]);

      await row.getByRole('button', { name: text('de', 'admin.webhooks.replayOne', { id }) }).click();
      await expect(page.getByRole('status').filter({ hasText: textWithCounts('de', 'admin.webhooks.replayed', { count: 1 }) })).toBeVisible();
      await expect.poll(() => deliveriesFor(receiver.received, invitation.code, secret).map((d) => d.id), { timeout: 15_000 }).toEqual([id, id]);
      await expect.poll(async () => {
        await page.reload();
        return (await row.textContent()) ?? '';
      }, { timeout: 15_000 }).toContain(text('de', 'admin.webhooks.status.delivered'));
      await expect(row.getByRole('cell').nth(2)).toHaveText('2');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, testInfo, 'webhooks-de-1440');

      // More than a page of deliveries (25): the first is among the older ones, a click away, and a link leads back.
      for (const more of [await createInvitation({ balance: 13 }), await createInvitation({ balance: 13 })]) {
        for (let n = 0; n < 13; n++) await registerPending(more.code, { language: 'de' });
      }
      await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(28);
      await page.reload();
      await expect(endpoint.getByRole('row')).toHaveCount(26);
      await expect(row).toHaveCount(0);
      await endpoint.getByRole('link', { name: text('de', 'admin.webhooks.older') }).click();
      await expect(page).toHaveURL(/\/admin\/webhooks\?after=[\w-]+#endpoint-/);
      await expect(row).toContainText(text('de', 'admin.webhooks.status.delivered'));
      // The list says which deliveries these are.
      await expect(endpoint.getByRole('region', { name: `${text('de', 'admin.webhooks.older')}: ${name}` })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, testInfo, 'webhooks-older-de-1440');
      await endpoint.getByRole('link', { name: text('de', 'admin.webhooks.newest') }).click();
      await expect(page).toHaveURL(/\/admin\/webhooks#endpoint-/);
      await expect(row).toHaveCount(0);

      await endpoint.getByRole('button', { name: text('de', 'admin.webhooks.delete') }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(text('de', 'admin.webhooks.deleteText'));
      expect(await axeViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: text('de', 'admin.webhooks.deleteConfirm') }).click();
      await expect(page.getByRole('status').filter({ hasText: text('de', 'admin.webhooks.deleted') })).toBeVisible();
      await expect(page.getByRole('heading', { name })).toHaveCount(0);
    } finally {
      await receiver.close();
    }
  });
});

test.describe('as the owner in Warsaw, on a phone', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('refuses an address with a password in it, adds and deletes one in Polish, and an operator sees no webhooks', async ({ page }, testInfo) => {
    await signInToConsole(page, 'pl', await newAdmin('owner'), '/admin/webhooks');
    const form = page.getByRole('region', { name: text('pl', 'admin.webhooks.new') });
    await form.getByLabel(text('pl', 'admin.webhooks.url')).fill('https://user:secret@crm.example/hooks');
    await form.getByRole('button', { name: text('pl', 'admin.webhooks.create') }).click();
    await expect(page.getByRole('alert')).toHaveText(text('pl', 'admin.webhooks.error.credentials'));
    expect(await axeViolations(page)).toEqual([]);

    // A receiver on this machine (the quick start's rule, ADR 026) that hears only quarantines; nothing listens there.
    const name = `Karty lojalnościowe ${randomUUID().slice(0, 8)}`;
    await form.getByLabel(text('pl', 'admin.webhooks.url')).fill(`http://127.0.0.1:9/hooks/${randomUUID().slice(0, 8)}`);
    await form.getByLabel(text('pl', 'admin.webhooks.description')).fill(name);
    for (const type of ['member.registered', 'member.activated', 'waitlist.joined', 'application.received', 'application.decided']) {
      await form.getByRole('checkbox', { name: new RegExp(`^${text('pl', `admin.webhooks.event.${type}`)}`) }).uncheck();
    }
    await form.getByRole('button', { name: text('pl', 'admin.webhooks.create') }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
    const endpoint = page.getByTestId('webhook-endpoint').filter({ has: page.getByRole('heading', { name }) });
    await expect(endpoint).toContainText(text('pl', 'admin.webhooks.state.on'));
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'webhooks-pl-390');
    await endpoint.getByRole('button', { name: text('pl', 'admin.webhooks.delete') }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: text('pl', 'admin.webhooks.deleteConfirm') }).click();
    await expect(page.getByRole('heading', { name })).toHaveCount(0);

    await page.context().clearCookies();
    await signInToConsole(page, 'pl', await newAdmin('operator'), '/admin/webhooks');
    await expect(page.getByRole('alert')).toHaveText(text('pl', 'admin.forbidden'));
    await expect(page.getByRole('link', { name: text('pl', 'admin.webhooks.nav') })).toHaveCount(0);
    await expect(page.getByRole('region', { name: text('pl', 'admin.webhooks.new') })).toHaveCount(0);
  });
});
