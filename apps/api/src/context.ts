import type { ApiSettings, Env } from './config.ts';
import type { Db } from './db/connect.ts';
import type { Logger } from './logger.ts';
import type { OutboxSignal } from './mail/outbox-signal.ts';
import type { RateLimiters } from './rate-limit.ts';
import type { AdminSessionInfo } from './auth/admin-sessions.ts';
import type { MemberIdentity } from './auth/member-identity.ts';
import type { RegistrationEvents } from './domain/registration-events.ts';
import type { CodeWatch } from './domain/code-quarantine.ts';
import type { MailDomainChecker } from './domain/mail-domains.ts';
import type { SignUpGate } from './domain/sign-up-gate.ts';
import type { SignUpRate } from './domain/sign-up-rate.ts';

/** What every resolver gets: services through context, never imported globals. */
export interface ApiContext {
  db: Db;
  env: Env;
  settings: ApiSettings;
  /** A child logger carrying the request's correlation id. */
  logger: Logger;
  limiters: RateLimiters;
  /** Registration state changes (Redis pub/sub with REDIS_URL, in-process otherwise). */
  events: RegistrationEvents;
  /** Wakes this process's outbox worker after a transaction wrote an email. */
  outboxSignal: OutboxSignal;
  /** The admin session of the request's `Authorization: Bearer` token, checked once per request; null when none is live. */
  adminSession(): Promise<AdminSessionInfo | null>;
  /** The active customer the request's `Authorization: Bearer` member token identifies (ADR 022), checked once per request; null when none. */
  member(): Promise<MemberIdentity | null>;
  /** Client IP address (socket, or the right-most untrusted X-Forwarded-For entry with TRUST_PROXY, ADR 028); 'unknown' when none. */
  requestIp: string;
  /** The client for per-address limits: requestIp, or its /64 for IPv6 (@velvet/validation/client-network, issue 12 §2). */
  requestNetwork: string;
  correlationId: string;
  sessionId: string | null;
  sourcePage: string | null;
  /**
   * The request's instant, for every date rule of the operation (expiry of codes, links, tokens
   * and sessions; voucher validity; recorded times): the real clock, or the fixed one a test builds
   * the API with (ADR 021). Never taken from the request.
   */
  now: Date;
  /** The public sign-up forms' gate for this request: proof of work, mailbox limit (ADR 041). */
  signUpGate: SignUpGate;
  /** Recent sign-ups as the proof of work's difficulty level (one per process). */
  signUpRate: SignUpRate;
  /** Asks DNS whether an address's domain receives mail (one per process); null when EMAIL_DOMAIN_CHECK is off (ADR 042). */
  mailDomains: MailDomainChecker | null;
  /** Counts what this request sees against the codes it touches; quarantines a leaked one (ADR 043). */
  codeWatch: CodeWatch;
  /** Request headers (for WebSocket operations: those of the upgrade request). */
  headers: Headers;
}
