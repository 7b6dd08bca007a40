/**
 * The landing page as the UX review of 27 November saw it (issue 22): rows 1, 2, 14, 16 and 17,
 * on a 390-px phone and on a desktop. What a visitor sees is measured in the browser: what is
 * in the first screen, what has focus, what a tap does, what axe says.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { blockInviter, createInvitation, registerPending } from './support/data.ts';
import { animationsSettled, expect, test, text, waitForHydration } from './support.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/** The review's phone: 390 × 844, touch. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const DEVICES = { phone: PHONE, desktop: DESKTOP } as const;

async function axeViolations(page: Page, include?: string): Promise<string[]> {
  await animationsSettled(page);
  const builder = new AxeBuilder({ page }).withTags(TAGS);
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Counts the page's own navigations (full loads and router navigations alike). */
function countNavigations(page: Page): () => number {
  let count = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) count += 1;
  });
  return () => count;
}

const money = (locale: Locale, euros: number) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(euros);

for (const [device, use] of Object.entries(DEVICES)) {
  test.describe(`issue 22 row 1: the sign-up options not yet available (${device})`, () => {
    test.use(use);

    test('look unavailable, say "coming soon" beside them and do nothing on a tap', async ({ page, invitation }) => {
      await page.goto(`/de?rc=${invitation.code}`);
      await waitForHydration(page);
      const email = page.getByRole('link', { name: text('de', 'signup.email') });
      // The provider that works here (OIDC, ADR 010) stays a real button.
      await expect(page.getByRole('link', { name: text('de', 'signup.google') })).toHaveAttribute('href', `/auth/social/start?rc=${invitation.code}&lang=de`);
      const soon = page.getByRole('group', { name: text('de', 'signup.comingSoon') });
      const providers = soon.getByRole('button');
      await expect(providers).toHaveText([text('de', 'signup.soon.phone'), 'Facebook', 'Apple']);
      const message = soon.getByText(text('de', 'signup.comingSoon'), { exact: true });
      await message.scrollIntoViewIfNeeded();
      await expect(message).toBeInViewport({ ratio: 1 });
      const emailHeight = (await email.boundingBox())!.height;
      for (const provider of await providers.all()) {
        await expect(provider).toHaveAttribute('aria-disabled', 'true');
        await expect(provider).not.toHaveClass(/btn-/);
        await expect(provider).toBeInViewport({ ratio: 1 });
        // A quiet row, not a stack of buttons as heavy as the one that works.
        expect((await provider.boundingBox())!.height).toBeLessThan(emailHeight * 0.75);
      }
      // The message sits right under the row.
      const row = (await providers.first().boundingBox())!;
      expect((await message.boundingBox())!.y - (row.y + row.height)).toBeLessThan(32);

      const navigations = countNavigations(page);
      const before = page.url();
      // Forced: Playwright waits for an aria-disabled button to become enabled; a person taps it anyway.
      if (device === 'phone') await providers.first().tap({ force: true });
      else await providers.first().click({ force: true });
      await expect(page.getByRole('status').filter({ hasText: text('de', 'signup.comingSoon') })).toHaveCount(1);
      expect(page.url()).toBe(before);
      expect(navigations()).toBe(0);
      expect(await axeViolations(page, '#code')).toEqual([]);
    });
  });
}

