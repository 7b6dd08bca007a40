/** Waiting-list entries and membership applications written straight to the database, and delivery of the outbox to an SMTP peer. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Env } from '../../src/config.ts';
import type { Db } from '../../src/db/connect.ts';
import { createLogger } from '../../src/logger.ts';
import { OutboxWorker } from '../../src/mail/outbox-worker.ts';
import { createSmtpTransport } from '../../src/mail/transport.ts';
import { uniqueEmail } from './registration.ts';
import { startSmtpPeer } from './smtp.ts';
import type { ReceivedEmail } from './smtp.ts';

export async function insertWaitlistEntry(db: Db, fields: { email?: string; language?: string; joinedAt: string }) {
  const email = fields.email ?? uniqueEmail('waiting').toLowerCase();
  await db
    .insertInto('waitlist_entries')
    .values({
      id: randomUUID(),
      email,
      language: fields.language ?? 'en',
      joined_at: fields.joinedAt,
      consent_at: fields.joinedAt,
      invited_at: null,
      registration_code_id: null,
    })
    .execute();
  return email;
}

export async function insertApplication(db: Db, fields: { email?: string; language?: string; createdAt?: string } = {}) {
  const email = fields.email ?? uniqueEmail('applicant').toLowerCase();
  const at = fields.createdAt ?? new Date().toISOString();
  await db
    .insertInto('membership_applications')
    .values({
      id: randomUUID(),
      email,
      language: fields.language ?? 'en',
      country: null,
      consent_at: at,
      created_at: at,
      selected_at: null,
      registration_code_id: null,
    })
    .execute();
  return email;
}

/** Sends every due outbox row to a fresh SMTP peer; returns what it received. */
export async function deliverAll(db: Db, env: Pick<Env, 'APP_SECRET' | 'PUBLIC_URL' | 'MAIL_FROM'>, expected: number): Promise<ReceivedEmail[]> {
  const peer = await startSmtpPeer();
  const transport = createSmtpTransport(peer.url);
  try {
    const worker = new OutboxWorker({ db, transport, env, logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }) });
    expect(await worker.runOnce()).toMatchObject({ sent: expected, retried: 0, failed: 0 });
    return await peer.waitFor(expected);
  } finally {
    await transport.close();
    await peer.close();
  }
}
