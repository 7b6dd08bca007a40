/**
 * How busy the doors are (issue 12 §2, ADR 041): sign-ups of the last ten minutes — new members,
 * membership applications and waiting-list emails together — read as a difficulty level for the
 * proof of work. A quiet club asks little of a visitor's browser; a rush (a leaked code, a bot)
 * asks more of everyone's, up to eight times the work.
 */
import type { Db } from '../db/connect.ts';
import { MAX_DIFFICULTY_LEVEL } from './proof-of-work.ts';

const WINDOW_MS = 10 * 60 * 1000;
/** Sign-ups in the window at which each level above 0 starts. */
export const DIFFICULTY_THRESHOLDS = [30, 80, 200] as const;
/** The count is read at most this often per process. */
const CACHE_MS = 10_000;

export function difficultyLevel(recentSignUps: number): number {
  const level = DIFFICULTY_THRESHOLDS.filter((threshold) => recentSignUps >= threshold).length;
  return Math.min(level, MAX_DIFFICULTY_LEVEL);
}

async function countRecentSignUps(db: Db, now: Date): Promise<number> {
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  const count = async (query: Promise<{ n: number | string | bigint }>) => Number((await query).n);
  const [members, applications, lobbyEmails] = await Promise.all([
    count(db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('created_at', '>', since).executeTakeFirstOrThrow()),
    count(db.selectFrom('membership_applications').select((eb) => eb.fn.countAll<number>().as('n')).where('created_at', '>', since).executeTakeFirstOrThrow()),
    count(
      db
        .selectFrom('email_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('template', '=', 'lobby')
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow(),
    ),
  ]);
  return members + applications + lobbyEmails;
}

export interface SignUpRate {
  /** The difficulty level at `now` (counted at most every 10 s per process). */
  level(now: Date): Promise<number>;
}

export function createSignUpRate(db: Db): SignUpRate {
  let cached: { at: number; level: number } | null = null;
  return {
    async level(now) {
      if (cached && Math.abs(now.getTime() - cached.at) < CACHE_MS) return cached.level;
      const level = difficultyLevel(await countRecentSignUps(db, now));
      cached = { at: now.getTime(), level };
      return level;
    },
  };
}
