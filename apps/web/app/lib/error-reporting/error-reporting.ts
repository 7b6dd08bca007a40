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
import { MAX_TELEMETRY_EVENTS } from '@velvet/error-reporting/limits';
import type { CaptureOptions, Reporter, TelemetryEvent } from '@velvet/error-reporting/reporter';

export const ERROR_REPORTING_META = 'error-reporting';
/** The web server's tunnel to ERROR_REPORTING_URL. */
export const ERROR_REPORTS_PATH = '/error-reports';

type Telemetry = Omit<TelemetryEvent, 'timestamp'> & { timestamp: number };

/**
 * Reporting for this page: off (no meta tag), or on with the telemetry gathered so far. The
 * reporter itself (`error-reporter.ts`, scrubbing and all) is loaded with the first capture
 * (ADR 037): a page without errors never downloads it.
 */
let reporting: { path: string; environment: string; telemetry: Telemetry[]; reporter?: Promise<Reporter> } | null | undefined;

function settings(): { path: string; environment: string } | null {
  if (typeof document === 'undefined') return null;
  const meta = document.querySelector(`meta[name="${ERROR_REPORTING_META}"]`);
  const path = meta?.getAttribute('content');
  return meta && path && path.startsWith('/') ? { path, environment: meta.getAttribute('data-environment') ?? 'web' } : null;
}

function page(): string {
  return window.location.pathname + window.location.search;
}

/**
 * The reporter, loaded once, with the telemetry gathered until then. A load that fails (the
 * visitor went offline before the page's first error) is forgotten, so the next capture tries again.
 */
function reporter(): Promise<Reporter> | null {
  if (!reporting) return null;
  const on = reporting;
  on.reporter ??= import('./error-reporter.ts').then(
    ({ browserReporter }) => {
      const created = browserReporter(on.path, on.environment);
      for (const event of on.telemetry.splice(0)) created.addTelemetry(event);
      return created;
    },
    (error: unknown) => {
      on.reporter = undefined;
      throw error;
    },
  );
  return on.reporter;
}

/**
 * Reports one error; settles, never rejects. A report that cannot leave is dropped quietly: an
 * unhandled rejection here would come back through the listener below and loop.
 */
function capture(error: unknown, options: CaptureOptions): Promise<void> {
  return (reporter()?.then((created) => void created.captureException(error, options)) ?? Promise.resolve()).catch(() => undefined);
}

/** Starts reporting for this page (once): uncaught errors and unhandled rejections are reported. */
export function startErrorReporting(): void {
  if (reporting !== undefined || typeof window === 'undefined') return;
  const found = settings();
  reporting = found ? { ...found, telemetry: [] } : null;
  if (!found) return;
  window.addEventListener('error', (event) => {
    void capture(event.error ?? event.message, { context: page(), tags: { handler: 'onerror' } });
  });
  window.addEventListener('unhandledrejection', (event) => {
    // Cancelled navigations (lib/error-reporting/cancelled-navigations.ts) were marked as handled already.
    if (event.defaultPrevented) return;
    void capture(event.reason, { context: page(), tags: { handler: 'unhandledrejection' } });
  });
  addTelemetry({ category: 'navigation', message: page() });
}

/**
 * Reports an error the app caught itself (no-op on the server and when reporting is off);
 * settles once the report is on its way.
 */
export function reportError(error: unknown, options: CaptureOptions = {}): Promise<void> {
  if (typeof window === 'undefined') return Promise.resolve();
  startErrorReporting();
  return capture(error, { context: page(), ...options });
}

/** Adds an event to the telemetry sent with the next report. */
function addTelemetry(event: Omit<TelemetryEvent, 'timestamp'>): void {
  if (typeof window === 'undefined') return;
  startErrorReporting();
  if (!reporting) return;
  const on = reporting;
  const stamped = { ...event, timestamp: Date.now() / 1000 };
  const keep = () => {
    on.telemetry.push(stamped);
    if (on.telemetry.length > MAX_TELEMETRY_EVENTS) on.telemetry.shift();
  };
  if (on.reporter) void on.reporter.then((created) => created.addTelemetry(stamped), keep);
  else keep();
}

export type ApiFailureKind = 'graphql' | 'network' | 'timeout' | 'rate-limited';

/**
 * The application-level hook for GraphQL and network errors (spec §8) in the browser:
 * rate limits are telemetry only, everything else is reported as a warning.
 */
export function reportApiFailure(failure: { kind: ApiFailureKind; operation: string; detail?: string }): void {
  addTelemetry({ category: 'api', level: 'warning', message: `${failure.operation}: ${failure.kind}` });
  if (failure.kind === 'rate-limited') return;
  void reportError(new Error(`${failure.kind} error in ${failure.operation}${failure.detail ? `: ${failure.detail}` : ''}`), {
    level: 'warning',
    tags: { api: failure.kind, operation: failure.operation },
  });
}
