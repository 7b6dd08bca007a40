import { LOCALES } from '@velvet/i18n/locales';
import { catalogs } from '@velvet/i18n/catalogs';
import { expect, it } from 'vitest';
import { LATIN_EXT_LOCALES } from '../app/lib/page/font-preloads.ts';

/** Letters the web fonts' latin subset lacks and their latin-ext subset has (fontsource's unicode-ranges: U+0100–02BA, less U+0131 and U+0152–0153). */
const LATIN_EXT = /[\u0100-\u0130\u0132-\u0151\u0154-\u02ba]/u;

it('a language preloads the fonts’ latin-ext subset exactly when its texts need it', () => {
  const needing = LOCALES.filter((locale) => Object.values(catalogs[locale]).some((text) => LATIN_EXT.test(text)));
  expect([...LATIN_EXT_LOCALES].sort()).toEqual(needing);
});
