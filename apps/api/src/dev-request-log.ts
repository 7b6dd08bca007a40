/**
 * The dev request log: on a local instance (ADR 026) the API keeps the identifiers of its last GraphQL
 * operations in memory and lists them at GET /dev/requests (optionally `?sessionId=`), so a
 * developer — or an end-to-end test — can see which page load made which call, over HTTP or
 * graphql-ws (spec §7.2: X-Correlation-ID, X-Session-ID, X-Source-Page; docs/decisions/022).
 * Only ids, the operation's name, the page's path and whether a Bearer token came along:
 * never variables, addresses or tokens. Never served by a deployment.
 */
import type { Plugin } from 'graphql-yoga';

const DEV_REQUESTS_PATH = '/dev/requests';
const KEEP = 1000;

export interface LoggedOperation {
  /** ISO time the operation arrived. */
  at: string;
  transport: 'http' | 'ws';
  operationName: string | null;
  correlationId: string;
  sessionId: string | null;
  sourcePage: string | null;
  /** Whether an `Authorization: Bearer` header (or connection_init header) came with it. */
  bearer: boolean;
}

export interface RequestLog {
  record(entry: Omit<LoggedOperation, 'at'>): void;
  list(sessionId?: string): LoggedOperation[];
}

export function createRequestLog(keep: number = KEEP): RequestLog {
  // A ring of `keep` entries: recording never moves the others (a shift of 1,000 entries per
  // operation showed in the API's profile, ADR 035). `next` is where the next one goes.
  const ring: LoggedOperation[] = [];
  let next = 0;
  const inOrder = () => (ring.length < keep ? ring : [...ring.slice(next), ...ring.slice(0, next)]);
  return {
    record(entry) {
      ring[next] = { at: new Date().toISOString(), ...entry };
      next = (next + 1) % keep;
    },
    list(sessionId) {
      const entries = inOrder();
      return sessionId ? entries.filter((e) => e.sessionId === sessionId) : [...entries];
    },
  };
}

export function useDevRequestLog(log: RequestLog): Plugin {
  return {
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== DEV_REQUESTS_PATH) return;
      const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
      if (request.method !== 'GET') {
        endResponse(new fetchAPI.Response(JSON.stringify({ error: 'method not allowed' }), { status: 405, headers }));
        return;
      }
      const sessionId = url.searchParams.get('sessionId') ?? undefined;
      endResponse(new fetchAPI.Response(JSON.stringify({ operations: log.list(sessionId) }), { status: 200, headers }));
    },
  };
}
