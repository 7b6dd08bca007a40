/**
 * Rate limits shared by every API instance: Redis (REDIS_URL) when configured, so
 * several instances count together; process memory otherwise. A Redis outage falls back
 * to an in-memory "insurance" limiter instead of failing requests or letting all through.
 */
import { GraphQLError } from 'graphql';
import { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Env } from './config.ts';
import { DEFAULT_REDIS_PREFIX, closeRedis } from './lib/redis.ts';
import { CHALLENGE_TTL_SECONDS } from './domain/proof-of-work.ts';

export interface RateLimitRule {
  /** Requests allowed per `duration` seconds. */
  points: number;
  duration: number;
  /** Extra requests allowed once `points` are used up, per `burstDuration` seconds (0: no burst). */
  burstPoints: number;
  burstDuration: number;
}

export const DEFAULT_RATE_LIMITS = {
  /**
   * Query.registrationCodeDetails per client IP: 60/minute, plus a burst of 10 per 10 minutes —
   * twenty colleagues behind one office address each open the landing page and the form, and
   * reload one (the people suite, issue 20 §1); guessing codes is the leak watch's near misses.
   */
  registrationCodeCheck: { points: 60, duration: 60, burstPoints: 10, burstDuration: 600 },
  /**
   * Mutation.register and Mutation.completeSocialRegistration together, per client IP: 30/minute,
   * plus a burst of 15 per 10 minutes. One office, school or mobile carrier's NAT is one address
   * for many people (the people suite's twenty colleagues: 10 a minute refused five of them); a
   * script is bounded besides by the proof of work each registration costs, the mailbox limit,
   * the code's places and its registrations per code (ADR 041).
   */
  register: { points: 30, duration: 60, burstPoints: 15, burstDuration: 600 },
  /** Mutation.activateAccount per client IP: 20/minute, plus a burst of 10 per 10 minutes. */
  activateAccount: { points: 20, duration: 60, burstPoints: 10, burstDuration: 600 },
  /**
   * Mutation.joinWaitlist and Mutation.applyForMembership together, per client IP: 10/minute,
   * plus a burst of 5 per 10 minutes (RATE_LIMIT_PUBLIC_FORMS_PER_MINUTE sets the 10).
   */
  publicForms: { points: 10, duration: 60, burstPoints: 5, burstDuration: 600 },
  /** Mutation.recordConsent per client IP: 20/minute, plus a burst of 10 per 10 minutes (RATE_LIMIT_CONSENT_RECORDS_PER_MINUTE sets the 20). */
  consentRecords: { points: 20, duration: 60, burstPoints: 10, burstDuration: 600 },
  /** Mutation.recordFunnelEvents (one browser batch) per client IP: 60/minute, plus a burst of 30 per 10 minutes (RATE_LIMIT_FUNNEL_BATCHES_PER_MINUTE sets the 60). */
  funnelEvents: { points: 60, duration: 60, burstPoints: 30, burstDuration: 600 },
  /** Mutation.adminLogin per client IP: 5/minute (RATE_LIMIT_ADMIN_SIGN_INS_PER_MINUTE sets the 5). */
  adminLoginIp: { points: 5, duration: 60, burstPoints: 0, burstDuration: 60 },
  /**
   * Mutation.adminVerifySecondFactor per client network (an IPv6 /64): 10/minute. Besides, per
   * challenge and per admin in the database (auth/admin-sessions.ts, ADR 045 addendum).
   */
  adminSecondFactorIp: { points: 10, duration: 60, burstPoints: 0, burstDuration: 60 },
  /**
   * Mutation.adminLogin per account and client IP (hashed address + IP): 10/hour. Never per
   * account alone: strangers' failures must not lock the real admin out (ADR 029).
   */
  adminLoginAccountIp: { points: 10, duration: 3600, burstPoints: 0, burstDuration: 3600 },
  /**
   * Failed Mutation.adminLogin attempts from every client together: beyond 30/minute each
   * further failure is answered ADMIN_LOGIN_SLOWDOWN_MS later — slowed, never refused.
   */
  adminLoginFailures: { points: 30, duration: 60, burstPoints: 0, burstDuration: 60 },
  /** Query.proofOfWorkChallenge per client network: 60/minute, plus a burst of 30 per 10 minutes (issue 12 §2). */
  proofOfWorkChallenges: { points: 60, duration: 60, burstPoints: 30, burstDuration: 600 },
  /** A solved proof of work is used once: its challenge's signature, for as long as a challenge lives (ADR 041). */
  proofOfWorkReplay: { points: 1, duration: CHALLENGE_TTL_SECONDS, burstPoints: 0, burstDuration: CHALLENGE_TTL_SECONDS },
  /**
   * Sign-ups per form and mailbox (domain/email-normalization.ts): 5/hour. Beyond, the answer of
   * success and nothing written or sent (ADR 041): the address is someone's, not the sender's.
   */
  signUpMailbox: { points: 5, duration: 3600, burstPoints: 0, burstDuration: 3600 },
  /**
   * Sign-ups without a proof of work (a browser without JavaScript; ADR 041): 3 an hour per
   * client network, and 30 per 10 minutes from everyone together. Beyond, RATE_LIMITED: a script
   * that leaves the proof out gets no further than a person without JavaScript.
   */
  noScriptSignUpsPerNetwork: { points: 3, duration: 3600, burstPoints: 0, burstDuration: 3600 },
  noScriptSignUps: { points: 30, duration: 600, burstPoints: 0, burstDuration: 600 },
  /** Registrations per invitation code, whoever sends them: 20 per 10 minutes (issue 12 §2; RATE_LIMIT_REGISTRATIONS_PER_CODE sets the 20). */
  registrationsPerCode: { points: 20, duration: 600, burstPoints: 0, burstDuration: 600 },
} satisfies Record<string, RateLimitRule>;
type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;