test.describe('issue 22 row 2: a code that cannot be used, on a phone', () => {
  test.use(PHONE);

  /** A link's code that cannot be used, opened on the phone: the refusal is the first thing seen, focused, with the code and the ways on. */
  async function expectRefusalFirst(page: Page, code: string, message: string) {
    await page.goto(`/de?rc=${code}`);
    const alert = page.getByRole('alert');
    await expect(alert, code).toHaveText(message);
    await expect(alert, code).toBeInViewport({ ratio: 1 });
    await expect(alert, code).toBeFocused();
    // Focused to be read out, not to be operated: no keyboard ring around the message.
    await expect(alert, code).toHaveCSS('outline-style', 'none');
    await expect(page.getByLabel(text('de', 'landing.code.label')), code).toHaveValue(code);
    const ways = page.getByTestId('code-refusal');
    await expect(ways.getByRole('link', { name: text('de', 'landing.noCode.cta') })).toHaveAttribute('href', '/de/membership-interest');
    for (const way of ['landing.noCode.cta', 'lobby.join', 'landing.code.retry']) {
      await expect(ways.getByRole('link', { name: text('de', way) }), `${code} ${way}`).toBeInViewport({ ratio: 1 });
    }
    // The ways on are controls: reached by Tab, they show their ring.
    await page.keyboard.press('Tab');
    const retry = ways.getByRole('link', { name: text('de', 'landing.code.retry') });
    await expect(retry, code).toBeFocused();
    await expect(retry, code).toHaveCSS('outline-style', 'solid');
  }

  // Three tests, not one: each makes its codes with the CLI, and six in one test outlasted 90 s on a loaded machine.
  test('expired or unknown: the message comes first, has the focus, keeps the code, and the ways on lead where they say', async ({ page }) => {
    const expired = await createInvitation({ inviter: 'Marc', expires: '2025-12-31T23:59:59Z' });
    await expectRefusalFirst(page, 'E2E-NOPE-0000', text('de', 'invitation.invalid'));
    await expectRefusalFirst(page, expired.code, text('de', 'invitation.expired'));
    const ways = page.getByTestId('code-refusal');
    await ways.getByRole('link', { name: text('de', 'lobby.join') }).click();
    await expect(page.getByRole('region', { name: text('de', 'loginBlock.title') }).getByLabel(text('de', 'registration.email'))).toBeFocused();
    await ways.getByRole('link', { name: text('de', 'landing.code.retry') }).click();
    await expect(page.getByLabel(text('de', 'landing.code.label'))).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('no places left or all taken: the same', async ({ page }) => {
    const [spent, full] = await Promise.all([createInvitation({ inviter: 'Julia', balance: 0 }), createInvitation({ inviter: 'Lukas', balance: 1 })]);
    await registerPending(full.code);
    await expectRefusalFirst(page, spent.code, text('de', 'invitation.noBalance', { inviterName: spent.inviter }));
    await expectRefusalFirst(page, full.code, text('de', 'invitation.noBalance', { inviterName: full.inviter }));
  });

  test('a blocked inviter or a link-only code: the same', async ({ page }) => {
    const [blocked, linkOnly] = await Promise.all([createInvitation({ inviter: 'Eva' }), createInvitation({ linkOnly: true })]);
    await blockInviter(blocked);
    await expectRefusalFirst(page, blocked.code, text('de', 'invitation.invalid'));
    await expectRefusalFirst(page, linkOnly.code, text('de', 'invitation.invalidLink'));
  });

  test('a typed code that cannot be used: said at once, with focus, the code kept and the ways on', async ({ page }) => {
    const expired = await createInvitation({ inviter: 'Marc', expires: '2025-12-31T23:59:59Z' });
    await page.goto('/pl');
    await waitForHydration(page);
    const field = page.getByLabel(text('pl', 'landing.code.label'));
    await field.fill(expired.code);
    await page.getByRole('button', { name: text('pl', 'landing.code.submit') }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText(text('pl', 'deny.expired'));
    await expect(alert).toBeFocused();
    await expect(alert).toBeInViewport({ ratio: 1 });
    await expect(field).toHaveValue(expired.code);
    const ways = page.getByTestId('code-refusal');
    for (const way of ['landing.noCode.cta', 'lobby.join', 'landing.code.retry']) {
      await expect(ways.getByRole('link', { name: text('pl', way) })).toBeInViewport({ ratio: 1 });
    }
  });
});

test.describe('issue 22 row 2: a code that cannot be used, on a desktop', () => {
  test.use(DESKTOP);

  test('the message stands above the hero, with the focus and the code kept', async ({ page }) => {
    const expired = await createInvitation({ inviter: 'Marc', expires: '2025-12-31T23:59:59Z' });
    await page.goto(`/fr?rc=${expired.code}`);
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText(text('fr', 'invitation.expired'));
    await expect(alert).toBeFocused();
    await expect(alert).toBeInViewport({ ratio: 1 });
    await expect(page.getByLabel(text('fr', 'landing.code.label'))).toHaveValue(expired.code);
    expect(await axeViolations(page)).toEqual([]);
  });
});

test.describe('issue 22 row 14: "How it works" on a phone', () => {
  test.use(PHONE);

  test('is usable by keyboard, shows where the visitor is and never cuts a card', async ({ page, invitation }) => {
    await page.goto(`/de?rc=${invitation.code}`);
    await waitForHydration(page);
    const section = page.getByRole('region', { name: text('de', 'onboarding.title') });
    const list = section.getByRole('list');
    await list.scrollIntoViewIfNeeded();
    const position = section.getByTestId('onboarding-position');
    await expect(position).toHaveText('1 / 4');
    await expect(section.getByText(text('de', 'registration.step', { current: '1', total: '4' }))).toHaveCount(1);
    // Each card shows whole or not at all: none is cut at the screen's edge.
    const cut = () =>
      list.evaluate((ol) => {
        const frame = ol.getBoundingClientRect();
        return [...ol.children].filter((li) => {
          const card = li.getBoundingClientRect();
          const shown = Math.min(card.right, frame.right) - Math.max(card.left, frame.left);
          return shown > 1 && shown < card.width - 1;
        }).length;
      });
    expect(await cut()).toBe(0);
    // The scroller is a tab stop; the arrow keys move it.
    await list.focus();
    await expect(list).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(position).toHaveText('2 / 4');
    await section.getByRole('button', { name: text('de', 'onboarding.next') }).click();
    await expect(position).toHaveText('3 / 4');
    await expect.poll(cut).toBe(0);
    await section.getByRole('button', { name: text('de', 'onboarding.previous') }).click();
    await expect(position).toHaveText('2 / 4');
    const axe = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    expect(axe.violations.map((v) => v.id)).not.toContain('scrollable-region-focusable');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('names its controls in Polish even when the rest of the catalog never arrives', async ({ page, consoleErrors }) => {
    // The page brings the messages its first render formats, the rest of the language's catalog
    // comes after hydration (ADR 038); in a train tunnel it does not come at all.
    let catalogAsked = 0;
    await page.route(/\/messages\/pl\.json/, (route) => {
      catalogAsked++;
      return route.abort('internetdisconnected');
    });
    await page.goto('/pl');
    await waitForHydration(page);
    await expect(page).toHaveTitle(text('pl', 'meta.landing.title'));
    const section = page.getByRole('region', { name: text('pl', 'onboarding.title') });
    await section.getByRole('list').scrollIntoViewIfNeeded();
    await expect(section.getByTestId('onboarding-position')).toHaveText('1 / 4');
    await expect(section.getByRole('button', { name: text('pl', 'onboarding.previous') })).toBeDisabled();
    await expect(section.getByText(text('pl', 'registration.step', { current: '1', total: '4' }))).toHaveCount(1);
    await section.getByRole('button', { name: text('pl', 'onboarding.next') }).click();
    await expect(section.getByTestId('onboarding-position')).toHaveText('2 / 4');
    expect(catalogAsked).toBeGreaterThan(0);
    expect(consoleErrors.every((message) => message.includes('net::ERR_INTERNET_DISCONNECTED'))).toBe(true);
    consoleErrors.length = 0;
  });
});

test.describe('issue 22 row 14: "How it works" on a desktop', () => {
  test.use(DESKTOP);

  test('shows the four steps in a row, without scroll controls', async ({ page, invitation }) => {
    await page.goto(`/de?rc=${invitation.code}`);
    await waitForHydration(page);
    const section = page.getByRole('region', { name: text('de', 'onboarding.title') });
    const tops = await section.getByRole('heading', { level: 3 }).evaluateAll((hs) => hs.map((h) => Math.round(h.getBoundingClientRect().top)));
    expect(tops).toHaveLength(4);
    expect(new Set(tops).size).toBe(1);
    await expect(section.getByRole('button')).toHaveCount(0);
    await expect(section.getByTestId('onboarding-position')).toBeHidden();
    expect(await axeViolations(page)).toEqual([]);
  });
});

for (const [device, use] of Object.entries(DEVICES)) {
  test.describe(`issue 22 row 16: the shared product (${device})`, () => {
    test.use(use);

    test('is a real piece: picture, brand, name and prices, in the pop-up and on the page', async ({ page, invitation }) => {
      await page.goto(`/de/share?rc=${invitation.code}`);
      const dialog = page.getByRole('dialog', { name: text('de', 'productShare.title') });
      await expect(dialog.getByText(text('de', 'productShare.product.name'))).toBeVisible();
      await expect(dialog.getByText('Maison Aurèle')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      const product = page.getByTestId('shared-product');
      const picture = product.getByRole('img');
      await expect(picture).toBeVisible();
      await expect(picture).toHaveAttribute('src', /^\/assets\/.+\.svg$/);
      expect(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await expect(product.getByText('Maison Aurèle')).toBeVisible();
      await expect(product.getByText(text('de', 'productShare.product.name'))).toBeVisible();
      await expect(product.getByText(money('de', 349))).toBeVisible();
      await expect(product.getByText(money('de', 890))).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  test.describe(`issue 22 row 17: the waiting-list block (${device})`, () => {
    test.use(use);

    test('is not on the page of a valid invitation, only without a code or with one that cannot be used', async ({ page, invitation }) => {
      const block = page.getByRole('heading', { name: text('de', 'waitlistBlock.title') });
      await page.goto(`/de?rc=${invitation.code}`);
      await expect(page.getByRole('link', { name: text('de', 'signup.email') })).toBeVisible();
      await expect(page.getByRole('heading', { name: text('de', 'loginBlock.title') })).toBeVisible();
      await expect(block).toHaveCount(0);
      await page.goto('/de');
      await expect(block).toBeVisible();
      await page.goto('/de?rc=E2E-NOPE-0000');
      await expect(page.getByRole('alert')).toHaveText(text('de', 'invitation.invalid'));
      await expect(block).toBeVisible();
    });
  });
}
