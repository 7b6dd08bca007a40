/**
 * The web fonts a page asks for before its first paint (ADR 056, 067). Every page preloads each
 * face's latin subset (root.tsx `links`). A language whose own letters lie outside it — Polish
 * ą, ę, ł, ś, ż … are in the faces' latin-ext subset — preloads that subset too: otherwise the
 * browser asks for it only once it lays out text that needs it, after the first paint, and the
 * page's headlines and paragraphs change face late.
 */
import { preload } from 'react-dom';
import jostLatinExtUrl from '@fontsource-variable/jost/files/jost-latin-ext-wght-normal.woff2?url';
import displayLatinExtUrl from '@fontsource-variable/playfair-display/files/playfair-display-latin-ext-wght-normal.woff2?url';
import type { Locale } from '@velvet/i18n/locales';

/** The languages whose catalogs use letters of the latin-ext subset (test/font-preloads.test.ts checks it against the catalogs). */
export const LATIN_EXT_LOCALES: ReadonlySet<Locale> = new Set(['pl']);

/** Called while the root layout renders: React writes the preloads into the document's head (in the browser, where they are there already, it adds none). */
export function preloadFonts(locale: Locale): void {
  if (!LATIN_EXT_LOCALES.has(locale)) return;
  for (const href of [jostLatinExtUrl, displayLatinExtUrl]) preload(href, { as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' });
}
