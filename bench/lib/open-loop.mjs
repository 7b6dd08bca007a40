/**
 * An open-loop load generator: requests are sent at a fixed rate, each at its own instant,
 * whether or not the earlier ones were answered — as visitors arrive, unlike autocannon's
 * connections, which wait for an answer before they send again (a closed loop slows down with
 * the server and so never sees a queue grow). Each latency is counted from the instant the
 * request was due, not from when it left, so a generator that falls behind cannot hide a slow
 * server (coordinated omission).
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * @typedef {object} OpenLoopAnswer
 * @property {number} index    the request's number (0-based)
 * @property {number} status   HTTP status, 0 when no answer came (socket error, time-out)
 * @property {string} text     the body ('' without an answer)
 * @property {number} latency  ms from the instant the request was due to its whole answer
 * @property {number} doneAt   ms from the instant the first request was due to this answer
 */

/**
 * @typedef {object} OpenLoopResult
 * @property {number} rate      requests offered per second
 * @property {number} duration  seconds of offering
 * @property {OpenLoopAnswer[]} answers one per request, in the order they were offered
 * @property {number} sendLagP99 ms the generator sent late (p99): above a few ms it could not keep the rate
 */

/**
 * Offers `rate` requests a second for `duration` seconds (POST `makeBody(index)` to `url`), waits
 * for every answer (each at most `timeoutMs`) and returns them.
 * @param {{ url: string, rate: number, duration: number, makeBody: (index: number) => string, headers?: Record<string, string>, timeoutMs?: number }} options
 * @returns {Promise<OpenLoopResult>}
 */
export async function openLoop({ url, rate, duration, makeBody, headers = { 'content-type': 'application/json' }, timeoutMs = 30_000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const total = Math.round(rate * duration);
  const start = performance.now() + 20;
  /** @type {Promise<OpenLoopAnswer>[]} */
  const pending = [];
  /** @type {number[]} */
  const lags = [];
  try {
    for (let index = 0; index < total; index++) {
      const due = start + (index * 1000) / rate;
      const wait = due - performance.now();
      if (wait >= 1) await sleep(wait);
      lags.push(Math.max(0, performance.now() - due));
      pending.push(send(agent, url, headers, makeBody(index), timeoutMs).then((answer) => ({ index, ...answer, latency: performance.now() - due, doneAt: performance.now() - start })));
    }
    return { rate, duration, answers: await Promise.all(pending), sendLagP99: percentile(lags, 0.99) };
  } finally {
    agent.destroy();
  }
}

/**
 * @param {http.Agent} agent @param {string} url @param {Record<string, string>} headers @param {string} body @param {number} timeoutMs
 * @returns {Promise<{ status: number, text: string }>}
 */
function send(agent, url, headers, body, timeoutMs) {
  return new Promise((resolve) => {
    const request = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, timeout: timeoutMs }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', () => resolve({ status: 0, text: '' }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve({ status: 0, text: '' }));
    request.end(body);
  });
}

/**
 * The `q` quantile of `values` (nearest rank); NaN when there are none.
 * @param {number[]} values @param {number} q
 */
export function percentile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Polls `url` (GET) every `intervalMs` until `stop()` is called; the statuses and latencies it saw.
 * @param {string} url @param {number} [intervalMs]
 */
export function pollHealth(url, intervalMs = 250) {
  /** @type {{ status: number, latency: number }[]} */
  const seen = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      let status = 0;
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        // no answer within 5 s: status 0
      }
      seen.push({ status, latency: performance.now() - started });
      await sleep(intervalMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return seen;
    },
  };
}
