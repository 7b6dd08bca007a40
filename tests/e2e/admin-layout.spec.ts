/**
 * The console is a work surface (UX review of 27 Nov, row 15): a wide column for its tables and
 * no shop footer; in German on a phone the figures' labels stand apart; at 1440 px the audit
 * log's columns are whole and an address never breaks inside itself.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createInvitation, newAdmin } from './support/data.ts';
import { expect, test, text } from './support.ts';
import { signInToConsole } from './support/console.ts';

/** Elements of `selector` whose boxes overlap another's, or whose text runs out of its box. */
function crowded(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((elements) => {
    const boxes = elements.map((e) => ({ text: e.textContent ?? '', box: e.getBoundingClientRect(), spills: e.scrollWidth > e.clientWidth + 1 }));
    const found: string[] = boxes.filter((b) => b.spills).map((b) => `${b.text} runs out of its box`);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!.box;
        const b = boxes[j]!.box;
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) found.push(`${boxes[i]!.text} overlaps ${boxes[j]!.text}`);
      }
    }
    return found;
  });
}

test.describe('an owner in Berlin on a phone (German)', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 390, height: 844 } });

  test('a code’s figures have labels that stand apart', async ({ page }) => {
    const { code } = await createInvitation();
    await signInToConsole(page, 'de', await newAdmin('owner'), `/admin/codes/${code}`);
    await expect(page.getByTestId('stat-registrations')).toBeVisible();
    expect(await crowded(page, 'main dl:first-of-type dt')).toEqual([]);
  });
});

test.describe('an owner in Dublin at a desktop (English)', () => {
  test.use({ locale: 'en-GB', timezoneId: 'Europe/Dublin', viewport: { width: 1440, height: 900 } });

  test('the audit log has room for its columns, addresses stay whole, and no shop footer', async ({ page }) => {
    const owner = await newAdmin('owner');
    await signInToConsole(page, 'en', owner, '/admin/audit');
    const log = page.getByRole('region', { name: text('en', 'admin.audit.title') });
    await expect(log.getByRole('row').nth(1)).toBeVisible();
    expect((await log.boundingBox())!.width).toBeGreaterThan(1000);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    // Nor the shop's member sign-in in the header: the owner is signed in to the console already.
    await expect(page.getByRole('banner').getByRole('link', { name: text('en', 'nav.login') })).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('link', { name: text('en', 'nav.home') })).toBeVisible();
    expect(await crowded(page, 'main thead th')).toEqual([]);
    // The owner's own sign-in is in the log: the address on one line.
    const ownAddress = log.getByText(owner.email).first();
    const lines = await ownAddress.evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    expect(await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze().then((r) => r.violations.map((v) => v.id))).toEqual([]);
  });
});
