/**
 * What visitors see on a phone, measured in the browser: every button's label sits inside
 * its button with air on every side, breaks only between words (or at a soft hyphen, where
 * the browser draws the hyphen), and buttons side by side are equally tall — in all seven
 * languages, at 390 px (a common phone) and 320 px (the narrowest still in use). The welcome
 * voucher's code stays on one line. The only-mobile landing layout (/app) is a phone screen
 * even on a desktop, unlike the centred and the double-column layouts; the onboarding's
 * short variant is one compact band (ADR 024).
 */
import type { Page } from '@playwright/test';
import { LOCALES, type Locale } from '@velvet/i18n/locales';
import { createInvitation, lobbyLink, registerPending } from './support/data.ts';
import { activationLink, uniqueEmail, waitForMail } from './support/mail.ts';
import { expect, test, text } from './support.ts';

const PHONES = [390, 320] as const;
/** Air between a label and its button's edge: at least this much at the sides, and above and below. */
const MIN_SIDE = 16;
const MIN_TOP_BOTTOM = 8;
const BUTTONS = '.btn, .btn-primary, .btn-outline, .btn-inverse';

function prefix(locale: Locale): string {
  return `/${locale}`;
}

interface Box {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

interface MeasuredButton {
  label: string;
  box: Box;
  /** The union of the label's glyphs. */
  ink: Box | null;
  /** Index of the parent element among the measured buttons' parents: buttons of one row share it. */
  parent: number;
  /** Words whose letters are not all on one line (a break inside a word). */
  brokenWords: string[];
  /** The label is wider than its button (it spills over the padding or the border). */
  overflows: boolean;
  viewportWidth: number;
}

/** Measures every visible element matching `selector` (in the browser). */
async function measure(page: Page, selector: string): Promise<MeasuredButton[]> {
  return page.locator(selector).evaluateAll((elements) => {
    const parents: Element[] = [];
    const visible = elements.filter((element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden');
    return visible.map((element) => {
      const rect = element.getBoundingClientRect();
      const box = { top: rect.top, right: rect.right, bottom: rect.bottom, left: rect.left };
      const range = document.createRange();
      const glyphs: { char: string; rect: Box | null }[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.nodeValue ?? '';
        for (let i = 0; i < value.length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const drawn = [...range.getClientRects()].find((r) => r.width > 0 && r.height > 0);
          glyphs.push({ char: value[i]!, rect: drawn ? { top: drawn.top, right: drawn.right, bottom: drawn.bottom, left: drawn.left } : null });
        }
      }
      const inked = glyphs.filter((g): g is { char: string; rect: Box } => g.rect !== null && g.char.trim() !== '' && g.char !== '\u00AD');
      const ink = inked.length
        ? {
            top: Math.min(...inked.map((g) => g.rect.top)),
            right: Math.max(...inked.map((g) => g.rect.right)),
            bottom: Math.max(...inked.map((g) => g.rect.bottom)),
            left: Math.min(...inked.map((g) => g.rect.left)),
          }
        : null;
      // A word is a run of non-space characters; its letters must share one line, except right
      // after a soft hyphen (U+00AD), where a break is a proper hyphenation.
      const brokenWords: string[] = [];
      let word: { char: string; rect: Box | null }[] = [];
      const endWord = () => {
        let previous: { char: string; rect: Box } | null = null;
        let softHyphen = false;
        for (const glyph of word) {
          if (glyph.char === '\u00AD') {
            softHyphen = true;
            continue;
          }
          if (!glyph.rect) continue;
          if (previous && Math.abs(glyph.rect.top - previous.rect.top) > 2 && !softHyphen) {
            brokenWords.push(word.map((g) => g.char).join(''));
            break;
          }
          previous = { char: glyph.char, rect: glyph.rect };
          softHyphen = false;
        }
        word = [];
      };
      for (const glyph of glyphs) {
        if (glyph.char.trim() === '') endWord();
        else word.push(glyph);
      }
      endWord();
      const parent = element.parentElement!;
      if (!parents.includes(parent)) parents.push(parent);
      return {
        label: (element.textContent ?? '').trim(),
        box,
        ink,
        parent: parents.indexOf(parent),
        brokenWords,
        overflows: element.scrollWidth > element.clientWidth + 1,
        viewportWidth: document.documentElement.clientWidth,
      };
    });
  });
}

/** Everything wrong with how the buttons are set, in words a designer would use. */
function problems(where: string, buttons: MeasuredButton[]): string[] {
  const found: string[] = [];
  for (const button of buttons) {
    const name = `${where} “${button.label}”`;
    if (button.box.left < 0 || button.box.right > button.viewportWidth + 0.5) found.push(`${name}: the button leaves the screen`);
    if (button.overflows) found.push(`${name}: the label is wider than its button`);
    for (const word of button.brokenWords) found.push(`${name}: “${word}” is broken across lines`);
    if (!button.ink) {
      found.push(`${name}: no visible label`);
      continue;
    }
    const sides = { left: button.ink.left - button.box.left, right: button.box.right - button.ink.right };
    const ends = { top: button.ink.top - button.box.top, bottom: button.box.bottom - button.ink.bottom };
    for (const [side, gap] of Object.entries(sides)) if (gap < MIN_SIDE) found.push(`${name}: ${gap.toFixed(1)} px between the label and the ${side} edge`);
    for (const [side, gap] of Object.entries(ends)) if (gap < MIN_TOP_BOTTOM) found.push(`${name}: ${gap.toFixed(1)} px between the label and the ${side} edge`);
  }
  // Buttons side by side (same parent, same top) are equally tall.
  for (const button of buttons) {
    for (const other of buttons) {
      if (other === button || other.parent !== button.parent || Math.abs(other.box.top - button.box.top) > 1) continue;
      const [a, b] = [button.box.bottom - button.box.top, other.box.bottom - other.box.top];
      if (a > b + 1) found.push(`${where} “${button.label}” is ${a.toFixed(0)} px tall beside “${other.label}” at ${b.toFixed(0)} px`);
    }
  }
  return found;
}

/** The sign-up card's buttons: email and the provider configured here (Google); the others are a quiet "coming soon" row. */
const SIGNUP_LABELS = ['signup.email', 'signup.google'] as const;

test.describe('on a phone, in all seven languages', () => {
  for (const locale of LOCALES) {
    test(`the sign-up buttons are equally tall, padded and unbroken (${locale})`, async ({ page }) => {
      const invitation = await createInvitation();
      const found: string[] = [];
      for (const width of PHONES) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto(`${prefix(locale)}?rc=${invitation.code}`);
        // The sign-up card (#code): "Continue with email" and the configured provider.
        await expect(page.locator(`#code :is(${BUTTONS})`)).toHaveText(SIGNUP_LABELS.map((id) => text(locale, id)));
        const buttons = await measure(page, `#code :is(${BUTTONS})`);
        found.push(...problems(`${width} px`, buttons));
        // Both as tall as each other.
        const heights = buttons.map((b) => Math.round(b.box.bottom - b.box.top));
        if (new Set(heights).size !== 1) found.push(`${width} px: the sign-up buttons differ in height (${heights.join(', ')} px)`);
        // The providers still to come: one row, each name whole and inside its box.
        const soon = await measure(page, '[data-testid="signup-coming-soon"] button');
        for (const provider of soon) {
          if (provider.overflows || provider.brokenWords.length) found.push(`${width} px “${provider.label}”: the name does not fit`);
        }
        if (new Set(soon.map((b) => Math.round(b.box.top))).size !== 1) found.push(`${width} px: the providers still to come wrap onto more than one line`);
      }
      expect(found).toEqual([]);
    });

    test(`the other buttons and button-like links are padded and unbroken (${locale})`, async ({ page }) => {
      const lobby = new URL(await lobbyLink(uniqueEmail(`lobby-${locale}`)));
      const pages = [
        `${prefix(locale)}`,
        `${prefix(locale)}/lobby${lobby.search}`,
        `${prefix(locale)}/registration/deny?reason=expired`,
        `${prefix(locale)}/membership-interest`,
        `${prefix(locale)}/membership-interest/apply`,
      ];
      const found: string[] = [];
      for (const width of PHONES) {
        await page.setViewportSize({ width, height: 844 });
        for (const path of pages) {
          await page.goto(path);
          await expect(page.locator('html')).toHaveAttribute('lang', locale);
          const buttons = await measure(page, `main :is(${BUTTONS})`);
          expect(buttons.length, `buttons on ${path}`).toBeGreaterThan(0);
          found.push(...problems(`${width} px ${new URL(path, 'http://x').pathname}`, buttons));
        }
      }
      expect(found).toEqual([]);
    });

    test(`the welcome voucher’s code stays on one line (${locale})`, async ({ page }) => {
      const invitation = await createInvitation();
      const registrant = await registerPending(invitation.code, { language: locale });
      const [mail] = await waitForMail(registrant.email);
      await page.setViewportSize({ width: PHONES[0], height: 844 });
      await page.goto(activationLink(mail!));
      const code = page.getByTestId('voucher-code');
      await expect(code).toHaveText(/^WELCOME(-[A-Z0-9]{4}){3}$/);
      for (const width of PHONES) {
        await page.setViewportSize({ width, height: 844 });
        const set = await code.evaluate((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          const box = element.closest('section')!.getBoundingClientRect();
          const ink = range.getBoundingClientRect();
          return { lines: lines.size, inside: ink.left >= box.left && ink.right <= box.right, fontSize: parseFloat(getComputedStyle(element).fontSize) };
        });
        expect(set, `${width} px`).toEqual({ lines: 1, inside: true, fontSize: expect.any(Number) });
        // Readable, not shrunk away: at least 14 px.
        expect(set.fontSize, `${width} px`).toBeGreaterThanOrEqual(14);
      }
    });
  }
});

/** Lines a measured element's text takes (the tops of its glyphs' rectangles). */
async function lineCount(page: Page, selector: string): Promise<{ label: string; lines: number }[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map((r) => Math.round(r.top)));
      return { label: (element.textContent ?? '').trim(), lines: tops.size };
    }),
  );
}

