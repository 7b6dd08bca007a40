/**
 * Where emails go: SMTP (nodemailer) when SMTP_URL is set, else the dev mailbox, a folder
 * of JSON files under DATA_DIR that the API shows at /dev/mailbox on a local instance (ADR 026).
 */
import nodemailer from 'nodemailer';
import type { Env } from '../config.ts';
import { mailboxDir, writeToMailbox } from './dev-mailbox.ts';

export interface OutgoingEmail {
  /** The outbox row id: the dedupe key of at-least-once delivery. */
  outboxId: string;
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'dev-mailbox';
  send(email: OutgoingEmail): Promise<void>;
  close(): Promise<void>;
}

/**
 * `<outbox-ID@velvetrope>`: the same for every attempt of one outbox row, so a copy sent
 * again after a crash between the SMTP server's acceptance and our "sent" mark is
 * recognisable as the same message (docs/decisions/006).
 */
export function messageIdFor(outboxId: string): string {
  return `<outbox-${outboxId}@velvetrope>`;
}

export function createSmtpTransport(smtpUrl: string): MailTransport {
  // Explicit options override what the URL says: a dead peer must not hold a worker for minutes.
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    kind: 'smtp',
    async send(email) {
      await transporter.sendMail({
        from: email.from,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
        messageId: messageIdFor(email.outboxId),
        headers: { 'X-Velvet-Outbox-Id': email.outboxId },
      });
    },
    async close() {
      transporter.close();
    },
  };
}

export function createDevMailboxTransport(dataDir: string): MailTransport {
  const dir = mailboxDir(dataDir);
  return {
    kind: 'dev-mailbox',
    async send(email) {
      await writeToMailbox(dir, { ...email, messageId: messageIdFor(email.outboxId) });
    },
    async close() {},
  };
}

export function createMailTransport(env: Pick<Env, 'SMTP_URL' | 'DATA_DIR'>): MailTransport {
  return env.SMTP_URL ? createSmtpTransport(env.SMTP_URL) : createDevMailboxTransport(env.DATA_DIR);
}
