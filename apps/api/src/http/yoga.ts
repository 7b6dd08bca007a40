/** The GraphQL Yoga app: the schema, the context of every operation, and the plugins in order. */
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { createYoga } from 'graphql-yoga';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Reporter } from '@velvet/error-reporting/reporter';
import { GRAPHQL_PATH, apiSettings } from '../config.ts';
import type { ApiSettings, Env } from '../config.ts';
import type { ApiContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import { useDevRequestLog } from '../dev-request-log.ts';
import type { RequestLog } from '../dev-request-log.ts';
import { createApiErrorReporter } from '../error-reporter.ts';
import type { FeaturesEndpoint } from '../features/features-endpoint.ts';
import type { Logger } from '../logger.ts';
import { useDevMailbox } from '../mail/dev-mailbox.ts';
import { createOutboxSignal } from '../mail/outbox-signal.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import type { RateLimiters } from '../rate-limit.ts';
import { schema } from '../schema/schema.ts';
import { bearerToken, verifyAdminToken } from '../auth/admin-sessions.ts';
import type { AdminSessionInfo } from '../auth/admin-sessions.ts';
import { identifyMember } from '../auth/member-identity.ts';
import type { MemberIdentity } from '../auth/member-identity.ts';
import { clientNetwork, signalNetwork } from '@velvet/validation/client-network';
import { createCodeWatch } from '../domain/code-quarantine.ts';
import { signalCountry } from '../domain/code-signals.ts';
import { createRegistrationEvents } from '../domain/registration-events.ts';
import { createMailDomainChecker } from '../domain/mail-domains.ts';
import { createSignUpGate } from '../domain/sign-up-gate.ts';
import { createSignUpRate } from '../domain/sign-up-rate.ts';
import type { RegistrationEvents } from '../domain/registration-events.ts';
import { createAdmission, useAdmission } from './admission.ts';
import { maskUnavailable, useUnexpectedErrorLog, yogaLogger } from './errors.ts';
import { useHealth } from './health.ts';
import type { Readiness } from './health.ts';
import { useBodyLimit, useMalformedParams, useNulGuard } from './input-guards.ts';
import {
  CORRELATION_HEADER,
  CSRF_HEADER,
  SESSION_HEADER,
  SOURCE_PAGE_HEADER,
  clientIp,
  describeRequest,
  useOperationRecording,
  useRequestMeta,
} from './request-meta.ts';
import type { RequestMeta, ServerContext } from './request-meta.ts';

export type ApiYoga = YogaServerInstance<ServerContext, ApiContext>;

/** GraphQL Armor limits (OWASP ASVS 4.3.x); our real operations stay far below each. */
const ARMOR_LIMITS = { maxDepth: 8, maxAliases: 10, maxCost: 5000, maxTokens: 1000, maxDirectives: 10 };

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
  /** /health/ready answers 503 once this drains (ADR 062); absent: always ready. */
  readiness?: Readiness;
}): Promise<ApiYoga> {
  const { env, db, logger, limiters } = options;
  const events = options.events ?? createRegistrationEvents();
  const outboxSignal = options.outboxSignal ?? createOutboxSignal();
  const settings = options.settings ?? apiSettings(env);
  const clock = options.clock ?? (() => new Date());
  const signUpRate = createSignUpRate(db);
  const mailDomains = env.EMAIL_DOMAIN_CHECK
    ? createMailDomainChecker({
        servers: (env.EMAIL_DNS_SERVERS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
        timeoutMs: env.EMAIL_DNS_TIMEOUT_MS,
      })
    : null;
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
    // useBodyLimit below keeps bodies to 64 KiB, announced or streamed; Yoga's own limit (25 MB)
    // would pipe every body through one more stream for nothing (ADR 035).
    maxRequestBodySize: false,
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
      const requestIp = clientIp({ req }, request.headers, env.TRUST_PROXY);
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
        requestIp,
        requestNetwork: clientNetwork(requestIp),
        signUpGate: createSignUpGate({
          secret: env.APP_SECRET,
          limiters,
          proofOfWork: env.PROOF_OF_WORK,
          network: clientNetwork(requestIp),
          now,
          logger: meta.logger,
        }),
        signUpRate,
        mailDomains,
        codeWatch: createCodeWatch({
          db,
          threshold: env.CODE_QUARANTINE_SCORE,
          source: { network: signalNetwork(requestIp), country: signalCountry(request.headers, env.TRUSTED_COUNTRY_HEADER) },
          now,
          outboxSignal,
          logger: meta.logger,
        }),
      };
    },
    plugins: [
      useRequestMeta(metaByRequest, logger),
      useHealth(db, logger, options.readiness),
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
      // One turn per operation (ADR 052).
      useAdmission(
        createAdmission({ concurrency: env.DATABASE_POOL_SIZE, queueLimit: env.DATABASE_QUEUE_LIMIT, queueWaitMs: env.DATABASE_QUEUE_WAIT_MS }),
        logger,
      ),
      useUnexpectedErrorLog(logger, 'errorReporter' in options ? options.errorReporter : createApiErrorReporter(env, logger)),
    ],
  });
}
