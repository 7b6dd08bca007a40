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
 * The line is first come, first served while it moves. Once it stands — its oldest has waited half
 * of `queueWaitMs`, so more arrive than are served — the newest is served first: it still has the
 * whole wait ahead, while the oldest would be shed soon anyway. Under a lasting overload what is
 * accepted then runs almost at once instead of after most of `queueWaitMs` in line (adaptive LIFO,
 * as Facebook's "Fail at Scale" describes it); what is shed is shed within `queueWaitMs` either way.
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
  /** When it joined the line (Date.now()). */
  since: number;
  admit(): void;
  timer: NodeJS.Timeout;
  /** Shed after waiting too long: still in `line` until an end of the line reaches it. */
  gone: boolean;
}

/** The turns of one process. */
export function createAdmission(limits: AdmissionLimits): Admission {
  let running = 0;
  let waiting = 0;
  // Oldest first. A waiter that timed out is marked gone and dropped when it reaches an end.
  const line: Waiter[] = [];
  const trim = () => {
    while (line[0]?.gone) line.shift();
    while (line.at(-1)?.gone) line.pop();
  };

  const next = () => {
    trim();
    const oldest = line[0];
    if (!oldest) {
      running -= 1;
      return;
    }
    const standing = Date.now() - oldest.since >= limits.queueWaitMs / 2;
    const chosen = (standing ? line.pop() : line.shift()) as Waiter;
    // The turn passes on: `running` stays.
    waiting -= 1;
    clearTimeout(chosen.timer);
    chosen.admit();
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
      if (waiting >= limits.queueLimit) return Promise.resolve(null);
      return new Promise((resolve) => {
        const waiter: Waiter = {
          since: Date.now(),
          admit: () => resolve(turn()),
          timer: setTimeout(() => {
            waiter.gone = true;
            waiting -= 1;
            trim();
            resolve(null);
          }, limits.queueWaitMs),
          gone: false,
        };
        waiter.timer.unref();
        waiting += 1;
        line.push(waiter);
      });
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting;
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
