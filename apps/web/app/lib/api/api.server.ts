/**
 * The web server's GraphQL client (spec §7.2): POST to the API with the correlation,
 * session and source-page headers, a Bearer token when the visitor has one, and a
 * 30-second time-out. Failures come back as data the pages can translate: generic,
 * connection, time-out, rate-limited, or busy (the API shed the operation under load, ADR 052).
 */
import type { RouterContextProvider } from 'react-router';
import { AUTH_COOKIE } from '../auth-cookie.server.ts';
import { readCookie } from '../i18n/i18n.ts';
import { pageLoadContext, requestInfoContext, strayPathContext, type PageLoadInfo } from '../page/context.ts';
import type { Operation } from './operations.ts';
import { correlationId } from '../page/page-load.ts';
import { pageLoadOf } from '../page/page-load.server.ts';

/** A compact JWS: base64url parts joined by dots, within a header's reasonable size. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){2}$/;

const GRAPHQL_TIMEOUT_MS = 30_000;

export type ApiFailure =
  | { kind: 'generic' }
  | { kind: 'connection' }
  | { kind: 'timeout' }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  /** The API was too busy to run the operation (OVERLOADED): nothing of it happened, send it again in a moment. */
  | { kind: 'busy'; retryAfterSeconds: number }
  /** An admin whose role may not do this (FORBIDDEN). */
  | { kind: 'forbidden' };

export type ApiResult<TData> = { ok: true; data: TData } | { ok: false; error: ApiFailure };

interface GraphQLResponse<TData> {
  data?: TData | null;
  errors?: { message: string; extensions?: { code?: string; retryAfterSeconds?: number } }[];
}

export interface ApiCallOptions {
  request: Request;
  context: Readonly<RouterContextProvider>;
  timeoutMs?: number;
  /** A Bearer token to send instead of the visitor's own (admin calls). */
  token?: string | undefined;
  /**
   * The answer is the same for every visitor (an invitation's public details, ADR 053): a
   * success leaves the page shareable by a cache. A failure (a limit, an outage) is this
   * visitor's: the page is private.
   */
  shared?: boolean;
}

/** The request's page load (set by the root middleware for every page request). */
function pageLoad(request: Request, context: Readonly<RouterContextProvider>): PageLoadInfo {
  try {
    return context.get(pageLoadContext);
  } catch {
    return pageLoadOf(request);
  }
}

export async function callApi<TData, TVariables>(
  op: Operation<TData, TVariables>,
  variables: TVariables,
  { request, context, timeoutMs = GRAPHQL_TIMEOUT_MS, token: explicitToken, shared = false }: ApiCallOptions,
): Promise<ApiResult<TData>> {
  // A path that is no page (ADR 059) does nothing in the visitor's name: its answer is a 404.
  if (context.get(strayPathContext)) throw new Response(null, { status: 404, statusText: 'Page Not Found' });
  const info = context.get(requestInfoContext);
  const page = pageLoad(request, context);
  if (!shared) page.calledApi = 'personal';
  else page.calledApi ??= 'shared';
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/graphql-response+json, application/json',
    'x-correlation-id': correlationId(),
    'x-session-id': page.sessionId,
    'x-source-page': page.sourcePage,
  });
  const forwarded = ['accept-language', 'user-agent', info.trustedCountryHeader].filter(
    (name): name is string => Boolean(name),
  );
  for (const name of forwarded) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (info.clientIp) headers.set('x-forwarded-for', info.clientIp);
  const token = explicitToken ?? readCookie(request.headers.get('cookie'), AUTH_COOKIE);
  // Only a token that could be one (a JWT's characters): a hostile cookie is not sent on, and
  // never breaks the page (a header takes no characters beyond Latin-1).
  if (token && token.length <= 4096 && TOKEN_SHAPE.test(token)) headers.set('authorization', `Bearer ${token}`);

  /** The application-level hook for GraphQL and network errors (spec §8): every failure passes here. */
  const failed = (error: ApiFailure, status?: number, codes?: string[]): ApiResult<TData> => {
    page.calledApi = 'personal';
    try {
      info.errors.apiFailure({ operation: op.name, kind: error.kind, status, codes, variables, page: page.sourcePage });
    } catch {
      // reporting never breaks a page
    }
    return { ok: false, error };
  };

  let response: Response;
  try {
    response = await fetch(`${info.apiUrl}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ operationName: op.name, query: op.document, variables }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return failed({ kind: 'timeout' });
    return failed({ kind: 'connection' });
  }
  let body: GraphQLResponse<TData>;
  try {
    body = (await response.json()) as GraphQLResponse<TData>;
  } catch {
    return failed({ kind: 'generic' }, response.status);
  }
  const codes = body.errors?.map((e) => e.extensions?.code ?? 'UNKNOWN');
  const limited = body.errors?.find((e) => e.extensions?.code === 'RATE_LIMITED');
  if (limited || response.status === 429) {
    return failed({ kind: 'rate-limited', retryAfterSeconds: Math.max(1, limited?.extensions?.retryAfterSeconds ?? 60) }, response.status, codes);
  }
  const busy = body.errors?.find((e) => e.extensions?.code === 'OVERLOADED');
  if (busy) return failed({ kind: 'busy', retryAfterSeconds: Math.max(1, busy.extensions?.retryAfterSeconds ?? 1) }, response.status, codes);
  if (codes?.includes('FORBIDDEN')) return failed({ kind: 'forbidden' }, response.status, codes);
  if (!response.ok || body.errors?.length || !body.data) return failed({ kind: 'generic' }, response.status, codes);
  return { ok: true, data: body.data };
}
