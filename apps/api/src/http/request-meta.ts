/**
 * Who and what a request is: the correlation, session and source-page ids it carries (spec
 * §7.2), the client's address behind trusted proxies, the request log line and the security
 * headers of every response.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { Plugin } from 'graphql-yoga';
import type { ApiContext } from '../context.ts';
import type { RequestLog } from '../dev-request-log.ts';
import type { Logger } from '../logger.ts';
import { bearerToken } from '../auth/admin-sessions.ts';

/**
 * What the transport hands to Yoga besides the request: the Node request when served by
 * node:http (structurally, only what we read of it). `yoga.fetch` in tests may pass one.
 */
export interface ServerContext {
  req?: { socket?: { remoteAddress?: string | undefined } | undefined } | undefined;
}

export const CORRELATION_HEADER = 'x-correlation-id';
export const SESSION_HEADER = 'x-session-id';
export const SOURCE_PAGE_HEADER = 'x-source-page';
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

export interface RequestMeta {
  correlationId: string;
  sessionId: string | null;
  sourcePage: string | null;
  logger: Logger;
  startedAt: number;
}

const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function headerId(value: string | null): string | null {
  return value !== null && ID_PATTERN.test(value) ? value : null;
}

export function sourcePageFrom(value: string | null): string | null {
  return value !== null && /^\/[\x21-\x7e]{0,511}$/.test(value) ? value : null;
}

export function describeRequest(headers: Headers, logger: Logger): RequestMeta {
  const correlationId = headerId(headers.get(CORRELATION_HEADER)) ?? `api-${randomUUID()}`;
  const sessionId = headerId(headers.get(SESSION_HEADER));
  const sourcePage = sourcePageFrom(headers.get(SOURCE_PAGE_HEADER));
  return {
    correlationId,
    sessionId,
    sourcePage,
    logger: logger.child({ correlationId, sessionId, sourcePage }),
    startedAt: performance.now(),
  };
}

/**
 * The client address (ADR 003, 028): the right-most address no trusted proxy wrote. The socket's
 * peer is hop 0; with `trustProxy` hops in front (`true` = 1), X-Forwarded-For is read from the
 * right, skipping the entries the trusted proxies appended after the first. Anything the client
 * put on the left of the header is never the answer while the proxies append. An entry that is
 * not an address (a misconfigured proxy) falls back to the socket's.
 */
export function clientIp(serverContext: ServerContext, headers: Headers, trustProxy: number | boolean): string {
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : trustProxy;
  const socketAddress = serverContext.req?.socket?.remoteAddress;
  if (hops > 0) {
    const forwarded = (headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    // Hop n's address is the n-th entry from the right; fewer entries than hops: the left-most there is.
    const entry = forwarded.at(-Math.min(hops, forwarded.length));
    if (entry && isIP(entry)) return normalizeIp(entry);
  }
  return socketAddress ? normalizeIp(socketAddress) : 'unknown';
}

function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** Correlation id in and out, request logging, security headers. */
export function useRequestMeta(metaByRequest: WeakMap<Request, RequestMeta>, logger: Logger): Plugin<ApiContext> {
  return {
    onRequest({ request }) {
      metaByRequest.set(request, describeRequest(request.headers, logger));
    },
    onResponse({ request, response }) {
      const meta = metaByRequest.get(request);
      if (!meta) return;
      response.headers.set(CORRELATION_HEADER, meta.correlationId);
      response.headers.set('x-content-type-options', 'nosniff');
      response.headers.set('x-frame-options', 'DENY');
      response.headers.set('referrer-policy', 'no-referrer');
      const path = URL.parse(request.url)?.pathname ?? '';
      meta.logger.info(
        { method: request.method, path, status: response.status, durationMs: Math.round(performance.now() - meta.startedAt) },
        'request',
      );
    },
  };
}

/** Every HTTP GraphQL operation's identifiers into the dev request log. */
export function useOperationRecording(metaByRequest: WeakMap<Request, RequestMeta>, log: RequestLog): Plugin<ApiContext> {
  return {
    onParams({ params, request }) {
      const meta = metaByRequest.get(request);
      if (!meta) return;
      log.record({
        transport: 'http',
        operationName: params.operationName ?? null,
        correlationId: meta.correlationId,
        sessionId: meta.sessionId,
        sourcePage: meta.sourcePage,
        bearer: bearerToken(request.headers.get('authorization')) !== null,
      });
    },
  };
}
