/**
 * A slow connection's first visit (ADR 067): the page is drawn before its web fonts arrive, in
 * system fonts sized to them, and nothing on it moves when they come. Every font request is held
 * until the page has been painted and hydrated, then let through; the layout shifts the browser
 * counts over the whole visit must stay below what anyone could see. Before the fallback faces,
 * the Polish landing's headline took one more line in Playfair Display than in Georgia and
 * pushed the page down: 0.09–0.12 on a phone, over the "good" limit of Core Web Vitals (0.1).
 */
import type { Page, Route } from '@playwright/test';
import { expect, test } from './support.ts';

/** Far below a shift anyone notices (Lighthouse shows 0.00 below 0.005). */
const MAX_SHIFT = 0.005;

declare global {
  interface Window {
    __layoutShift: number;
  }
}

/** Counts every layout shift of the page from its first paint on, as Core Web Vitals do (none here follows an input). */
async function countLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) window.__layoutShift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** Holds every web font request until `release` is called; later ones go through at once. */
async function holdFonts(page: Page): Promise<{ held: Route[]; release: () => Promise<void> }> {
  const held: Route[] = [];
  let released = false;
  await page.route(/\.woff2$/, (route) => (released ? route.continue() : void held.push(route)));
  return {
    held,
    async release() {
      released = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

/** After the next frame the browser draws. */
const nextFrame = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * Each visit on the day the suite renders for (a quiet day), or at `now` (the server's calendar and
 * the browser's clock). The Dutch headline's "75 %" was set wider in the stand-in than in Playfair
 * Display before the figures had a face of their own (0.037 on a phone); the top banner's line,
 * in Black Week, took a line more in the stand-in on a German tablet before it was set in the
 * medium weight (0.26: the whole page moved down).
 */
const VISITS: { name: string; path: string; viewport: { width: number; height: number }; locale: string; timezoneId: string; now?: string }[] = [
  { name: 'a phone in Warsaw, the Polish landing', path: '/pl', viewport: { width: 360, height: 740 }, locale: 'pl-PL', timezoneId: 'Europe/Warsaw' },
  { name: 'a desktop in Berlin, a German invitation', path: '/de?rc=WELCOME2026', viewport: { width: 1440, height: 900 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' },
  { name: 'a phone in Amsterdam, the Dutch landing', path: '/nl', viewport: { width: 390, height: 844 }, locale: 'nl-NL', timezoneId: 'Europe/Amsterdam' },
  { name: 'a tablet in Berlin in Black Week, the German landing', path: '/de', viewport: { width: 768, height: 1024 }, locale: 'de-DE', timezoneId: 'Europe/Berlin', now: '2026-11-29T13:02:00+01:00' },
];

for (const visit of VISITS) {
  test.describe(visit.name, () => {
    test.use({ viewport: visit.viewport, locale: visit.locale, timezoneId: visit.timezoneId, consent: 'none', ...(visit.now ? { calendar: visit.now } : {}) });

    test('nothing moves when the web fonts arrive late', async ({ page }) => {
      // The browser's clock at the page's instant, flowing: the countdown reads the same as the server rendered it.
      if (visit.now) await page.clock.install({ time: new Date(visit.now) });
      await countLayoutShifts(page);
      const fonts = await holdFonts(page);
      await page.goto(visit.path, { waitUntil: 'domcontentloaded' });
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // The page's own faces were asked for (the Polish one preloads its latin-ext subset too), and none has come.
      await expect.poll(() => fonts.held.length).toBeGreaterThanOrEqual(visit.locale === 'pl-PL' ? 4 : 2);
      // Drawn meanwhile in the sized stand-ins: this machine has them (Liberation, Arial's and Times New Roman's metrics).
      await expect
        .poll(() => page.evaluate(() => [...new Set([...document.fonts].filter((face) => face.family.endsWith(' fallback') && face.status === 'loaded').map((face) => face.family))].sort()))
        .toEqual(['Jost Variable fallback', 'Playfair Display Variable fallback']);
      await nextFrame(page);
      const before = await page.evaluate(() => window.__layoutShift);

      if (visit.now) await expect(page.getByRole('timer')).toHaveText('Endet in 10 Std. 58 Min.');
      await fonts.release();
      await page.evaluate(() => document.fonts.ready);
      // The headline is set in the display face now.
      expect(await page.evaluate(() => document.fonts.check('48px "Playfair Display Variable"', document.querySelector('h1')?.textContent ?? ''))).toBe(true);
      await nextFrame(page);
      const shift = await page.evaluate(() => window.__layoutShift);
      expect(before, 'layout shift before the fonts came').toBeLessThan(MAX_SHIFT);
      expect(shift, 'layout shift over the whole visit').toBeLessThan(MAX_SHIFT);
    });
  });
}
