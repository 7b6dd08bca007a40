/**
 * The error reporter (ADR 013): one per page or server process. It turns an error into a
 * report in the Sentry "store" event shape (a plain JSON collector reads it just as well),
 * attaches the last telemetry events, scrubs personal data, keeps the report under the
 * size limit and sends at most ITEMS_PER_MINUTE reports a minute. The transport is the
 * caller's: the browser posts to the web server's tunnel, the servers post to
 * ERROR_REPORTING_URL.
 */
import { ITEMS_PER_MINUTE, MAX_CONTEXT_LENGTH, MAX_PAYLOAD_BYTES, MAX_TELEMETRY_EVENTS } from './limits.ts';
import { scrub, scrubString } from './scrub.ts';

type ReportLevel = 'fatal' | 'error' | 'warning' | 'info';

export interface TelemetryEvent {
  /** Seconds since the epoch (Sentry's breadcrumb timestamp). */
  timestamp: number;
  category: string;
  message?: string;
  level?: ReportLevel;
  data?: Record<string, unknown>;
}

export interface StackFrame {
  filename?: string;
  function?: string;
  lineno?: number;
  colno?: number;
}

export interface ErrorReport {
  event_id: string;
  timestamp: string;
  platform: 'javascript' | 'node';
  level: ReportLevel;
  logger: string;
  environment: string;
  release?: string;
  /** The context: the page or the operation the error belongs to (at most 255 characters). */
  transaction?: string;
  message?: { formatted: string };
  exception?: { values: { type: string; value: string; stacktrace?: { frames: StackFrame[] } }[] };
  request?: { url?: string; method?: string };
  tags: Record<string, string>;
  extra: Record<string, unknown>;
  breadcrumbs: { values: TelemetryEvent[] };
}

export interface CaptureOptions {
  /** A prefix the error's own message follows, e.g. "Failed to initialize Growthbook:". */
  message?: string;
  level?: ReportLevel;
  /** The page path or operation (the report's transaction). */
  context?: string;
  tags?: Record<string, string>;
  extra?: Record<string, unknown>;
  request?: { url?: string; method?: string };
}

type CaptureOutcome = 'sent' | 'rate-limited';

export interface ReporterOptions {
  platform: 'javascript' | 'node';
  /** Which reporter: browser, web, api. */
  logger: string;
  environment: string;
  release?: string | undefined;
  /** Sends one serialised report; failures are the transport's to swallow. */
  transport(body: string, report: ErrorReport): void | Promise<void>;
  now?: () => number;
  itemsPerMinute?: number;
  maxTelemetryEvents?: number;
  maxPayloadBytes?: number;
}

export interface Reporter {
  captureException(error: unknown, options?: CaptureOptions): CaptureOutcome;
  captureMessage(message: string, options?: CaptureOptions): CaptureOutcome;
  addTelemetry(event: Omit<TelemetryEvent, 'timestamp'> & { timestamp?: number }): void;
  /** Reports sent and dropped by the rate limit since start. */
  readonly stats: { sent: number; dropped: number; telemetry: number };
}

const encoder = new TextEncoder();

export function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

function truncate(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** Every string inside `value` cut to `max` characters. */
function truncateStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return truncate(value, max);
  if (Array.isArray(value)) return value.map((item) => truncateStrings(item, max));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [truncate(k, max), truncateStrings(v, max)]));
  }
  return value;
}

/** V8 ("    at fn (file:1:2)") and Firefox/Safari ("fn@file:1:2") stack lines, outermost call first as Sentry expects. */
export function parseStack(stack: string | undefined): StackFrame[] {
  if (!stack) return [];
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n')) {
    const v8 = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    const gecko = v8 ? null : /^(.*?)@(.+?):(\d+):(\d+)$/.exec(line.trim());
    const match = v8 ?? gecko;
    if (!match) continue;
    frames.push({ function: match[1] || '?', filename: match[2], lineno: Number(match[3]), colno: Number(match[4]) });
  }
  return frames.reverse();
}

