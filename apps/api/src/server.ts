/**
 * The API server: GraphQL Yoga over HTTP at /graphql, graphql-ws (graphql-transport-ws)
 * on the same path for subscriptions, and GET /health (readiness, pings the database).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import { isIP } from 'node:net';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { GraphQLError, Kind, visit } from 'graphql';
import { containsNul } from '@velvet/validation/text';
import type { DocumentNode, ExecutionArgs, OperationDefinitionNode } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createGraphQLError, createYoga, maskError, useErrorHandler } from 'graphql-yoga';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { GRAPHQL_PATH, HEALTH_PATH, apiSettings } from './config.ts';
import type { ApiSettings, Env } from './config.ts';
import type { ApiContext } from './context.ts';
import type { Db } from './db/connect.ts';
import { isDatabaseUnavailable, pingDatabase } from './db/connect.ts';
import type { Logger } from './logger.ts';
import { useDevMailbox } from './mail/dev-mailbox.ts';
import { createOutboxSignal } from './mail/outbox-signal.ts';
import type { OutboxSignal } from './mail/outbox-signal.ts';
import { createRateLimiters } from './rate-limit.ts';
import type { RateLimiters } from './rate-limit.ts';
import { schema } from './schema/schema.ts';
import { bearerToken, verifyAdminToken } from './services/admin-sessions.ts';
import type { AdminSessionInfo } from './services/admin-sessions.ts';
import { identifyMember } from './services/member-identity.ts';
import type { MemberIdentity } from './services/member-identity.ts';
import { createRegistrationEvents } from './services/registration-events.ts';
import type { RegistrationEvents } from './services/registration-events.ts';
import { loadFeatureFile } from '@velvet/features/file';
import { createFeatureHub } from './features/feature-hub.ts';
import type { FeatureHub } from './features/feature-hub.ts';
import { createFeaturesEndpoint } from './features/features-endpoint.ts';
import type { Reporter } from '@velvet/error-reporting/reporter';
import { createApiErrorReporter } from './error-reporter.ts';
import type { FeaturesEndpoint } from './features/features-endpoint.ts';
import { createRequestLog, useDevRequestLog } from './dev-request-log.ts';
import type { RequestLog } from './dev-request-log.ts';

/**
 * What the transport hands to Yoga besides the request: the Node request when served by
 * node:http (structurally, only what we read of it). `yoga.fetch` in tests may pass one.
 */
export interface ServerContext {
  req?: { socket?: { remoteAddress?: string | undefined } | undefined } | undefined;
}

export type ApiYoga = YogaServerInstance<ServerContext, ApiContext>;

export interface CreateApiServerOptions {
  env: Env;
  db: Db;
  logger: Logger;
  /** Defaults to createRateLimiters(env); the server closes limiters it created itself. */
  limiters?: RateLimiters;
  /** Defaults to createRegistrationEvents (Redis with REDIS_URL); closed by the server when it created them. */
  events?: RegistrationEvents;
  /** The signal the process's outbox worker listens to. */
  outboxSignal?: OutboxSignal;
  /** Defaults to a hub over the versioned features file and the database (Redis with REDIS_URL); closed by the server when it created it. */
  features?: FeatureHub;
}

export interface ApiServer {
  /** The node:http server (not listening yet). */
  server: Server;
  /** The Yoga instance; `yoga.fetch(url, init, serverContext)` serves a request without a port. */
  yoga: ApiYoga;
  limiters: RateLimiters;
  events: RegistrationEvents;
  features: FeatureHub;
  /** Stops accepting connections, ends WebSocket clients and closes what the server created. */
  close(): Promise<void>;
}

const CORRELATION_HEADER = 'x-correlation-id';
const SESSION_HEADER = 'x-session-id';
const SOURCE_PAGE_HEADER = 'x-source-page';
const CSRF_HEADER = 'x-graphql-yoga-csrf';

