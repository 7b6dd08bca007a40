/**
 * What a benchmark section is, and the summary every run ends with.
 *
 * A section measures one thing against its anchor (started in the same run) and hands back
 * figures: the measured value and the anchor's, both absolute, the ratio between them, and the
 * goal with whether it is met. `bench/run.mjs` runs the sections of its SECTIONS list in order,
 * prints each one's lines as it finishes, then the summary of every figure, and writes it all to
 * bench/results/<time>.json. A new measurement is a new module in bench/lib/ exporting a Section,
 * added to that list.
 */
import { num, printTable } from './format.mjs';

/**
 * @typedef {object} Goal
 * @property {string} text         e.g. '≥ 1.0 of the anchor' or '≥ 500/s, p99 ≤ 100 ms'
 * @property {boolean | null} met  null: could not be measured in this run
 */

/**
 * @typedef {object} Figure one line of the summary
 * @property {string} id         stable key in the JSON file
 * @property {string} label      e.g. 'API registrationCodeDetails, req/s'
 * @property {string} measured   the absolute figure, formatted (e.g. '1,234 req/s, p99 45 ms')
 * @property {string} [anchor]   the anchor's absolute figure, formatted, with the anchor's name
 * @property {number} [ratio]    measured ÷ anchor, what the goal is about (absent when there is no anchor)
 * @property {Goal} [goal]
 */

/**
 * @typedef {object} SectionResult
 * @property {Figure[]} figures
 * @property {string[]} lines    the section's own report, printed under its title
 * @property {unknown} [data]    anything else worth keeping in the JSON file
 * @property {boolean} [suspect] some responses were not plain successes: the run exits 1
 */

/**
 * @typedef {object} Ports
 * @property {number} web         the product's web server (BENCH_WEB_PORT, default 3410)
 * @property {number} api         the product's API (BENCH_API_PORT, default 9410)
 * @property {number} htmlAnchor  the bare node:http server (web + 1)
 * @property {number} nginx       nginx in front of the web server (web + 2)
 * @property {number} routerAnchor the bare React Router page (web + 3)
 * @property {number} yogaAnchor  the bare Yoga server (api + 1)
 * @property {number} apiAlone    the API alone on PostgreSQL (api + 2)
 */

/**
 * @typedef {object} Settings
 * @property {boolean} quick
 * @property {number} duration       seconds per load run
 * @property {number} warmUp         seconds of warm-up before each load run (figures thrown away)
 * @property {number} webConnections
 * @property {number} apiConnections
 * @property {number} registerConnections
 */

/**
 * @typedef {object} SectionContext
 * @property {string} root       the repository
 * @property {string} workDir    a temporary directory of this run (deleted at the end)
 * @property {Settings} settings
 * @property {Ports} ports
 * @property {import('./product.mjs').Product | undefined} product the product (API + web on SQLite) while a section that needs it runs
 * @property {(label: string, options: import('./load.mjs').LoadOptions) => Promise<import('./load.mjs').LoadResult>} measure
 *   warm-up, then the measured load run, with a progress line
 * @property {(cleanup: () => unknown) => () => void} onCleanup  runs `cleanup` however the run ends; returns a function that forgets it
 */

/**
 * @typedef {object} Section
 * @property {string} name       for --only and the JSON file
 * @property {string} title      printed above its report
 * @property {'product' | 'alone'} needs  'product': runs while the product is up; 'alone': after it stopped
 * @property {(context: SectionContext) => Promise<SectionResult>} run
 */

/**
 * A goal on a ratio: met when `ratio` is at least (or, `atMost`, at most) `limit`.
 * @param {number | undefined} ratio
 * @param {number} limit
 * @param {{ atMost?: boolean, text?: string }} [options]
 * @returns {Goal}
 */
export function ratioGoal(ratio, limit, { atMost = false, text } = {}) {
  const met = ratio === undefined || !Number.isFinite(ratio) ? null : atMost ? ratio <= limit : ratio >= limit;
  return { text: text ?? `${atMost ? '≤' : '≥'} ${limit}`, met };
}

/** A load result as one short absolute figure. @param {import('./load.mjs').LoadResult} r */
export const throughput = (r) => `${num(r.requestsPerSecond, 0)} req/s, p99 ${num(r.p99)} ms`;

/**
 * The load results of a section as a table (latency in ms; CPU µs/req: the server's processes'
 * CPU time per completed request, the figure that moves least when the machine is busy).
 * @param {[string, import('./load.mjs').LoadResult][]} rows
 * @returns {string[]}
 */
export function loadTable(rows) {
  const lines = [];
  const collect = (/** @type {string} */ line) => lines.push(line);
  printTable(
    ['target', 'conns', 'req/s', 'p50', 'p99', 'mean', 'CPU µs/req', 'requests', 'non-2xx', 'errors'],
    rows.map(([label, r]) => [
      label,
      r.connections,
      num(r.requestsPerSecond, 0),
      num(r.p50),
      num(r.p99),
      num(r.latencyMean, 2),
      r.cpuPerRequest === null ? '–' : num(r.cpuPerRequest, 0),
      num(r.requests),
      num(r.non2xx),
      num(r.errors),
    ]),
    '  ',
    collect,
  );
  return lines;
}

/** A load run's server CPU per request, formatted. @param {import('./load.mjs').LoadResult} r */
export const cpuText = (r) => (r.cpuPerRequest === null ? 'not measured' : `${num(r.cpuPerRequest, 0)} µs`);

/** True when a load run had failed requests. @param {import('./load.mjs').LoadResult[]} results */
export const anyFailed = (...results) => results.some((r) => r.non2xx > 0 || r.errors > 0);

/**
 * Prints the summary of every figure of the run.
 * @param {Figure[]} figures
 */
export function printSummary(figures) {
  const met = (/** @type {Goal | undefined} */ goal) => (goal === undefined ? '' : goal.met === null ? 'not measured' : goal.met ? 'yes' : 'NO');
  printTable(
    ['figure', 'measured', 'anchor (same run)', 'ratio', 'goal', 'met'],
    figures.map((f) => [f.label, f.measured, f.anchor ?? '–', f.ratio === undefined ? '–' : num(f.ratio, 3), f.goal?.text ?? '–', met(f.goal)]),
  );
  const judged = figures.filter((f) => f.goal && f.goal.met !== null);
  console.log(`\n  Goals met: ${judged.filter((f) => f.goal?.met).length} of ${judged.length}${judged.length < figures.filter((f) => f.goal).length ? ` (${figures.filter((f) => f.goal).length - judged.length} not measured)` : ''}`);
}
