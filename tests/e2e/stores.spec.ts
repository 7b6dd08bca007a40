/**
 * The stores page tells a member where to go and when (UX review of 27 Nov, row 13; issue 22
 * §2): each store's address, opening hours in the visitor's language, the cards it admits and
 * a map link (no third-party embed), the same described for search engines (schema.org JSON-LD),
 * and the card swatches as wide as the store boxes above them. German on a phone in Berlin,
 * Polish on a desktop in Warsaw.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, text } from './support.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

for (const visit of [
  { locale: 'de' as const, timezoneId: 'Europe/Berlin', viewport: { width: 390, height: 844 }, munich: 'München', weekdays: 'Montag–Samstag', sunday: 'Sonntag', hours: '10:00–20:00 Uhr' },
  { locale: 'pl' as const, timezoneId: 'Europe/Warsaw', viewport: { width: 1440, height: 900 }, munich: 'Monachium', weekdays: 'poniedziałek–sobota', sunday: 'niedziela', hours: '10:00–20:00' },
]) {
  test.describe(`${visit.locale} at ${visit.viewport.width} px`, () => {
    test.use({ locale: visit.locale, timezoneId: visit.timezoneId, viewport: visit.viewport });

    test('each store gives its address, opening hours, the cards it admits and a map', async ({ page }) => {
      await page.goto(`/${visit.locale}/stores`);
      const munich = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: visit.munich }) });
      await expect(munich.locator('address')).toContainText('Maximilianstraße 12');
      await expect(munich.locator('address')).toContainText('80539 München');
      const hours = munich.getByRole('definition');
      await expect(munich.getByRole('term').first()).toHaveText(visit.weekdays);
      await expect(hours.first()).toHaveText(visit.hours);
      await expect(munich.getByRole('term').last()).toHaveText(visit.sunday);
      await expect(hours.last()).toHaveText(text(visit.locale, 'stores.closed'));
      await expect(munich.getByRole('heading', { level: 3, name: text(visit.locale, 'stores.entry') })).toBeVisible();
      await expect(munich).toContainText(text(visit.locale, 'stores.entryCards'));
      const map = munich.getByRole('link', { name: text(visit.locale, 'stores.map', { store: visit.munich }) });
      await expect(map).toHaveAttribute('href', /^https:\/\/www\.openstreetmap\.org\/\?mlat=48\.\d+&mlon=11\.\d+/);
      // Vösendorf keeps Austrian hours: a shorter Saturday.
      const voesendorf = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Vösendorf' }) });
      await expect(voesendorf.getByRole('term')).toHaveCount(3);
      expect(await new AxeBuilder({ page }).withTags(TAGS).analyze().then((r) => r.violations.map((v) => v.id))).toEqual([]);
    });

    test('the card swatches line up with the store boxes above them', async ({ page }) => {
      await page.goto(`/${visit.locale}/stores`);
      const stores = await page.locator('#munich').locator('xpath=..').boundingBox();
      const cards = page.getByRole('heading', { name: text(visit.locale, 'stores.cards.title') }).locator('xpath=..').getByRole('listitem');
      const first = await cards.first().boundingBox();
      const last = await cards.last().boundingBox();
      expect(stores && first && last).toBeTruthy();
      expect(Math.abs(first!.x - stores!.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(last!.x + last!.width - (stores!.x + stores!.width))).toBeLessThanOrEqual(1);
    });
  });
}

test('search engines read the three stores as schema.org ClothingStores, named in the page’s language', async ({ page }) => {
  await page.goto('/fr/stores');
  const json = await page.locator('script[type="application/ld+json"]').textContent();
  const graph = (JSON.parse(json ?? '{}') as { '@graph': { '@type': string; name: string; address: { postalCode: string; addressCountry: string }; openingHoursSpecification: { opens: string }[] }[] })['@graph'];
  expect(graph.map((store) => store.name)).toEqual(['Velvet Rope Munich', 'Velvet Rope Dornach', 'Velvet Rope Vösendorf']);
  expect(graph.map((store) => store['@type'])).toEqual(['ClothingStore', 'ClothingStore', 'ClothingStore']);
  expect(graph.map((store) => `${store.address.postalCode} ${store.address.addressCountry}`)).toEqual(['80539 DE', '85609 DE', '2334 AT']);
  expect(graph[2]!.openingHoursSpecification.map((h) => h.opens)).toEqual(['10:00', '09:30']);
});
