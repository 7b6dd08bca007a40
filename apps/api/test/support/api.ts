/** A full API (Yoga with every plugin) over a test database, without a port. */
import { createLogger } from '../../src/logger.ts';
import type { Env } from '../../src/config.ts';
import type { Db } from '../../src/db/connect.ts';
import { createRateLimiters } from '../../src/rate-limit.ts';
import type { RateLimiterOptions, RateLimiters } from '../../src/rate-limit.ts';
import { createYogaApp } from '../../src/http/yoga.ts';
import type { ApiYoga } from '../../src/http/yoga.ts';
import type { DestinationStream } from 'pino';
import { onTestFinished } from 'vitest';
import type { OutboxSignal } from '../../src/mail/outbox-signal.ts';
import type { RegistrationEvents } from '../../src/domain/registration-events.ts';

/** Limits high enough that only the rate-limit tests ever reach them. */
const GENEROUS = { points: 100_000, duration: 60, burstPoints: 1, burstDuration: 60 };
export const GENEROUS_LIMITS: RateLimiterOptions['rules'] = {
  registrationCodeCheck: GENEROUS,
  register: GENEROUS,
  activateAccount: GENEROUS,
  publicForms: GENEROUS,
  consentRecords: GENEROUS,
  funnelEvents: GENEROUS,
  adminLoginIp: GENEROUS,
  adminLoginAccountIp: GENEROUS,
  adminSecondFactorIp: GENEROUS,
  adminLoginFailures: GENEROUS,
  proofOfWorkChallenges: GENEROUS,
  signUpMailbox: GENEROUS,
  registrationsPerCode: GENEROUS,
  noScriptSignUpsPerNetwork: GENEROUS,
  noScriptSignUps: GENEROUS,
};

/**
 * The API's clock in a test (ADR 021): real until a test fixes it, and real again when that
 * test finishes, so a date rule is asserted at an exact instant, never at "about now".
 */
interface TestClock {
  (): Date;
  /** Every operation from now on in this test runs at `instant`. */
  fix(instant: Date | string): Date;
}

function testClock(): TestClock {
  let fixed: Date | null = null;
  const clock = () => (fixed ? new Date(fixed) : new Date());
  return Object.assign(clock, {
    fix(instant: Date | string) {
      if (!fixed) onTestFinished(() => void (fixed = null));
      fixed = new Date(instant);
      return new Date(fixed);
    },
  });
}

export interface TestApi {
  yoga: ApiYoga;
  limiters: RateLimiters;
  clock: TestClock;
  close(): Promise<void>;
}

export async function createTestApi(options: {
  env: Env;
  db: Db;
  limiters?: RateLimiters;
  events?: RegistrationEvents;
  outboxSignal?: OutboxSignal;
  logDestination?: DestinationStream;
}): Promise<TestApi> {
  const limiters = options.limiters ?? createRateLimiters(options.env, { rules: GENEROUS_LIMITS });
  const logger = createLogger(options.env, options.logDestination);
  const clock = testClock();
  const yoga = await createYogaApp({
    env: options.env,
    db: options.db,
    logger,
    limiters,
    events: options.events,
    outboxSignal: options.outboxSignal,
    clock,
  });
  return {
    yoga,
    limiters,
    clock,
    async close() {
      if (!options.limiters) await limiters.close();
    },
  };
}

/** Collects pino's JSON lines. */
export function logCollector(): DestinationStream & { lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    write(message: string) {
      lines.push(JSON.parse(message) as Record<string, unknown>);
    },
  };
}