test.describe('the registration form on the narrowest phone (320 px), in all seven languages', () => {
  for (const locale of LOCALES) {
    test(`its labels and the header's sign-in read whole (${locale})`, async ({ page }) => {
      const invitation = await createInvitation();
      await page.setViewportSize({ width: 320, height: 844 });
      await page.goto(`${prefix(locale)}/registration/formstarted?rc=${invitation.code}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(locale, 'registration.title'));
      const found: string[] = [];
      // The fields' names (and the salutation's legend): one line each, inside the form.
      const names = 'main form :is(label.eyebrow, legend)';
      for (const label of await lineCount(page, names)) if (label.lines !== 1) found.push(`“${label.label}” takes ${label.lines} lines`);
      for (const label of await measure(page, names)) {
        if (label.overflows || label.box.right > label.viewportWidth) found.push(`“${label.label}” is wider than the form`);
      }
      // The consents' longer labels may wrap, between words only.
      for (const label of await measure(page, 'main form label')) for (const word of label.brokenWords) found.push(`“${word}” is broken across lines`);
      // The header: the sign-in label is one phrase on one line, apart from the wordmark.
      const login = page.locator('header').getByRole('link', { name: text(locale, 'nav.login') });
      const wordmark = (await page.locator('header').getByRole('link', { name: text(locale, 'nav.home') }).boundingBox())!;
      const link = (await login.boundingBox())!;
      const [sign] = await lineCount(page, 'header a[href]:not([aria-label])');
      if (sign?.lines !== 1) found.push(`the header's “${text(locale, 'nav.login')}” takes ${sign?.lines} lines`);
      if (link.x - (wordmark.x + wordmark.width) < 12) found.push(`the header's “${text(locale, 'nav.login')}” touches the wordmark (${(link.x - wordmark.x - wordmark.width).toFixed(1)} px)`);
      if (link.x + link.width > 320) found.push(`the header's “${text(locale, 'nav.login')}” leaves the screen`);
      expect(found).toEqual([]);
    });
  }
});

test.describe('the only-mobile landing layout (/app)', () => {
  test('is a phone screen on a desktop, unlike the centred and the double-column layouts', async ({ page }) => {
    const invitation = await createInvitation();
    await page.setViewportSize({ width: 1440, height: 900 });
    const widths = async (path: string) => {
      await page.goto(`${path}?rc=${invitation.code}`);
      await expect(page.getByRole('link', { name: text('en', 'signup.email') })).toBeVisible();
      return page.evaluate(() => {
        const width = (selector: string) => Math.round(document.querySelector(selector)!.getBoundingClientRect().width);
        const left = (selector: string) => Math.round(document.querySelector(selector)!.getBoundingClientRect().left);
        const figures = [...document.querySelectorAll('#figures ~ dl > div')].map((d) => Math.round(d.getBoundingClientRect().top));
        return {
          frame: width('main'),
          header: width('header'),
          footer: width('footer'),
          card: width('#code'),
          cardLeft: left('#code'),
          headlineLeft: left('#hero-title'),
          headlineAlign: getComputedStyle(document.querySelector('#hero-title')!).textAlign,
          /** Figures per row of "The club in numbers". */
          figuresPerRow: Math.max(...[...new Set(figures)].map((top) => figures.filter((t) => t === top).length)),
        };
      });
    };
    const app = await widths('/app');
    const centred = await widths('/lean');
    const double = await widths('/');

    // The whole page — header, content, footer — is one phone-width column.
    expect(app.frame).toBeLessThanOrEqual(432);
    expect(app.header).toBe(app.frame);
    expect(app.footer).toBe(app.frame);
    expect(app.card).toBe(app.frame);
    expect(app.figuresPerRow).toBe(2);
    expect(app.headlineAlign).not.toBe('center');

    // The centred layout: the page spans the window; one centred column, wider than a phone.
    expect(centred.frame).toBe(1440);
    expect(centred.card).toBeGreaterThan(520);
    expect(centred.card).toBeLessThanOrEqual(672);
    expect(centred.headlineAlign).toBe('center');
    expect(centred.figuresPerRow).toBe(4);

    // The double column: the card beside the headline.
    expect(double.frame).toBe(1440);
    expect(double.cardLeft).toBeGreaterThan(double.headlineLeft + 400);
  });

  test('looks the same at a phone’s width: the sign-up sheet runs edge to edge', async ({ page }) => {
    const invitation = await createInvitation();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/app?rc=${invitation.code}`);
    const card = await page.locator('#code').boundingBox();
    expect(card).toMatchObject({ x: 0, width: 390 });
    await page.goto(`/lean?rc=${invitation.code}`);
    const centred = await page.locator('#code').boundingBox();
    expect(centred!.x).toBeGreaterThan(0);
  });
});

test.describe('the onboarding’s short variant', () => {
  for (const locale of LOCALES) {
    test(`is one compact band of the four steps with a way to sign up (${locale})`, async ({ page }) => {
      const invitation = await createInvitation();
      const steps = ['welcome', 'brands', 'confidence', 'account'] as const;
      const onboarding = page.locator('section').filter({ has: page.getByRole('heading', { level: 2, name: text(locale, 'onboarding.title') }) });

      await page.goto(`${prefix(locale)}?rc=${invitation.code}`);
      await expect(onboarding).toHaveAttribute('data-variant', 'full');
      await expect(onboarding.getByRole('heading', { level: 3 })).toHaveText(steps.map((s) => text(locale, `onboarding.${s}.title`)));
      await expect(onboarding.getByText(text(locale, 'onboarding.welcome.text'))).toBeVisible();
      const full = (await onboarding.boundingBox())!.height;

      // A preview link of the experiment (ADR 012) shows the short variant.
      await page.goto(`${prefix(locale)}?rc=${invitation.code}&onboarding-variant=1`);
      await expect(onboarding).toHaveAttribute('data-variant', 'short');
      await expect(onboarding.getByRole('heading', { level: 3 })).toHaveText(steps.map((s) => text(locale, `onboarding.${s}.title`)));
      await expect(onboarding.getByText(text(locale, 'onboarding.short.text'))).toBeVisible();
      for (const step of steps) await expect(onboarding.getByText(text(locale, `onboarding.${step}.text`))).toHaveCount(0);
      // One row on a desktop, and well under the full flow's height.
      const tops = await onboarding.getByRole('heading', { level: 3 }).evaluateAll((hs) => hs.map((h) => Math.round(h.getBoundingClientRect().top)));
      expect(new Set(tops).size).toBe(1);
      expect((await onboarding.boundingBox())!.height).toBeLessThan(full * 0.75);
      // Its button takes the visitor to the sign-up.
      await onboarding.getByRole('link', { name: text(locale, 'onboarding.short.cta') }).click();
      await expect(page).toHaveURL(/#code$/);
      await expect(page.getByRole('link', { name: text(locale, 'signup.email') })).toBeInViewport();
    });
  }
});

test.describe('the onboarding’s short variant without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('is what the server sends for the preview link', async ({ page }) => {
    await page.goto('/de?onboarding-variant=1');
    await expect(page.locator('section[data-variant="short"]')).toContainText(text('de', 'onboarding.short.cta'));
    await page.goto('/de?onboarding-variant=1&disablegb=true');
    await expect(page.locator('section[data-variant="full"]')).toContainText(text('de', 'onboarding.welcome.text'));
  });
});
