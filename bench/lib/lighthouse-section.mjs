/**
 * Lighthouse mobile performance of the five public pages (issue 19 §5: a median of 3 runs of at
 * least 98 each, CLS 0), a first visit with the consent banner showing, on the product the bench
 * started (its demo data: WELCOME2026 is valid), before any load run. One run a page with
 * `--quick`. Lighthouse has no anchor: its score is already a comparison (with the field data of
 * the web's pages), and its throttling is simulated from this machine's own timings.
 */
import { num } from './format.mjs';
import { LIGHTHOUSE_GOAL, LIGHTHOUSE_PAGES, chromiumMissing, lighthouseLine, lighthousePages } from './lighthouse.mjs';

/** @type {import('./sections.mjs').Section} */
export const lighthouseSection = {
  name: 'lighthouse',
  title: 'Lighthouse mobile, simulated throttling, first visit with the consent banner (median of the runs)',
  needs: 'product',
  async run({ root, settings, product }) {
    if (!product) throw new Error('the lighthouse section needs the product');
    const missing = chromiumMissing();
    if (missing) {
      return {
        figures: [{ id: 'lighthouse', label: 'Lighthouse mobile, five pages', measured: `not measured: ${missing}`, goal: { text: `≥ ${LIGHTHOUSE_GOAL} each, CLS 0`, met: null } }],
        lines: [`  Not measured: ${missing}`],
      };
    }
    const runs = settings.quick ? 1 : 3;
    /** @type {string[]} */
    const lines = [];
    const results = await lighthousePages({ root, webUrl: product.webUrl, pages: LIGHTHOUSE_PAGES, runs, log: (line) => lines.push(line) });
    lines.push('', `  median of ${runs}`, ...results.map((r) => lighthouseLine(r.page, r.median)));
    const cls = Math.max(...results.map((r) => r.median.cls));
    return {
      figures: [
        ...results.map((r) => ({
          id: `lighthouse.${r.page}`,
          label: `Lighthouse mobile ${r.page}`,
          measured: `${r.median.score} (LCP ${num(r.median.lcp / 1000, 1)} s, TBT ${num(r.median.tbt, 0)} ms)`,
          goal: { text: `≥ ${LIGHTHOUSE_GOAL}`, met: r.median.score >= LIGHTHOUSE_GOAL },
        })),
        { id: 'lighthouse.cls', label: 'Lighthouse CLS, largest median of the five', measured: cls.toFixed(3), goal: { text: '0', met: cls === 0 } },
      ],
      lines,
      data: results,
    };
  },
};
