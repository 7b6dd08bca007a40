/**
 * The metric-adjusted fallback faces (ADR 067): `app/fallback-fonts.css` is what fontaine computes
 * from the very font files the site serves, so a font update that changes their metrics fails
 * here until the file is written again:
 *
 *   npx vitest run --project web test/fallback-fonts.test.ts -u
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { generateFontFace, getMetricsForFamily, readMetrics } from 'fontaine';
import { create } from 'fontkitten';
import { expect, it } from 'vitest';

const require = createRequire(import.meta.url);

interface Fallback {
  /** A system font whose metrics fontaine knows (Capsize's collection). */
  font: string;
  /**
   * Local fonts drawn to the same metrics as `font` (Liberation's are Arial's and Times New Roman's,
   * on Linux), or `font` by its PostScript name: `local()` matches a face's full name or its
   * PostScript name, and Noto Serif's regular face is fully named "Noto Serif Regular" in Noto's
   * own files, so `local("Noto Serif")` alone found nothing on Linux.
   */
  sameMetrics?: string[];
  /** The family name the stack in app.css and cmp.css names. */
  name: string;
  /**
   * The width of each of the system font's figures, in em, when they are all one width (tabular):
   * the stand-in then gets a face of its own for the figures and the percent sign, sized to the web
   * font's figures as the headlines use them (below).
   */
  tabularFigures?: number;
}

/** Each web font's latin subset (the preloaded file) and the system fonts that stand in for it until it arrives. */
const FACES: { file: string; fallbacks: Fallback[] }[] = [
  {
    file: '@fontsource-variable/jost/files/jost-latin-wght-normal.woff2',
    fallbacks: [
      // Windows, macOS, iOS; Linux through Liberation Sans.
      { name: 'Jost Variable fallback', font: 'Arial', sameMetrics: ['Liberation Sans'] },
      // Android.
      { name: 'Jost Variable fallback Roboto', font: 'Roboto', sameMetrics: ['Roboto-Regular'] },
    ],
  },
  {
    file: '@fontsource-variable/playfair-display/files/playfair-display-latin-wght-normal.woff2',
    fallbacks: [
      // Times New Roman's figures, and Liberation Serif's, are 1,024 of 2,048 units wide.
      { name: 'Playfair Display Variable fallback', font: 'Times New Roman', sameMetrics: ['Liberation Serif'], tabularFigures: 0.5 },
      // Android. Noto Serif's figures are 559 of 1,000 units wide (NotoSerif-Regular.ttf and -Bold.ttf 2.004, Debian's fonts-noto-core).
      { name: 'Playfair Display Variable fallback Noto', font: 'Noto Serif', sameMetrics: ['NotoSerif-Regular'], tabularFigures: 0.559 },
    ],
  },
];

/**
 * The figures of the landing page's headline, in every language ("Up to 75 % off"): the text set
 * largest in the display face, over two or three lines, where a wider stand-in takes a line more.
 */
function headlineFigures(): string[] {
  const dir = new URL('../../../packages/i18n/catalogs/', import.meta.url);
  const figures = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => String((JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as Record<string, unknown>)['landing.hero.title']).match(/[0-9]/g) ?? []);
  if (figures.length === 0) throw new Error('No figures in the headlines: the figures face (tabularFigures) has nothing to be sized to');
  return figures;
}

/**
 * The web font's figures, on average as the headlines use them, in its own units. fontaine sizes
 * a stand-in by the average width of English text; a display face's figures can be far narrower
 * than its letters (Playfair Display's proportional "7" and "5" are 0.41 em, Times New Roman's
 * every figure 0.5 em), so "Up to 75 % off" was set 3–6 % wider in the stand-in, a line more at
 * some widths, which moved the page when the web font came.
 */
function figureWidth(file: string): number {
  const font = create(readFileSync(require.resolve(file)));
  if (!('glyphsForString' in font)) throw new Error(`${file} is a font collection`);
  const figures = headlineFigures();
  return figures.reduce((sum, figure) => sum + font.glyphsForString(figure)[0]!.advanceWidth, 0) / figures.length;
}

async function fallbackFontsCss(): Promise<string> {
  const rules: string[] = [];
  for (const { file, fallbacks } of FACES) {
    const metrics = await readMetrics(pathToFileURL(require.resolve(file)));
    if (!metrics) throw new Error(`fontaine could not read ${file}`);
    for (const { name, font, sameMetrics = [], tabularFigures } of fallbacks) {
      const fallbackMetrics = await getMetricsForFamily(font);
      if (!fallbackMetrics) throw new Error(`fontaine has no metrics for ${font}`);
      const sources = [font, ...sameMetrics].map((local) => `local("${local}")`).join(', ');
      const local = (face: string) => face.replace(`src: local("${font}");`, `src: ${sources};`).trim();
      rules.push(local(generateFontFace(metrics, { name, font, metrics: fallbackMetrics })));
      if (tabularFigures) {
        // Declared after the face above, so it wins for the figures and the percent sign beside them.
        const figures = generateFontFace(
          { ...metrics, xWidthAvg: figureWidth(file) },
          { name, font, metrics: { ...fallbackMetrics, xWidthAvg: tabularFigures * fallbackMetrics.unitsPerEm }, 'unicode-range': 'U+0025, U+0030-0039' },
        );
        rules.push(local(figures));
      }
    }
  }
  return [
    '/*',
    ' * Generated by apps/web/test/fallback-fonts.test.ts (fontaine, from the served font files): do not',
    ' * edit by hand. System fonts sized to the web fonts, so that text set in them before the web fonts',
    ' * arrive takes the same room and nothing moves when they do (ADR 067).',
    ' */',
    ...rules,
    '',
  ].join('\n');
}

it('the fallback faces are sized from the fonts the site serves', async () => {
  const css = await fallbackFontsCss();
  // Each stand-in is scaled and given the web font's ascent and descent; each of the display face's has a face of its own for the figures.
  expect(css.match(/size-adjust: \d+(\.\d+)?%;/g)).toHaveLength(6);
  expect(css.match(/unicode-range: U\+0025, U\+0030-0039;/g)).toHaveLength(2);
  await expect(css).toMatchFileSnapshot('../app/fallback-fonts.css');
});
