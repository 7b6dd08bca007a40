import type { Page } from '@playwright/test';
import { LOCALES, type Locale } from '@velvet/i18n/locales';
import { registerThroughForm } from './support/data.ts';
import { activationLink, waitForMail } from './support/mail.ts';
import { expect, test, text } from './support.ts';

/**
 * The type details of the UX review of 27 November (issue 22, rows 4–7 and 23): a button's
 * label is one line, in the page and in the consent banner; the brand name is never split over
 * two lines; the display face sets its accents over the middle of their letters.
 */

/** A first visit: the consent banner is open. */
test.use({ consent: 'none' });

/** The label of every visible button of the page and of the consent banner that takes more than one line. */
function wrappedButtons(page: Page): Promise<string[]> {
  return page.locator('.btn-primary, .btn-outline, .btn-inverse, #cc-main .cm__btn').evaluateAll((elements) =>
    elements
      .filter((element) => element.checkVisibility())
      .flatMap((element) => {
        // The lines of its text: its fragments' boxes, one per line (a fragment within half a line's height of another is on that line).
        const tops: number[] = [];
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) {
            if (rect.width > 0 && !tops.some((top) => Math.abs(top - rect.top) < rect.height / 2)) tops.push(rect.top);
          }
        }
        return tops.length > 1 ? [`${element.textContent?.trim()} (${tops.length} lines)`] : [];
      }),
  );
}

/** Every "Velvet Rope" of the page's text that is split over two lines, with the text around it. */
function splitBrandNames(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const split: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const content = node.textContent ?? '';
      for (const match of content.matchAll(/Velvet\sRope/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (tops.size > 1) split.push(content.trim());
      }
    }
    return split;
  });
}

async function expectUnbroken(page: Page, where: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  expect(await wrappedButtons(page), `buttons on ${where}`).toEqual([]);
  expect(await splitBrandNames(page), `brand name on ${where}`).toEqual([]);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });
    for (const locale of LOCALES) {
      test(`no button label and no brand name breaks over two lines (${locale})`, async ({ page, invitation }) => {
        const prefix = `/${locale}`;
        const banner = page.getByRole('dialog', { name: text(locale, 'cmp.consent.label') });

        await page.goto(`${prefix}?rc=${invitation.code}`);
        await expect(banner).toBeVisible();
        await expectUnbroken(page, 'the landing page with its consent banner');

        // The welcome page: registered in this language, activated by the emailed link.
        const { email } = await registerThroughForm(page, invitation.code, { prefix, firstName: 'Paula' });
        const [mail] = await waitForMail(email);
        await page.goto(activationLink(mail!));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(locale as Locale, 'activation.welcomeTitle', { firstName: 'Paula' }));
        await expectUnbroken(page, 'the welcome page');

        // The pending page: the same address registered again before its activation.
        const pending = await registerThroughForm(page, invitation.code, { prefix });
        await registerThroughForm(page, invitation.code, { prefix, email: pending.email });
        await page.goto(`${prefix}/registration/registrationformemailpendingcomplete`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectUnbroken(page, 'the pending page');
      });
    }
  });
}

/**
 * Where the display face sets an accent over its letter, in thousandths of an em from the
 * middle of the letter's ink, drawn by the browser at 400 px: `axis`, the middle between the
 * acute's and the grave's ink (a well-drawn pair mirrors about the letter's middle), and `tip`,
 * the acute's lowest end (it starts over the letter's middle or left of it, never right).
 */
interface AccentPlacement {
  letter: string;
  axis: number;
  tip: number;
}

test('the display face sets its accents over the middle of their letters (issue 22 row 4)', async ({ page }) => {
  await page.goto('/fr/about-us');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toBeVisible();
  const placements = await heading.evaluate(async (element): Promise<AccentPlacement[]> => {
    const style = getComputedStyle(element);
    // The display face alone: not the sized system fallbacks after it in the stack (ADR 067), whose
    // local fonts a machine may lack (document.fonts.load rejects when one of the faces fails).
    const displayFace = style.fontFamily.split(',')[0]!;
    const font = (size: number) => `${style.fontWeight} ${size}px ${displayFace}`;
    await document.fonts.load(font(400), 'éèóòeo');
    const size = 400;
    /** The ink of one character: each pixel's coverage, by row. */
    function ink(character: string) {
      const canvas = document.createElement('canvas');
      canvas.width = size * 1.5;
      canvas.height = size * 1.5;
      const context = canvas.getContext('2d')!;
      context.font = font(size);
      context.fillText(character, size * 0.25, size * 1.1);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      return { width: canvas.width, height: canvas.height, at: (x: number, y: number) => data[(y * canvas.width + x) * 4 + 3]! };
    }
    /** The letter's ink: its top row and its middle. */
    function letterInk(character: string) {
      const glyph = ink(character);
      let top = Infinity;
      let left = Infinity;
      let right = -Infinity;
      for (let y = 0; y < glyph.height; y++)
        for (let x = 0; x < glyph.width; x++)
          if (glyph.at(x, y) > 128) {
            top = Math.min(top, y);
            left = Math.min(left, x);
            right = Math.max(right, x);
          }
      return { top, middle: (left + right) / 2 };
    }
    /** The accent's ink above the letter's top: the middle of its extent and its lowest end's middle. */
    function accentInk(character: string, letterTop: number) {
      const glyph = ink(character);
      let left = Infinity;
      let right = -Infinity;
      let lowest = -1;
      for (let y = 0; y < letterTop - 2; y++)
        for (let x = 0; x < glyph.width; x++)
          if (glyph.at(x, y) > 128) {
            left = Math.min(left, x);
            right = Math.max(right, x);
            lowest = y;
          }
      const tipColumns: number[] = [];
      for (let y = lowest - 3; y <= lowest; y++) for (let x = 0; x < glyph.width; x++) if (glyph.at(x, y) > 128) tipColumns.push(x);
      return { middle: (left + right) / 2, tip: tipColumns.reduce((sum, x) => sum + x, 0) / tipColumns.length };
    }
    const em = (pixels: number) => Math.round((pixels / size) * 1000);
    return [
      ['e', 'é', 'è'],
      ['o', 'ó', 'ò'],
    ].map(([letter, acute, grave]) => {
      const base = letterInk(letter!);
      const acuteInk = accentInk(acute!, base.top);
      const graveInk = accentInk(grave!, base.top);
      return { letter: letter!, axis: em((acuteInk.middle + graveInk.middle) / 2 - base.middle), tip: em(acuteInk.tip - base.middle) };
    });
  });
  for (const { letter, axis, tip } of placements) {
    expect(Math.abs(axis), `the axis of the accents over ${letter} (${axis}/1000 em from its middle)`).toBeLessThanOrEqual(15);
    expect(tip, `the acute's lower end over ${letter} (${tip}/1000 em right of its middle)`).toBeLessThanOrEqual(0);
  }
});