/** How much later a failed admin sign-in is answered while adminLoginFailures is exceeded. */
export const ADMIN_LOGIN_SLOWDOWN_MS = 1000;

/** `used`: the points the key has spent in the current window, this one included. */
type RateLimitOutcome = { allowed: true; used: number } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  consume(key: string): Promise<RateLimitOutcome>;
  /**
   * Deletes what is counted for `key`, in Redis and in this process's memory (the insurance
   * limiter too): an erased person's mailbox-keyed entries go with their data (ADR 048). Rejects
   * when Redis cannot be reached, so the caller can say the deletion did not happen.
   */
  forget(key: string): Promise<void>;
}

export interface RateLimiters extends Record<RateLimitName, RateLimiter> {
  /** 'redis' or 'memory'. */
  readonly store: 'redis' | 'memory';
  /** Resolves once the store can be used (immediately for memory). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  /** Prefix of every Redis key (default: REDIS_PREFIX + `rate-limit`; tests use a unique one). */
  keyPrefix?: string;
  rules?: Partial<Record<RateLimitName, RateLimitRule>>;
}

export function createRateLimiters(
  env: Pick<Env, 'REDIS_URL'> &
    Partial<
      Pick<
        Env,
        | 'REDIS_PREFIX'
        | 'RATE_LIMIT_CODE_CHECKS_PER_MINUTE'
        | 'RATE_LIMIT_REGISTRATIONS_PER_MINUTE'
        | 'RATE_LIMIT_PUBLIC_FORMS_PER_MINUTE'
        | 'RATE_LIMIT_CONSENT_RECORDS_PER_MINUTE'
        | 'RATE_LIMIT_FUNNEL_BATCHES_PER_MINUTE'
        | 'RATE_LIMIT_ADMIN_SIGN_INS_PER_MINUTE'
        | 'RATE_LIMIT_REGISTRATIONS_PER_CODE'
      >
    >,
  options: RateLimiterOptions = {},
): RateLimiters {
  const keyPrefix = options.keyPrefix ?? `${env.REDIS_PREFIX ?? DEFAULT_REDIS_PREFIX}rate-limit`;
  const configured = env.RATE_LIMIT_CODE_CHECKS_PER_MINUTE;
  const registrations = env.RATE_LIMIT_REGISTRATIONS_PER_MINUTE;
  const publicForms = env.RATE_LIMIT_PUBLIC_FORMS_PER_MINUTE;
  const consentRecords = env.RATE_LIMIT_CONSENT_RECORDS_PER_MINUTE;
  const funnelBatches = env.RATE_LIMIT_FUNNEL_BATCHES_PER_MINUTE;
  const adminSignIns = env.RATE_LIMIT_ADMIN_SIGN_INS_PER_MINUTE;
  const perCode = env.RATE_LIMIT_REGISTRATIONS_PER_CODE;
  const rules: Record<RateLimitName, RateLimitRule> = {
    ...DEFAULT_RATE_LIMITS,
    ...(configured ? { registrationCodeCheck: { ...DEFAULT_RATE_LIMITS.registrationCodeCheck, points: configured } } : {}),
    ...(registrations ? { register: { ...DEFAULT_RATE_LIMITS.register, points: registrations } } : {}),
    ...(publicForms ? { publicForms: { ...DEFAULT_RATE_LIMITS.publicForms, points: publicForms } } : {}),
    ...(consentRecords ? { consentRecords: { ...DEFAULT_RATE_LIMITS.consentRecords, points: consentRecords } } : {}),
    ...(funnelBatches ? { funnelEvents: { ...DEFAULT_RATE_LIMITS.funnelEvents, points: funnelBatches } } : {}),
    ...(adminSignIns ? { adminLoginIp: { ...DEFAULT_RATE_LIMITS.adminLoginIp, points: adminSignIns } } : {}),
    ...(perCode ? { registrationsPerCode: { ...DEFAULT_RATE_LIMITS.registrationsPerCode, points: perCode } } : {}),
    ...options.rules,
  };
  const redis = env.REDIS_URL
    ? new Redis(env.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  // Without a listener ioredis prints connection errors itself; the insurance limiter covers them.
  redis?.on('error', () => undefined);

  const build = (name: RateLimitName): RateLimiter => {
    const rule = rules[name];
    // Every store a key of this limit may be counted in (the burst's too): what forget() clears.
    const memories: RateLimiterMemory[] = [];
    const redisKeys: ((key: string) => string)[] = [];
    const make = (suffix: string, points: number, duration: number) => {
      const memory = new RateLimiterMemory({ keyPrefix: `${keyPrefix}:${name}${suffix}`, points, duration });
      memories.push(memory);
      if (!redis) return memory;
      const remote = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${keyPrefix}:${name}${suffix}`,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      });
      redisKeys.push((key) => remote.getKey(key));
      return remote;
    };
    const limiter =
      rule.burstPoints > 0
        ? new BurstyRateLimiter(make('', rule.points, rule.duration), make(':burst', rule.burstPoints, rule.burstDuration))
        : make('', rule.points, rule.duration);
    return {
      async consume(key) {
        try {
          const { consumedPoints } = await limiter.consume(key);
          return { allowed: true, used: consumedPoints };
        } catch (rejection) {
          if (rejection instanceof RateLimiterRes) {
            return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
          }
          throw rejection;
        }
      },
      async forget(key) {
        // Redis itself, not the library's delete: that one falls back to the insurance limiter
        // on an error and resolves, leaving the Redis entry behind without a word.
        if (redis && redisKeys.length > 0) await redis.del(...redisKeys.map((redisKey) => redisKey(key)));
        await Promise.all(memories.map((memory) => memory.delete(key)));
      },
    };
  };

  return {
    store: redis ? 'redis' : 'memory',
    registrationCodeCheck: build('registrationCodeCheck'),
    register: build('register'),
    activateAccount: build('activateAccount'),
    publicForms: build('publicForms'),
    consentRecords: build('consentRecords'),
    funnelEvents: build('funnelEvents'),
    adminLoginIp: build('adminLoginIp'),
    adminLoginAccountIp: build('adminLoginAccountIp'),
    adminSecondFactorIp: build('adminSecondFactorIp'),
    adminLoginFailures: build('adminLoginFailures'),
    proofOfWorkChallenges: build('proofOfWorkChallenges'),
    proofOfWorkReplay: build('proofOfWorkReplay'),
    signUpMailbox: build('signUpMailbox'),
    registrationsPerCode: build('registrationsPerCode'),
    noScriptSignUpsPerNetwork: build('noScriptSignUpsPerNetwork'),
    noScriptSignUps: build('noScriptSignUps'),
    async ready() {
      if (!redis || redis.status === 'ready') return;
      await new Promise<void>((resolve, reject) => {
        redis.once('ready', resolve);
        redis.once('end', () => reject(new Error('Redis connection closed')));
      });
    },
    async close() {
      if (redis) await closeRedis(redis);
    },
  };
}

/** Consumes one request for `key`; over the limit throws a GraphQL error with code RATE_LIMITED. */
export async function enforceRateLimit(limiter: RateLimiter, key: string): Promise<number> {
  const outcome = await limiter.consume(key);
  if (!outcome.allowed) {
    throw new GraphQLError('Too many requests. Please try again later.', {
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds: outcome.retryAfterSeconds },
    });
  }
  return outcome.used;
}
