#!/usr/bin/env node
/**
 * Screenshots of pages at phone and desktop widths, for looking at what visitors see.
 * Usage: node scripts/screenshots.mjs [base-url] [path ...]  → screenshots/*.png
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [base = 'http://localhost:3000', ...paths] = process.argv.slice(2);
const targets = paths.length ? paths : ['/', '/about-us', '/stores', '/error/404'];
mkdirSync('screenshots', { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const width of [390, 1440]) {
  const page = await browser.newPage({ viewport: { width, height: width < 500 ? 844 : 900 } });
  for (const target of targets) {
    await page.goto(base + target, { waitUntil: 'networkidle' });
    const name = `${target.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${width}.png`;
    await page.screenshot({ path: `screenshots/${name}`, fullPage: true });
    console.log(`screenshots/${name}`);
  }
  await page.close();
}
await browser.close();
