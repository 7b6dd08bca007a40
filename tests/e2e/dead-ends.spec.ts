/**
 * Pages that must never leave the visitor guessing (UX review of 27 Nov, rows 9–12 and 20–22):
 * each says what happened in the visitor's own situation and offers a next step that works —
 * the deny page, the two 404s, the activation error, the lobby after joining, the pop-up form
 * on a phone, and a form on its way.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { lobbyLink, registerPending } from './support/data.ts';
import { fillOneStep } from './support/forms.ts';
import { receivedMail, uniqueEmail, waitForMail } from './support/mail.ts';
import { expect, hold, plain, test, text, waitForHydration } from './support.ts';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };
const DESKTOP = { viewport: { width: 1440, height: 900 } };

async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The page's words under its heading never start by saying the heading again ("Access denied. Access denied…"). */
async function expectNoRepeatedTitle(page: Page) {
  const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
  const rest = (await page.locator('main').innerText()).replace(title, '');
  expect(rest.toLowerCase()).not.toContain(title.toLowerCase());
}

test.describe('deny page: what happened, in the visitor’s situation, and what to do next (row 9)', () => {
  test.use(PHONE);

  test('a bad waiting-list link is said as such, with a way to a new one', async ({ page }) => {
    await page.goto('/de/registration/deny?reason=token');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'deny.title'));
    await expect(page.getByText(text('de', 'deny.lead.token'))).toBeVisible();
    await expect(page.getByText(text('de', 'deny.next.token'))).toBeVisible();
    // Not "your invitation is invalid": this visitor holds no invitation.
    await expect(page.getByText(text('de', 'deny.invalid'))).toHaveCount(0);
    await expect(page.getByText(text('de', 'deny.lead.invalid'))).toHaveCount(0);
    await expectNoRepeatedTitle(page);
    expect(await axe(page)).toEqual([]);
    await page.getByRole('link', { name: text('de', 'deny.newLinkCta') }).click();
    await expect(page).toHaveURL(/\/de#waitlist$/);
    await expect(page.getByRole('heading', { name: text('de', 'waitlistBlock.title') })).toBeInViewport();
  });

  test('a refused referrer is explained, and how to come in properly', async ({ page, invitation }) => {
    await page.goto(`/pl/registration/deny?reason=referrer&rc=${invitation.code}`);
    await expect(page.getByText(text('pl', 'deny.lead.referrer'))).toBeVisible();
    await expect(page.getByText(text('pl', 'deny.next.referrer'))).toBeVisible();
    await expectNoRepeatedTitle(page);
    await expect(page.getByRole('link', { name: text('pl', 'deny.applyCta') })).toBeVisible();
  });

  for (const reason of ['invalid', 'expired', 'sign-in', 'no-balance']) {
    test(`reason=${reason}: the first line under the title is not the title again`, async ({ page }) => {
      await page.goto(`/de/registration/deny?reason=${reason}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'deny.title'));
      await expectNoRepeatedTitle(page);
    });
  }

  test('an invalid invitation: the spec’s “Access denied. Your invitation is invalid.” as title and lead', async ({ page }) => {
    await page.goto('/registration/deny');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'deny.title'));
    await expect(page.getByText(text('en', 'deny.lead.invalid'), { exact: true })).toBeVisible();
    await expect(page.getByText(text('en', 'deny.alternatives'))).toBeVisible();
  });
});

test.describe('404: one headline for every unknown address, the path in the text (row 10)', () => {
  async function expectNotFound(page: Page, locale: Locale, path: string) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(text(locale, 'notFound.title'));
    await expect(page.locator('main')).toContainText(text(locale, 'notFound.address', { path: decodeURI(path) }));
    // The path reads whole, never broken at a hyphen as if it were a word.
    await expect(page.locator('main code')).toHaveText(decodeURI(path));
    await expect(page.locator('main code')).toHaveCSS('hyphens', 'none');
    await expect(page.getByRole('link', { name: text(locale, 'nav.backToStart') })).toBeVisible();
    return frameOf(page);
  }

  /** What the frame looks like around the message: the promotion band, where the message sits, the footer. */
  async function frameOf(page: Page) {
    const box = async (locator: Locator) => {
      const b = (await locator.boundingBox())!;
      return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width) };
    };
    return {
      banner: await page.getByTestId('top-banner').count(),
      main: await box(page.locator('main')),
      heading: await box(page.getByRole('heading', { level: 1 })),
      footer: await page.locator('footer').count(),
    };
  }

  /** The path's lines as drawn: a line never ends right after one of its hyphens, as if the word were hyphenated. */
  async function pathLines(page: Page): Promise<string[]> {
    return page.locator('main code').evaluate((code) => {
      const range = document.createRange();
      const lines: { top: number; text: string }[] = [];
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.nodeValue ?? '';
        for (let i = 0; i < value.length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = [...range.getClientRects()].find((r) => r.width > 0);
          if (!rect) continue;
          const line = lines.find((l) => Math.abs(l.top - rect.top) < 2);
          if (line) line.text += value[i];
          else lines.push({ top: rect.top, text: value[i]! });
        }
      }
      return lines.map((l) => l.text);
    });
  }

  test.describe('phone', () => {
    test.use(PHONE);
    test('de: a top-level and a nested unknown path look the same', async ({ page }) => {
      const topLevel = await expectNotFound(page, 'de', '/de/this-page-does-not-exist');
      expect(await axe(page)).toEqual([]);
      const nested = await expectNotFound(page, 'de', '/de/this/page-does-not-exist');
      // One frame for every 404: no promotion band on either, the message in the same place.
      expect(topLevel).toEqual(nested);
      expect(topLevel.banner).toBe(0);
      // A stray language segment on the landing's route: the same frame (its words are English).
      const { heading: _heading, ...stray } = await expectNotFound(page, 'en', '/xx/vip');
      const { heading: _nestedHeading, ...nestedFrame } = nested;
      expect(stray).toEqual(nestedFrame);
    });

    test('pl: a long nested path wraps anywhere, but never right after one of its hyphens', async ({ page }) => {
      const found: string[] = [];
      // Paths of many lengths, so that some line of them would end at a hyphen if one could.
      for (const tail of ['ta-strona-nie-istnieje', 'ta-strona-nie-istnieje-i-nigdy-nie-istniala', 'a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-r-s-t-u-w-y-z-a-b-c-d-e-f-g-h-i-j-k-l']) {
        for (let cut = 0; cut < 6; cut++) {
          const path = `/pl/registration/${tail}${'-x'.repeat(cut)}`;
          await expectNotFound(page, 'pl', path);
          const lines = await pathLines(page);
          expect(lines.join(''), path).toBe(path);
          for (const line of lines.slice(0, -1)) if (line.endsWith('-')) found.push(`${path}: a line ends in “${line}”`);
          // Nothing wider than the phone.
          expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
        }
      }
      expect(found).toEqual([]);
    });
  });

  test.describe('desktop', () => {
    test.use(DESKTOP);
    test('pl: the same', async ({ page }) => {
      const topLevel = await expectNotFound(page, 'pl', '/pl/ta-strona-nie-istnieje');
      const nested = await expectNotFound(page, 'pl', '/pl/registration/ta-strona-nie-istnieje');
      expect(topLevel).toEqual(nested);
    });
  });
});

test.describe('activation error: a fresh link by email, not a dead end (row 12)', () => {
  test.use(PHONE);

  async function askForNewLink(page: Page, email: string) {
    await page.getByLabel(text('de', 'registration.email')).fill(email);
    await page.getByRole('button', { name: text('de', 'activationError.resend.submit') }).click();
    await expect(page.getByRole('status')).toHaveText(text('de', 'activationError.resend.sent', { email }));
  }

  test('a pending member gets a new activation link; anyone else reads the same answer and nothing is sent', async ({ page, invitation }) => {
    const member = await registerPending(invitation.code, { language: 'de' });
    await waitForMail(member.email);
    await page.goto('/de/registration/activateaccountError?error=failed');
    await waitForHydration(page);
    // "Try again" no longer leads to an empty code page.
    await expect(page.getByRole('link', { name: text('de', 'error.tryAgain') })).toHaveCount(0);
    expect(await axe(page)).toEqual([]);
    await askForNewLink(page, member.email);
    const mails = await waitForMail(member.email, 2);
    expect(mails[1]?.subject).toBe(text('de', 'email.activation.subject'));

    const stranger = uniqueEmail('no-account');
    await page.goto('/de/registration/activateaccountError?error=invalid');
    await askForNewLink(page, stranger);
    // The pending member's second mail arrived after its request: the stranger's would have too.
    await askForNewLink(page, member.email);
    await waitForMail(member.email, 3);
    expect(await receivedMail(stranger)).toEqual([]);
  });

  test('a malformed address is refused in the page’s language', async ({ page }) => {
    await page.goto('/de/registration/activateaccountError?error=failed');
    await page.getByLabel(text('de', 'registration.email')).fill('zoe@@example');
    await page.getByRole('button', { name: text('de', 'activationError.resend.submit') }).click();
    await expect(page.getByText(text('de', 'validation.email'))).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
  });
});

test.describe('the pop-up registration on a 390 px phone (row 11)', () => {
  test.use(PHONE);

  test('fits the screen, its submit button in reach, a real close button, no page behind it', async ({ page, invitation }) => {
    await page.goto(`/de/viral?rc=${invitation.code}`);
    // Before hydration the link opens the form's own page, not the pop-up.
    await waitForHydration(page);
    await page.getByRole('link', { name: text('de', 'signup.email') }).click();
    const dialog = page.getByRole('dialog', { name: text('de', 'registration.title') });
    await expect(dialog).toBeVisible();
    const box = await dialog.boundingBox();
    // The whole screen: nothing of the page peeks out around it.
    expect(box).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    await expect(dialog.getByRole('button', { name: text('de', 'registration.submit') })).toBeInViewport({ ratio: 1 });
    const close = dialog.getByRole('button', { name: text('de', 'formFinished.close') });
    await expect(close).toBeInViewport({ ratio: 1 });
    const target = await close.boundingBox();
    expect(target!.width).toBeGreaterThanOrEqual(44);
    expect(target!.height).toBeGreaterThanOrEqual(44);
    expect(await axe(page)).toEqual([]);
    // Errors: the first is brought into view, the button stays in reach.
    await dialog.getByRole('button', { name: text('de', 'registration.submit') }).click();
    await expect(dialog.getByText(text('de', 'validation.gender'), { exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: text('de', 'registration.submit') })).toBeInViewport({ ratio: 1 });
    await close.click();
    await expect(dialog).toBeHidden();
  });
});

test.describe('lean step 2 registers, and says so (row 20)', () => {
  test('its last button is “Registrieren”, not “Weiter”', async ({ page, invitation }) => {
    await page.goto(`/de/registration/formstarted?rc=${invitation.code}&slug=lean`);
    await page.getByLabel(text('de', 'registration.email')).fill(uniqueEmail('lean-de'));
    await page.getByRole('checkbox', { name: plain('de', 'registration.terms') }).check();
    await page.getByRole('button', { name: text('de', 'registration.continue') }).click();
    await expect(page.getByText(text('de', 'registration.step', { current: '2', total: '2' }))).toBeVisible();
    await expect(page.getByRole('button', { name: text('de', 'registration.submit') })).toBeVisible();
    await expect(page.getByRole('button', { name: text('de', 'registration.continue') })).toHaveCount(0);
  });
});

test.describe('a form on its way says so, and cannot be sent twice (row 21)', () => {
  test.use(PHONE);

  async function expectSending(button: Locator) {
    await expect(button).toHaveText(text('de', 'form.sending'));
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await expect(button).toBeDisabled();
  }

  test('busy from the click until the next page is there', async ({ page, invitation }) => {
    await page.goto(`/de/registration/formstarted?rc=${invitation.code}`);
    await waitForHydration(page);
    await fillOneStep(page, 'de', { gender: 'female', firstName: 'Zoë', lastName: 'Brandt', email: uniqueEmail('busy') });
    const sent = await hold(page, (url) => url.pathname.endsWith('formstarted.data'), (route) => route.request().method() === 'POST');
    const next = await hold(page, (url) => url.pathname.endsWith('formfinished.data'));
    const button = page.locator('form').getByRole('button').last();
    await page.getByRole('button', { name: text('de', 'registration.submit') }).click();
    await expectSending(button);
    await expect.poll(sent.held).toBe(1);
    sent.release();
    // The registration is made; the next page is still loading: the button must not come back.
    await expect.poll(next.held).toBe(1);
    await expectSending(button);
    next.release();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'formFinished.title'));
    expect(sent.held()).toBe(1);
  });
});

test.describe('the lobby after joining (row 22)', () => {
  test.use(PHONE);

  test('the link opened again says “already on the list”; the success says what comes next', async ({ page }) => {
    const email = uniqueEmail('lobby-again');
    const link = new URL(await lobbyLink(email));
    await page.goto(`/de/lobby${link.search}`);
    await page.getByRole('button', { name: text('de', 'lobby.join') }).click();
    await expect(page.getByRole('status')).toHaveText(text('de', 'lobby.joined'));
    await expect(page.getByText(text('de', 'lobby.joinedNext', { email }))).toBeVisible();
    await expect(page.getByRole('link', { name: text('de', 'lobby.discover') })).toHaveAttribute('href', '/de/about-us');
    expect(await axe(page)).toEqual([]);

    await page.goto(`/de/lobby${link.search}`);
    await expect(page.getByRole('status')).toHaveText(text('de', 'lobby.alreadyJoined'));
    await expect(page.getByRole('button', { name: text('de', 'lobby.join') })).toHaveCount(0);
    await expect(page.getByRole('link', { name: text('de', 'lobby.discover') })).toBeVisible();
  });

  test('every language ends the success with a full stop', async () => {
    for (const locale of ['en', 'de', 'fr', 'it', 'nl', 'pl', 'sv'] as const) expect(text(locale, 'lobby.joined'), locale).toMatch(/\.$/);
  });
});
