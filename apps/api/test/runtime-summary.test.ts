/** What `npm start` says each role uses (issue 23 §5, ADR 062): engines and places, never credentials. */
import { describe, expect, it } from 'vitest';
import { describeUses } from '../src/runtime-summary.ts';

describe('describeUses', () => {
  it('names SQLite by its file, the dev mailbox by its folder and says when there is no Redis', () => {
    expect(describeUses({ DATABASE_URL: 'file:/srv/velvet/data/velvet.sqlite', DATA_DIR: '/srv/velvet/data', SMTP_URL: undefined, REDIS_URL: undefined })).toEqual({
      database: 'SQLite, /srv/velvet/data/velvet.sqlite',
      mail: 'dev mailbox, /srv/velvet/data/mailbox',
      redis: 'none: rate limits, events and the outbox signal stay in each process',
    });
  });

  it('names PostgreSQL, SMTP and Redis by host, port and database, without user names, passwords or query strings', () => {
    const uses = describeUses({
      DATABASE_URL: 'postgres://velvet:db-s3cret@db.internal:6432/velvet?sslmode=require&password=also-secret',
      DATA_DIR: '/srv/velvet/data',
      SMTP_URL: 'smtps://mailer:smtp-s3cret@smtp.example.com',
      REDIS_URL: 'redis://:redis-s3cret@cache.internal:6380/2',
    });
    expect(uses).toEqual({ database: 'PostgreSQL, db.internal:6432/velvet', mail: 'SMTP, smtp.example.com:465', redis: 'Redis, cache.internal:6380' });
    expect(JSON.stringify(uses)).not.toMatch(/s3cret|secret|velvet:|mailer/);
  });
});
