/**
 * What the API does with errors: unexpected ones logged once and reported, a database outage
 * answered as SERVICE_UNAVAILABLE, an overload as OVERLOADED (ADR 052), Yoga's own log lines sent
 * to pino.
 */
import { GraphQLError } from 'graphql';
import { maskError, useErrorHandler } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import type { Reporter } from '@velvet/error-reporting/reporter';
import type { ApiContext } from '../context.ts';
import { isDatabaseUnavailable } from '../db/connect.ts';
import type { Logger } from '../logger.ts';

/** The innermost `originalError` of a (possibly repeatedly wrapped) GraphQL error. */
function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 10; depth++) {
    if (typeof current !== 'object' || current === null || !('originalError' in current) || !current.originalError) break;
    current = current.originalError;
  }
  return current;
}

/** How long a shed client waits before it sends again. */
const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/**
 * What a shed operation is answered (ADR 052): the API is busy, the database is fine. The client
 * sends it again after `retryAfterSeconds`; nothing of the operation ran. The web app shows
 * "busy, try again in a moment" in the visitor's language (error.busy).
 */
export function overloadedError(): GraphQLError {
  return new GraphQLError('The service is busy. Please try again in a moment.', {
    extensions: { code: 'OVERLOADED', retryAfterSeconds: OVERLOADED_RETRY_AFTER_SECONDS },
  });
}

/**
 * Unexpected errors (masked for the client) are logged once, with the request's
 * correlation id. Expected ones (GraphQLError with extensions, e.g. RATE_LIMITED) are not.
 * Checked by name: graphql may be loaded twice (ESM and CJS), so instanceof is unreliable.
 */
export function useUnexpectedErrorLog(logger: Logger, reporter?: Reporter): Plugin<ApiContext> {
  return useErrorHandler(({ errors, context, phase }) => {
    const candidate: unknown = 'contextValue' in context ? context.contextValue : context;
    const requestLogger =
      typeof candidate === 'object' && candidate !== null && 'logger' in candidate && isLogger(candidate.logger)
        ? candidate.logger
        : logger;
    for (const error of errors) {
      const cause = rootCause(error);
      if (isDatabaseUnavailable(cause)) {
        // An outage, not a bug: one warning per request, no error report (the client got SERVICE_UNAVAILABLE).
        requestLogger.warn({ err: cause, phase }, 'database unavailable while handling a GraphQL operation');
        continue;
      }
      if (cause instanceof Error && cause.name !== 'GraphQLError') {
        requestLogger.error({ err: cause, phase }, 'unexpected error while handling a GraphQL operation');
        const meta = candidate as { correlationId?: unknown; sourcePage?: unknown } | null;
        reporter?.captureException(cause, {
          context: typeof meta?.sourcePage === 'string' ? meta.sourcePage : 'graphql',
          tags: { phase, ...(typeof meta?.correlationId === 'string' ? { correlationId: meta.correlationId } : {}) },
        });
      }
    }
  }) as Plugin<ApiContext>;
}

const SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE';

/**
 * Yoga's masking, except that a database outage (a dropped or refused connection) becomes
 * a stable SERVICE_UNAVAILABLE error the client can show as "try again" (docs/decisions/027).
 */
export const maskUnavailable: typeof maskError = (error, message, isDev) => {
  if (isDatabaseUnavailable(rootCause(error))) {
    const path = typeof error === 'object' && error !== null && 'path' in error && Array.isArray(error.path) ? (error.path as (string | number)[]) : undefined;
    return new GraphQLError('The service is temporarily unavailable. Please try again in a moment.', {
      ...(path ? { path } : {}),
      extensions: { code: SERVICE_UNAVAILABLE },
    });
  }
  return maskError(error, message, isDev);
};

function isLogger(value: unknown): value is Logger {
  return typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'function';
}

/**
 * Yoga's own log lines go to pino. Yoga also logs every masked error; those are logged
 * (with the correlation id) by useUnexpectedErrorLog, so Yoga's copy is kept at debug.
 */
export function yogaLogger(logger: Logger) {
  const log =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      if (first instanceof Error) logger.debug({ err: first, source: 'yoga' }, first.message);
      else logger[level]({ source: 'yoga', detail: rest.length > 0 ? rest : undefined }, String(first));
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
