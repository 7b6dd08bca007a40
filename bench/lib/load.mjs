/**
 * Load runs with autocannon (in this process: it shares the machine with the servers).
 */
import autocannon from 'autocannon';

/**
 * @typedef {object} LoadOptions
 * @property {string} url
 * @property {number} connections
 * @property {number} duration seconds
 * @property {string} [method]
 * @property {Record<string, string>} [headers]
 * @property {string} [body]
 * @property {(status: number, body: string) => void} [onResponse] sees every response (collects bodies: a little slower)
 * @property {() => string} [makeBody] a new body for every request (e.g. a fresh email address); replaces `body`
 * @property {() => string} [makePath] a new path (with its query) for every request, e.g. a page for another code
 * @property {(() => number) | null} [cpu] the server's CPU milliseconds so far (bench/lib/cpu.mjs): gives cpuPerRequest
 */

/**
 * @typedef {object} LoadResult
 * @property {string} url
 * @property {number} connections
 * @property {number} duration   seconds actually run
 * @property {number} requestsPerSecond mean of the per-second samples
 * @property {number} requests   completed responses
 * @property {number} latencyMean ms
 * @property {number} p50 ms (autocannon records whole milliseconds)
 * @property {number} p99 ms
 * @property {number} max ms
 * @property {number} non2xx
 * @property {number} errors     socket errors and timeouts
 * @property {number} bytesPerSecond mean response bytes per second
 * @property {number | null} cpuPerRequest the server's CPU time per completed request, in µs (null: not measured)
 */

/**
 * Runs autocannon once and keeps the figures the report needs.
 * @param {LoadOptions} options
 * @returns {Promise<LoadResult>}
 */
export async function load({ url, connections, duration, method = 'GET', headers, body, onResponse, makeBody, makePath, cpu }) {
  /** @type {Record<string, unknown>} */
  const request = { method, headers, body };
  if (makeBody || makePath) {
    request.setupRequest = (/** @type {Record<string, unknown>} */ req) => ({ ...req, ...(makeBody ? { body: makeBody() } : {}), ...(makePath ? { path: makePath() } : {}) });
  }
  if (onResponse) request.onResponse = (/** @type {number} */ status, /** @type {string} */ text) => onResponse(status, text);
  const cpuBefore = cpu?.() ?? 0;
  const result = await autocannon({
    url,
    connections,
    duration,
    timeout: 10,
    ...(onResponse || makeBody || makePath ? { requests: [request] } : request),
  });
  return {
    url,
    connections,
    duration: (new Date(result.finish).getTime() - new Date(result.start).getTime()) / 1000,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    latencyMean: result.latency.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerSecond: result.throughput.average,
    cpuPerRequest: cpu && result.requests.total > 0 ? ((cpu() - cpuBefore) * 1000) / result.requests.total : null,
  };
}

/**
 * A short run whose figures are thrown away: JIT, connection pools and caches warm up.
 * @param {LoadOptions} options
 * @returns {Promise<void>}
 */
export async function warmUp(options) {
  await load({ ...options, onResponse: undefined, cpu: undefined });
}
