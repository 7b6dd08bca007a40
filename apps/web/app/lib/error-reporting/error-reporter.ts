/**
 * The browser's reporter proper (ADR 013), loaded by `error-reporting.ts` only when there is
 * something to report (ADR 037): reports are posted to the web server's tunnel, never to a third
 * party directly, so the CSP stays `connect-src 'self'`. Scrubbing and rate limits are
 * @velvet/error-reporting's.
 */
import { createReporter, type Reporter } from '@velvet/error-reporting/reporter';

/** fetch's keepalive (sent even while the page unloads) takes bodies up to 64 KiB. */
const KEEPALIVE_MAX_BYTES = 60_000;

export function browserReporter(path: string, environment: string): Reporter {
  return createReporter({
    platform: 'javascript',
    logger: 'browser',
    environment,
    transport: (body) =>
      fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        credentials: 'same-origin',
        keepalive: body.length < KEEPALIVE_MAX_BYTES,
      }).then(
        () => undefined,
        () => undefined,
      ),
  });
}
