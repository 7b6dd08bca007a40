import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import { Kind } from 'graphql';
import type { DocumentNode, ExecutionArgs, OperationDefinitionNode } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { GRAPHQL_PATH } from '../config.ts';
import type { Env } from '../config.ts';
import type { RequestLog } from '../dev-request-log.ts';
import type { Logger } from '../logger.ts';
import { bearerToken } from '../auth/admin-sessions.ts';
import { maskUnavailable } from './errors.ts';
import { refusedUpgrade } from './site-headers.ts';
import { CORRELATION_HEADER, SESSION_HEADER, SOURCE_PAGE_HEADER, headerId, sourcePageFrom } from './request-meta.ts';
import type { ApiYoga } from './yoga.ts';

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
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
export function attachWebSockets(server: Server, yoga: ApiYoga, env: Env, logger: Logger, maxPayload: number, requestLog?: RequestLog) {
  const wss = new WebSocketServer({ noServer: true, maxPayload });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    if (refusedUpgrade(req, socket)) return;
    const pathname = (req.url ?? '/').split('?')[0];
    const origin = req.headers.origin;
    const status =
      pathname !== GRAPHQL_PATH ? '404 Not Found' : origin && !env.corsOrigins.includes(origin) ? '403 Forbidden' : null;
    if (status) {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      wss.emit('connection', ws, req);
      // A frame that breaks the protocol is the client's (ws closes the socket with 1002 itself);
      // graphql-ws would print it to stderr with a stack as an "internal error". One log line instead.
      ws.removeAllListeners('error');
      ws.on('error', (error: Error & { code?: string }) => {
        logger.warn({ code: error.code ?? 'unknown' }, 'websocket closed: the client broke the protocol');
        if (ws.readyState === ws.OPEN) ws.close(1011);
      });
    });
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
