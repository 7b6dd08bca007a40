/**
 * The footer names the payment methods and carriers as lists of whole names (UX review of
 * 27 Nov, row 25: a plain "Visa · Mastercard · …" line split "Google / Pay" across lines in
 * Polish and French).
 */
import { DELIVERY_PARTNERS, PAYMENT_METHODS } from '../../apps/web/app/lib/external-links.ts';
import { expect, test, text } from './support.ts';

for (const visit of [
  { locale: 'pl' as const, viewport: { width: 1440, height: 900 } },
  { locale: 'fr' as const, viewport: { width: 390, height: 844 } },
]) {
  test.describe(`${visit.locale} at ${visit.viewport.width} px`, () => {
    test.use({ locale: visit.locale, viewport: visit.viewport });

    test('payment methods and carriers are lists of names, none broken over two lines', async ({ page }) => {
      await page.goto(`/${visit.locale}/about-us`);
      for (const [heading, names] of [
        ['footer.payment', PAYMENT_METHODS],
        ['footer.delivery', DELIVERY_PARTNERS],
      ] as const) {
        const list = page.getByRole('contentinfo').getByRole('list', { name: text(visit.locale, heading) });
        await expect(list.getByRole('listitem')).toHaveText([...names]);
        const lines = await list.getByRole('listitem').evaluateAll((items) =>
          items.map((item) => {
            const range = document.createRange();
            range.selectNodeContents(item);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
          }),
        );
        expect(lines, heading).toEqual(names.map(() => 1));
      }
    });
  });
}