/** GraphQL Armor limits (OWASP ASVS 4.3.x); our real operations stay far below each. */
const ARMOR_LIMITS = { maxDepth: 8, maxAliases: 10, maxCost: 5000, maxTokens: 1000, maxDirectives: 10 };

interface RequestMeta {
  correlationId: string;
  sessionId: string | null;
  sourcePage: string | null;
  logger: Logger;
  startedAt: number;
}

const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

function headerId(value: string | null): string | null {
  return value !== null && ID_PATTERN.test(value) ? value : null;
}

function sourcePageFrom(value: string | null): string | null {
  return value !== null && /^\/[\x21-\x7e]{0,511}$/.test(value) ? value : null;
}

function describeRequest(headers: Headers, logger: Logger): RequestMeta {
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

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function json(fetchAPI: { Response: typeof Response }, status: number, body: unknown, headers: HeadersInit = {}) {
  return new fetchAPI.Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** Correlation id in and out, request logging, security headers. */
function useRequestMeta(metaByRequest: WeakMap<Request, RequestMeta>, logger: Logger): Plugin<ApiContext> {
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
function useOperationRecording(metaByRequest: WeakMap<Request, RequestMeta>, log: RequestLog): Plugin<ApiContext> {
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

/**
 * GET /health: 200 {status:'ok'} once the database answers, 503
 * {status:'unavailable', database:'unavailable'} while it does not (docs/decisions/027).
 */
function useHealth(db: Db, logger: Logger): Plugin<ApiContext> {
  return {
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== HEALTH_PATH) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(json(fetchAPI, 405, { status: 'method not allowed' }, { allow: 'GET, HEAD' }));
        return;
      }
      return pingDatabase(db).then(
        () => endResponse(json(fetchAPI, 200, { status: 'ok' }, { 'cache-control': 'no-store' })),
        (error: unknown) => {
          logger.warn({ err: error }, 'health check failed: database unreachable');
          endResponse(json(fetchAPI, 503, { status: 'unavailable', database: 'unavailable' }, { 'cache-control': 'no-store' }));
        },
      );
    },
  };
}

async function readAtMost(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Bodies over `maxBytes` get 413, by Content-Length up front or while reading a chunked body. */
function useBodyLimit(maxBytes: number): Plugin<ApiContext> {
  const tooLarge = (fetchAPI: { Response: typeof Response }) =>
    json(fetchAPI, 413, { errors: [{ message: `Request body is larger than ${maxBytes} bytes.` }] });
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      const length = Number(request.headers.get('content-length') ?? 0);
      if (length > maxBytes) endResponse(tooLarge(fetchAPI));
    },
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      if (!request.body || !requestParser) return;
      setRequestParser(async (original) => {
        const body = await readAtMost(original, maxBytes);
        if (body === null) return tooLarge(fetchAPI);
        return requestParser(
          new fetchAPI.Request(original.url, { method: original.method, headers: original.headers, body }),
        );
      });
    },
  };
}

export const NUL_INPUT_MESSAGE = 'Text must not contain NUL (U+0000) characters.';

/** True when a variable or a string literal of the operation contains U+0000. */
function hasNulInput(args: ExecutionArgs): boolean {
  if (containsNul(args.variableValues)) return true;
  let found = false;
  visit(args.document, {
    StringValue(node) {
      if (node.value.includes('\u0000')) found = true;
    },
  });
  return found;
}

/**
 * U+0000 anywhere in an operation's input is BAD_USER_INPUT before any resolver runs, on
 * both engines (PostgreSQL cannot store it; docs/decisions/027). Over HTTP and WebSocket.
 */
function useNulGuard(): Plugin<ApiContext> {
  const refused = () => ({ errors: [new GraphQLError(NUL_INPUT_MESSAGE, { extensions: { code: 'BAD_USER_INPUT' } })] });
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (hasNulInput(args)) setResultAndStopExecution(refused());
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      if (hasNulInput(args)) setResultAndStopExecution(refused());
    },
  };
}

