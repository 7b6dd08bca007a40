/**
 * Error reporting in the browser (ADR 013). The page learns from a meta tag whether
 * reporting is on and where the web server's tunnel is (`<meta name="error-reporting"
 * content="/error-reports" data-environment="…">`, rendered only with ERROR_REPORTING_URL); reports are posted
 * there, never to a third party directly, so the CSP stays `connect-src 'self'` and the
 * service's address and key never reach the page. Uncaught errors and unhandled rejections
 * are reported; the app calls `reportError` for what it catches itself ("Error while
 * mounting app:", "Failed to initialize Growthbook:") and `reportApiFailure` for GraphQL
 * and network errors. Everything is scrubbed and rate-limited by @velvet/error-reporting.
 */
import { createReporter } from '@velvet/error-reporting/reporter';
import type { CaptureOptions, Reporter, TelemetryEvent } from '@velvet/error-reporting/reporter';

export const ERROR_REPORTING_META = 'error-reporting';
/** The web server's tunnel to ERROR_REPORTING_URL. */
export const ERROR_REPORTS_PATH = '/error-reports';
/** fetch's keepalive (sent even while the page unloads) takes bodies up to 64 KiB. */
const KEEPALIVE_MAX_BYTES = 60_000;

let reporter: Reporter | null | undefined;

function settings(): { path: string; environment: string } | null {
  if (typeof document === 'undefined') return null;
  const meta = document.querySelector(`meta[name="${ERROR_REPORTING_META}"]`);
  const path = meta?.getAttribute('content');
  return meta && path && path.startsWith('/') ? { path, environment: meta.getAttribute('data-environment') ?? 'web' } : null;
}

function page(): string {
  return window.location.pathname + window.location.search;
}

/** Starts reporting for this page (once); null when reporting is off. */
export function startErrorReporting(): Reporter | null {
  if (reporter !== undefined) return reporter;
  const found = settings();
  if (!found || typeof window === 'undefined') {
    reporter = null;
    return reporter;
  }
  const { path, environment } = found;
  const created = createReporter({
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
  reporter = created;
  window.addEventListener('error', (event) => {
    created.captureException(event.error ?? event.message, { context: page(), tags: { handler: 'onerror' } });
  });
  window.addEventListener('unhandledrejection', (event) => {
    // Cancelled navigations (lib/cancelled-navigations.ts) were marked as handled already.
    if (event.defaultPrevented) return;
    created.captureException(event.reason, { context: page(), tags: { handler: 'unhandledrejection' } });
  });
  created.addTelemetry({ category: 'navigation', message: page() });
  return reporter;
}

/** Reports an error the app caught itself (no-op on the server and when reporting is off). */
export function reportError(error: unknown, options: CaptureOptions = {}): void {
  if (typeof window === 'undefined') return;
  startErrorReporting()?.captureException(error, { context: page(), ...options });
}

/** Adds an event to the telemetry sent with the next report. */
function addTelemetry(event: Omit<TelemetryEvent, 'timestamp'>): void {
  if (typeof window === 'undefined') return;
  startErrorReporting()?.addTelemetry(event);
}

export type ApiFailureKind = 'graphql' | 'network' | 'timeout' | 'rate-limited';

/**
 * The application-level hook for GraphQL and network errors (spec §8) in the browser:
 * rate limits are telemetry only, everything else is reported as a warning.
 */
export function reportApiFailure(failure: { kind: ApiFailureKind; operation: string; detail?: string }): void {
  addTelemetry({ category: 'api', level: 'warning', message: `${failure.operation}: ${failure.kind}` });
  if (failure.kind === 'rate-limited') return;
  reportError(new Error(`${failure.kind} error in ${failure.operation}${failure.detail ? `: ${failure.detail}` : ''}`), {
    level: 'warning',
    tags: { api: failure.kind, operation: failure.operation },
  });
}
