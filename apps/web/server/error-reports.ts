/**
 * Error reporting on the web server (ADR 013): the server's own reporter, and the tunnel
 * the browser posts its reports to (POST /error-reports), forwarded to ERROR_REPORTING_URL.
 * The tunnel takes JSON up to MAX_PAYLOAD_BYTES, at most ITEMS_PER_MINUTE reports per
 * client address and minute (the browser limits itself too), scrubs the report again
 * (a page cannot be trusted to have done it) and tags it as coming from a browser.
 */
import { ITEMS_PER_MINUTE, MAX_CONTEXT_LENGTH, MAX_PAYLOAD_BYTES } from '@velvet/error-reporting/limits';
import { bodyOf, readBodies } from './request-body.ts';

export { MAX_PAYLOAD_BYTES };
import { httpTransport } from '@velvet/error-reporting/node-transport';
import { byteLength, createReporter, fitReport } from '@velvet/error-reporting/reporter';
import type { ErrorReport, Reporter } from '@velvet/error-reporting/reporter';
import { scrub } from '@velvet/error-reporting/scrub';
import express from 'express';
import type { Logger } from 'pino';
import type { ApiFailureReport } from '../app/lib/page/context.ts';
import { ERROR_REPORTS_PATH } from '../app/lib/error-reporting/error-reporting.ts';

export { ERROR_REPORTS_PATH };

export interface WebErrorReporting {
  /** Null when ERROR_REPORTING_URL is unset: nothing is reported, the tunnel does not exist. */
  reporter: Reporter | null;
  send: ((body: string) => Promise<void>) | null;
  report(error: unknown, options?: Parameters<Reporter['captureException']>[1]): void;
  apiFailure(failure: ApiFailureReport): void;
}

export function createWebErrorReporting({ url, environment, logger }: { url: string | undefined; environment: string; logger: Logger }): WebErrorReporting {
  if (!url) return { reporter: null, send: null, report: () => undefined, apiFailure: () => undefined };
  const send = httpTransport({ url, onFailure: (error) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'error report not delivered') });
  const reporter = createReporter({ platform: 'node', logger: 'web', environment, transport: send });
  return {
    reporter,
    send,
    report: (error, options) => reporter.captureException(error, options),
    apiFailure(failure) {
      // Rate limits and shedding under load (ADR 052) are the API doing its job; the rest means a page could not get its data.
      if (failure.kind === 'rate-limited' || failure.kind === 'busy') return;
      reporter.captureException(new Error(`API ${failure.kind} error in ${failure.operation}`), {
        level: 'warning',
        context: failure.page,
        tags: { api: failure.kind, operation: failure.operation },
        extra: { status: failure.status ?? null, codes: failure.codes ?? [], variables: failure.variables ?? null },
      });
    },
  };
}

/** A sliding one-minute window per client address. */
export function perClientLimit(perMinute: number, now: () => number = Date.now) {
  const windows = new Map<string, number[]>();
  return (client: string): boolean => {
    const t = now();
    if (windows.size > 10_000) for (const [key, times] of windows) if ((times.at(-1) ?? 0) <= t - 60_000) windows.delete(key);
    const times = (windows.get(client) ?? []).filter((at) => at > t - 60_000);
    if (times.length >= perMinute) {
      windows.set(client, times);
      return false;
    }
    times.push(t);
    windows.set(client, times);
    return true;
  };
}

function asReport(value: unknown): ErrorReport | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const report = value as Partial<ErrorReport>;
  if (typeof report.event_id !== 'string' || !/^[0-9a-f]{32}$/.test(report.event_id)) return null;
  return report as ErrorReport;
}

export function errorReportTunnel(reporting: WebErrorReporting, logger: Logger): express.Router {
  const router = express.Router();
  const allow = perClientLimit(ITEMS_PER_MINUTE);
  router.post(
    ERROR_REPORTS_PATH,
    readBodies(() => MAX_PAYLOAD_BYTES),
    (req, res) => {
      const send = reporting.send;
      if (!send) {
        res.status(404).end();
        return;
      }
      if (!allow(req.ip ?? 'unknown')) {
        res.status(429).set('Retry-After', '60').end();
        return;
      }
      let parsed: unknown;
      try {
        // The body was read within MAX_PAYLOAD_BYTES by the server's body reader (ADR 028).
        parsed = req.is(['application/json', 'text/plain']) ? JSON.parse(bodyOf(req)?.toString('utf8') ?? '') : null;
      } catch {
        parsed = null;
      }
      const report = asReport(parsed);
      if (!report) {
        res.status(400).type('text/plain').send('Not an error report');
        return;
      }
      const cleaned = scrub(report) as ErrorReport;
      cleaned.platform = 'javascript';
      cleaned.logger = 'browser';
      cleaned.tags = { ...(cleaned.tags ?? {}), source: 'browser', ...(req.get('user-agent') ? { userAgent: req.get('user-agent')!.slice(0, MAX_CONTEXT_LENGTH) } : {}) };
      const body = fitReport(cleaned, MAX_PAYLOAD_BYTES);
      if (byteLength(body) > MAX_PAYLOAD_BYTES) {
        res.status(413).end();
        return;
      }
      void send(body).catch((error: unknown) => logger.warn({ err: error }, 'browser error report not forwarded'));
      res.status(204).end();
    },
  );
  return router;
}