function errorParts(error: unknown): { type: string; value: string; stack?: string } {
  if (error instanceof Error) return { type: error.name || 'Error', value: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  if (typeof error === 'string') return { type: 'Error', value: error };
  try {
    return { type: 'Error', value: JSON.stringify(error) ?? String(error) };
  } catch {
    return { type: 'Error', value: String(error) };
  }
}

function randomHex(bytes: number): string {
  const array = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(array);
  return Array.from(array, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Shrinks a report until its JSON fits `maxBytes`: oldest telemetry first, then long
 * strings, then all but the outermost and innermost frames, then extra data; if it still
 * does not fit, only its identity, level, message and exception type remain.
 */
export function fitReport(report: ErrorReport, maxBytes: number): string {
  let body = JSON.stringify(report);
  if (byteLength(body) <= maxBytes) return body;
  const shrunk: ErrorReport = structuredClone(report);
  while (shrunk.breadcrumbs.values.length > 0 && byteLength(body) > maxBytes) {
    shrunk.breadcrumbs.values.splice(0, Math.max(1, Math.ceil(shrunk.breadcrumbs.values.length / 4)));
    body = JSON.stringify(shrunk);
  }
  for (const max of [16_384, 2_048, 512]) {
    if (byteLength(body) <= maxBytes) return body;
    shrunk.extra = truncateStrings(shrunk.extra, max) as Record<string, unknown>;
    if (shrunk.message) shrunk.message.formatted = truncate(shrunk.message.formatted, max);
    for (const exception of shrunk.exception?.values ?? []) {
      exception.value = truncate(exception.value, max);
      if (exception.stacktrace && exception.stacktrace.frames.length > 20) {
        const frames = exception.stacktrace.frames;
        exception.stacktrace.frames = [...frames.slice(0, 10), ...frames.slice(-10)];
      }
    }
    if (shrunk.request?.url) shrunk.request.url = truncate(shrunk.request.url, max);
    body = JSON.stringify(shrunk);
  }
  if (byteLength(body) <= maxBytes) return body;
  shrunk.extra = { truncated: true };
  body = JSON.stringify(shrunk);
  if (byteLength(body) <= maxBytes) return body;
  const minimal: ErrorReport = {
    event_id: report.event_id,
    timestamp: report.timestamp,
    platform: report.platform,
    level: report.level,
    logger: report.logger,
    environment: report.environment,
    ...(report.release ? { release: report.release } : {}),
    ...(report.message ? { message: { formatted: truncate(report.message.formatted, 200) } } : {}),
    ...(report.exception ? { exception: { values: report.exception.values.map((e) => ({ type: truncate(e.type, 100), value: truncate(e.value, 200) })) } } : {}),
    tags: {},
    extra: { truncated: true },
    breadcrumbs: { values: [] },
  };
  return JSON.stringify(minimal);
}

export function createReporter(options: ReporterOptions): Reporter {
  const now = options.now ?? Date.now;
  const perMinute = options.itemsPerMinute ?? ITEMS_PER_MINUTE;
  const maxTelemetry = options.maxTelemetryEvents ?? MAX_TELEMETRY_EVENTS;
  const maxBytes = options.maxPayloadBytes ?? MAX_PAYLOAD_BYTES;
  const sentAt: number[] = [];
  const telemetry: TelemetryEvent[] = [];
  const stats = { sent: 0, dropped: 0, telemetry: 0 };

  const allowed = () => {
    const t = now();
    while (sentAt.length > 0 && sentAt[0]! <= t - 60_000) sentAt.shift();
    if (sentAt.length >= perMinute) return false;
    sentAt.push(t);
    return true;
  };

  const build = (parts: { type: string; value: string; stack?: string } | null, message: string | undefined, capture: CaptureOptions): ErrorReport => {
    const context = (value: string) => truncate(scrubString(value), MAX_CONTEXT_LENGTH);
    const report: ErrorReport = {
      event_id: randomHex(16),
      timestamp: new Date(now()).toISOString(),
      platform: options.platform,
      level: capture.level ?? 'error',
      logger: options.logger,
      environment: truncate(options.environment, MAX_CONTEXT_LENGTH),
      ...(options.release ? { release: truncate(options.release, MAX_CONTEXT_LENGTH) } : {}),
      ...(capture.context ? { transaction: context(capture.context) } : {}),
      ...(message ? { message: { formatted: scrubString(message) } } : {}),
      ...(parts
        ? {
            exception: {
              values: [
                {
                  type: truncate(scrubString(parts.type), MAX_CONTEXT_LENGTH),
                  value: scrubString(parts.value),
                  ...(parts.stack ? { stacktrace: { frames: scrub(parseStack(parts.stack)) as StackFrame[] } } : {}),
                },
              ],
            },
          }
        : {}),
      ...(capture.request ? { request: scrub(capture.request) as ErrorReport['request'] } : {}),
      tags: Object.fromEntries(Object.entries(scrub(capture.tags ?? {}) as Record<string, unknown>).map(([k, v]) => [truncate(k, 32), context(String(v))])),
      extra: truncateStrings(scrub(capture.extra ?? {}), MAX_CONTEXT_LENGTH) as Record<string, unknown>,
      breadcrumbs: { values: truncateStrings(scrub(telemetry), MAX_CONTEXT_LENGTH) as TelemetryEvent[] },
    };
    return report;
  };

  const send = (report: ErrorReport): CaptureOutcome => {
    if (!allowed()) {
      stats.dropped += 1;
      return 'rate-limited';
    }
    stats.sent += 1;
    const body = fitReport(report, maxBytes);
    try {
      const pending = options.transport(body, JSON.parse(body) as ErrorReport);
      if (pending && typeof pending.catch === 'function') pending.catch(() => undefined);
    } catch {
      // a reporter never throws
    }
    return 'sent';
  };

  return {
    captureException(error, capture = {}) {
      const parts = errorParts(error);
      const message = capture.message ? `${capture.message} ${parts.value}` : undefined;
      return send(build(parts, message, capture));
    },
    captureMessage(message, capture = {}) {
      return send(build(null, message, { level: 'info', ...capture }));
    },
    addTelemetry(event) {
      telemetry.push({ ...event, timestamp: event.timestamp ?? now() / 1000 });
      if (telemetry.length > maxTelemetry) telemetry.splice(0, telemetry.length - maxTelemetry);
      stats.telemetry = telemetry.length;
    },
    get stats() {
      return { ...stats };
    },
  };
}

;