/**
 * `variables` or `extensions` that are not JSON (a GET's query string, a form-encoded body) are
 * the client's mistake: 400 with a message. Yoga's parsers let JSON.parse's SyntaxError
 * through, which became a masked 500.
 */
function useMalformedParams(): Plugin<ApiContext> {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (error) {
          if (error instanceof SyntaxError) {
            throw createGraphQLError('Variables and extensions must be JSON.', { extensions: { http: { status: 400 } } });
          }
          throw error;
        }
      });
    },
  };
}

/** The innermost `originalError` of a (possibly repeatedly wrapped) GraphQL error. */
function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 10; depth++) {
    if (typeof current !== 'object' || current === null || !('originalError' in current) || !current.originalError) break;
    current = current.originalError;
  }
  return current;
}

/**
 * Unexpected errors (masked for the client) are logged once, with the request's
 * correlation id. Expected ones (GraphQLError with extensions, e.g. RATE_LIMITED) are not.
 * Checked by name: graphql may be loaded twice (ESM and CJS), so instanceof is unreliable.
 */
function useUnexpectedErrorLog(logger: Logger, reporter?: Reporter): Plugin<ApiContext> {
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
const maskUnavailable: typeof maskError = (error, message, isDev) => {
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
function yogaLogger(logger: Logger) {
  const log =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      if (first instanceof Error) logger.debug({ err: first, source: 'yoga' }, first.message);
      else logger[level]({ source: 'yoga', detail: rest.length > 0 ? rest : undefined }, String(first));
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export async function createYogaApp(options: {
  env: Env;
  db: Db;
  logger: Logger;
  limiters: RateLimiters;
  /** Defaults to in-process events (enough for one instance). */
  events?: RegistrationEvents;
  /** Defaults to a signal nobody listens to (no worker in this process). */
  outboxSignal?: OutboxSignal;
  settings?: ApiSettings;
  /** GrowthBook's features endpoint and stream (/api/features/:key, /sub/:key); absent: not served. */
  features?: FeaturesEndpoint;
  /** Defaults to one posting to ERROR_REPORTING_URL (none when unset). */
  errorReporter?: Reporter;
  /** The clock of every operation's `now` (ADR 021); the real one unless a test fixes it. */
  clock?: () => Date;
  /** The dev request log (GET /dev/requests; local instances only, ADR 026); absent: not kept. */
  requestLog?: RequestLog;
}): Promise<ApiYoga> {
  const { env, db, logger, limiters } = options;
  const events = options.events ?? createRegistrationEvents();
  const outboxSignal = options.outboxSignal ?? createOutboxSignal();
  const settings = options.settings ?? apiSettings(env);
  const clock = options.clock ?? (() => new Date());
  const metaByRequest = new WeakMap<Request, RequestMeta>();
  const renderGraphiQL = settings.graphiql
    ? (await import('@graphql-yoga/render-graphiql')).renderGraphiQL
    : undefined;

  return createYoga<ServerContext, ApiContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    healthCheckEndpoint: '/live',
    landingPage: false,
    graphiql: settings.graphiql ? { title: 'Velvet Rope API', headers: JSON.stringify({ [CSRF_HEADER]: '1' }) } : false,
    ...(renderGraphiQL ? { renderGraphiQL } : {}),
    maskedErrors: { isDev: env.NODE_ENV === 'development', maskError: maskUnavailable },
    logging: yogaLogger(logger),
    batching: false,
    cors: {
      origin: env.corsOrigins,
      credentials: true,
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: [
        'content-type',
        'authorization',
        CORRELATION_HEADER,
        SESSION_HEADER,
        SOURCE_PAGE_HEADER,
        CSRF_HEADER,
      ],
      exposedHeaders: [CORRELATION_HEADER],
      maxAge: 600,
    },
    context: ({ request, req }) => {
      let meta = metaByRequest.get(request);
      if (!meta) {
        meta = describeRequest(request.headers, logger);
        metaByRequest.set(request, meta);
      }
      const now = clock();
      let session: Promise<AdminSessionInfo | null> | undefined;
      const adminSession = () => {
        session ??= (() => {
          const token = bearerToken(request.headers.get('authorization'));
          return token ? verifyAdminToken({ db, secret: env.APP_SECRET, now }, token) : Promise.resolve(null);
        })();
        return session;
      };
      let identity: Promise<MemberIdentity | null> | undefined;
      const member = () => {
        identity ??= (() => {
          const token = bearerToken(request.headers.get('authorization'));
          return token ? identifyMember({ db, secret: env.APP_SECRET }, token) : Promise.resolve(null);
        })();
        return identity;
      };
      return {
        db,
        env,
        settings,
        limiters,
        events,
        outboxSignal,
        adminSession,
        now,
        member,
        logger: meta.logger,
        correlationId: meta.correlationId,
        sessionId: meta.sessionId,
        sourcePage: meta.sourcePage,
        headers: request.headers,
        requestIp: clientIp({ req }, request.headers, env.TRUST_PROXY),
      };
    },
    plugins: [
      useRequestMeta(metaByRequest, logger),
      useHealth(db, logger),
      ...(options.features ? [options.features.plugin as Plugin<ApiContext>] : []),
      ...(settings.localAids ? [useDevMailbox(env.DATA_DIR) as Plugin<ApiContext>] : []),
      ...(options.requestLog && settings.localAids ? [useDevRequestLog(options.requestLog) as Plugin<ApiContext>, useOperationRecording(metaByRequest, options.requestLog)] : []),
      useBodyLimit(settings.maxBodyBytes),
      useMalformedParams(),
      useCSRFPrevention({ requestHeaders: [CSRF_HEADER] }),
      EnvelopArmorPlugin({
        maxDepth: { n: ARMOR_LIMITS.maxDepth },
        maxAliases: { n: ARMOR_LIMITS.maxAliases },
        costLimit: { maxCost: ARMOR_LIMITS.maxCost },
        maxTokens: { n: ARMOR_LIMITS.maxTokens },
        maxDirectives: { n: ARMOR_LIMITS.maxDirectives },
        blockFieldSuggestion: { enabled: true },
      }) as Plugin<ApiContext>,
      ...(settings.introspection ? [] : [useDisableIntrospection() as Plugin<ApiContext>]),
      useNulGuard(),
      useUnexpectedErrorLog(logger, 'errorReporter' in options ? options.errorReporter : createApiErrorReporter(env, logger)),
    ],
  });
}

interface EnvelopedRoot {
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
}

function isEnvelopedRoot(value: unknown): value is EnvelopedRoot {
  return typeof value === 'object' && value !== null && 'execute' in value && 'subscribe' in value;
}

/** The headers a graphql-ws client may send in connection_init's payload; others are ignored. */
const CONNECTION_INIT_HEADERS = new Set(['authorization', CORRELATION_HEADER, SESSION_HEADER, SOURCE_PAGE_HEADER]);

/** graphql-ws on the HTTP server's /graphql path, running operations through Yoga's plugins. */
function attachWebSockets(server: Server, yoga: ApiYoga, env: Env, logger: Logger, maxPayload: number, requestLog?: RequestLog) {
  const wss = new WebSocketServer({ noServer: true, maxPayload });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    const origin = req.headers.origin;
    const status =
      pathname !== GRAPHQL_PATH ? '404 Not Found' : origin && !env.corsOrigins.includes(origin) ? '403 Forbidden' : null;
    if (status) {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  // Whatever goes wrong in one operation is that operation's error message, never a closed
  // socket (graphql-ws closes with 4500 on a throw): the socket's other operations go on.
  const asResult = (error: unknown) => ({ errors: [maskUnavailable(error, 'Unexpected error.', env.NODE_ENV === 'development')] });
  const disposable = useServer(
    {
      execute: async (args: ExecutionArgs) => {
        try {
          return (await (isEnvelopedRoot(args.rootValue) ? args.rootValue.execute(args) : null)) as never;
        } catch (error) {
          return asResult(error) as never;
        }
      },
      subscribe: async (args: ExecutionArgs) => {
        try {
          return (await (isEnvelopedRoot(args.rootValue) ? args.rootValue.subscribe(args) : null)) as never;
        } catch (error) {
          return asResult(error) as never;
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        try {
          const headers = toHeaders(ctx.extra.request.headers);
          // A browser cannot set headers on a websocket: Bearer auth (spec §7.5) and the page's ids
          // (§7.2) come in connection_init's payload, { headers: { Authorization, X-Session-ID, … } }.
          const initHeaders = ctx.connectionParams?.headers;
          if (typeof initHeaders === 'object' && initHeaders !== null) {
            for (const [name, value] of Object.entries(initHeaders)) {
              const lower = name.toLowerCase();
              if (CONNECTION_INIT_HEADERS.has(lower) && typeof value === 'string') headers.set(lower, value);
            }
          }
          const request = new Request(`http://localhost${GRAPHQL_PATH}`, { headers });
          const enveloped = yoga.getEnveloped({
            request,
            req: ctx.extra.request,
            params: payload,
            waitUntil: () => undefined,
          } as Parameters<ApiYoga['getEnveloped']>[0]);
          const document = enveloped.parse(payload.query);
          if (requestLog) {
            const operation = (document as DocumentNode).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
            requestLog.record({
              transport: 'ws',
              operationName: payload.operationName ?? operation?.name?.value ?? null,
              correlationId: headerId(headers.get(CORRELATION_HEADER)) ?? '',
              sessionId: headerId(headers.get(SESSION_HEADER)),
              sourcePage: sourcePageFrom(headers.get(SOURCE_PAGE_HEADER)),
              bearer: bearerToken(headers.get('authorization')) !== null,
            });
          }
          const errors = enveloped.validate(enveloped.schema, document);
          if (errors.length > 0) return errors;
          const args: ExecutionArgs = {
            schema: enveloped.schema,
            document,
            operationName: payload.operationName ?? null,
            variableValues: payload.variables ?? null,
            contextValue: await enveloped.contextFactory(),
            rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe } satisfies EnvelopedRoot,
          };
          return args;
        } catch (error) {
          logger.error({ err: error, operationId: id }, 'unexpected error while preparing a WebSocket operation');
          return asResult(error).errors;
        }
      },
    },
    wss,
  );

  return {
    async close() {
      for (const client of wss.clients) client.close(1001, 'server shutting down');
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

export async function createApiServer(options: CreateApiServerOptions): Promise<ApiServer> {
  const { env, db, logger } = options;
  const settings = apiSettings(env);
  const ownLimiters = !options.limiters;
  const limiters = options.limiters ?? createRateLimiters(env);
  const ownEvents = !options.events;
  const events = options.events ?? createRegistrationEvents({ redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, logger });
  const ownFeatures = !options.features;
  const features = options.features ?? createFeatureHub({ db, file: loadFeatureFile(), redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, logger });
  const featuresEndpoint = createFeaturesEndpoint({ hub: features, clientKey: env.FEATURES_CLIENT_KEY, logger });
  const requestLog = settings.localAids ? createRequestLog() : undefined;
  const yoga = await createYogaApp({ env, db, logger, limiters, events, outboxSignal: options.outboxSignal, settings, features: featuresEndpoint, requestLog });
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000 }, yoga);
  const sockets = attachWebSockets(server, yoga, env, logger, settings.maxBodyBytes, requestLog);

  return {
    server,
    yoga,
    limiters,
    events,
    features,
    async close() {
      featuresEndpoint.closeStreams();
      await sockets.close();
      await new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      if (ownLimiters) await limiters.close();
      if (ownEvents) await events.close();
      if (ownFeatures) await features.close();
    },
  };
}
