/**
 * Overload is not an outage (ADR 052). Every query and mutation takes a turn before it runs: at
 * most `concurrency` run at once (DATABASE_POOL_SIZE, so on PostgreSQL each finds a connection of
 * the pool free or nearly so), the others wait in line — at most `queueLimit` of them, each at
 * most `queueWaitMs`. One that finds the line full, or waits too long, is answered OVERLOADED
 * ("busy, try again in a moment") without running: nothing of it was written, and its client
 * knows to send it again. Before, every request waited for the pool's connections one query at a
 * time, up to 5 s each (pg-pool's connection time-out), and then answered SERVICE_UNAVAILABLE as
 * if the database were down; the successes took tens of seconds.
 *
 * Subscriptions do not take a turn (they stay open; their events are not operations), nor do
 * /health (its own connection, db/connect.ts) and the features endpoint (from memory).
 */
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ApiContext } from '../context.ts';
import type { Logger } from '../logger.ts';
import { overloadedError } from './errors.ts';

interface AdmissionLimits {
  /** Operations that run at once. */
  concurrency: number;
  /** Operations that may wait for their turn; one more is shed at once. */
  queueLimit: number;
  /** How long one may wait for its turn, in milliseconds, before it is shed. */
  queueWaitMs: number;
}

/** Ends a turn (the next in line starts); calling it again does nothing. */
type Release = () => void;

export interface Admission {
  /** A turn: resolves with its release once the operation may run, or null when it is shed. */
  enter(): Promise<Release | null>;
  /** Operations running now. */
  readonly running: number;
  /** Operations waiting for their turn now. */
  readonly waiting: number;
}

interface Waiter {
  admit(): void;
  timer: NodeJS.Timeout;
}

/** The turns of one process, first come first served. */
export function createAdmission(limits: AdmissionLimits): Admission {
  let running = 0;
  // A Set keeps insertion order (the line) and lets a waiter that timed out leave from anywhere.
  const line = new Set<Waiter>();

  const next = () => {
    const first = line.values().next();
    if (first.done) {
      running -= 1;
      return;
    }
    // The turn passes on: `running` stays.
    line.delete(first.value);
    clearTimeout(first.value.timer);
    first.value.admit();
  };
  const turn = (): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      next();
    };
  };

  return {
    enter() {
      if (running < limits.concurrency) {
        running += 1;
        return Promise.resolve(turn());
      }
      if (line.size >= limits.queueLimit) return Promise.resolve(null);
      return new Promise((resolve) => {
        const waiter: Waiter = {
          admit: () => resolve(turn()),
          timer: setTimeout(() => {
            line.delete(waiter);
            resolve(null);
          }, limits.queueWaitMs),
        };
        waiter.timer.unref();
        line.add(waiter);
      });
    },
    get running() {
      return running;
    },
    get waiting() {
      return line.size;
    },
  };
}

/** How often, at most, the log says that operations were shed. */
const SHED_LOG_INTERVAL_MS = 1_000;

/**
 * Queries and mutations run in their turn; a shed one is answered OVERLOADED (HTTP 200, one
 * GraphQL error, like RATE_LIMITED: ADR 044) and counted in one warning a second at most. Put it
 * after every plugin that replaces the execute function (the compiled execution), so that it
 * wraps the one that runs.
 */
export function useAdmission(admission: Admission, logger: Logger): Plugin<ApiContext> {
  let shed = 0;
  let report: NodeJS.Timeout | undefined;
  const count = () => {
    shed += 1;
    report ??= setTimeout(() => {
      logger.warn({ shed, running: admission.running, waiting: admission.waiting }, 'overloaded: operations answered OVERLOADED');
      shed = 0;
      report = undefined;
    }, SHED_LOG_INTERVAL_MS).unref();
  };
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(async (args: ExecutionArgs) => {
        const release = await admission.enter();
        if (!release) {
          count();
          return { errors: [overloadedError()] } satisfies ExecutionResult;
        }
        try {
          return await executeFn(args);
        } finally {
          release();
        }
      });
    },
  };
}
