/**
 * What a role uses, in words fit for the start-up summary `npm start` prints (issue 23 §5,
 * ADR 062): engines, hosts and folders, never a user name, password or query string of a URL.
 */
import type { Env } from './config.ts';
import { mailboxDir } from './mail/dev-mailbox.ts';

/** `host:port/path` of a URL without its credentials; the URL's own text is never shown. */
function place(url: string, defaultPort: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || defaultPort}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}

export interface RuntimeUses {
  database: string;
  mail: string;
  redis: string;
}

export function describeUses(env: Pick<Env, 'DATABASE_URL' | 'SMTP_URL' | 'REDIS_URL' | 'DATA_DIR'>): RuntimeUses {
  const database = env.DATABASE_URL.startsWith('file:') ? `SQLite, ${env.DATABASE_URL.slice('file:'.length)}` : `PostgreSQL, ${place(env.DATABASE_URL, '5432')}`;
  const mail = env.SMTP_URL ? `SMTP, ${place(env.SMTP_URL, env.SMTP_URL.startsWith('smtps:') ? '465' : '587').replace(/\/$/, '')}` : `dev mailbox, ${mailboxDir(env.DATA_DIR)}`;
  const redis = env.REDIS_URL ? `Redis, ${place(env.REDIS_URL, '6379').replace(/\/\d*$/, '')}` : 'none: rate limits, events and the outbox signal stay in each process';
  return { database, mail, redis };
}
