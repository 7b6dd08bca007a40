/**
 * The waiting list's background work (ADR 047), in every worker process (ROLE=worker or all, ADR 062): running batch releases
 * are worked off chunk by chunk (also those a restart interrupted), and the daily admission
 * capacity is filled first come first served. Safe with several instances: each chunk is one
 * transaction holding the release's (or the capacity's) row lock, and re-reads what the others
 * committed before it invites anyone.
 */
import type { Db } from '../db/connect.ts';
import { admitWithinCapacity, workReleases } from '../services/waitlist-admission.ts';

export interface AdmissionJobOptions {
  db: Db;
  /** APP_SECRET: the audit log names an invited person by a pseudonym of the address (ADR 048). */
  secret: string;
  logger: { info(fields: object, message: string): void; error(fields: object, message: string): void };
  /** Releases are looked for this often (default 2 s). */
  releaseIntervalMs?: number;
  /** The capacity is checked this often (default 1 min). */
  capacityIntervalMs?: number;
  now?: () => Date;
  /** Called after a pass wrote invitation emails (wakes this process's outbox worker). */
  onEmailsQueued?: () => void;
}

/** Starts both loops; stop() waits for a running pass. */
export function startAdmissionJob(options: AdmissionJobOptions): { stop(): Promise<void> } {
  const now = options.now ?? (() => new Date());
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const loop = (intervalMs: number, pass: () => Promise<void>) => {
    const schedule = () => {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        const work = pass()
          .catch((error: unknown) => options.logger.error({ err: error }, 'admission: pass failed'))
          .finally(() => {
            running.delete(work);
            schedule();
          });
        running.add(work);
      }, intervalMs);
      timer.unref();
      timers.add(timer);
    };
    schedule();
  };
  loop(options.releaseIntervalMs ?? 2_000, async () => {
    if ((await workReleases(options, now)) > 0) options.onEmailsQueued?.();
  });
  loop(options.capacityIntervalMs ?? 60_000, async () => {
    const admitted = await admitWithinCapacity(options, now());
    if (admitted === 0) return;
    options.logger.info({ admitted }, 'admission: invited within the daily capacity');
    options.onEmailsQueued?.();
  });
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(running);
    },
  };
}
