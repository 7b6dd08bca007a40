/**
 * Where emails go: SMTP (nodemailer) when SMTP_URL is set, else the dev mailbox, a folder
 * of JSON files under DATA_DIR that the API shows at /dev/mailbox on a local instance (ADR 026).
 */
import nodemailer from 'nodemailer';
import type { Env } from '../config.ts';
import { mailboxDir, writeToMailbox } from './dev-mailbox.ts';

interface OutgoingEmail {
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
  /** Resolves when the server answers (connects, greets, accepts EHLO); absent when there is no server. */
  verify?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Time-outs of one SMTP delivery: a server that accepts the connection and never answers
 * (or stops answering mid-message) fails the attempt instead of holding its worker slot.
 */
export interface SmtpTimeouts {
  connectionTimeoutMs: number;
  greetingTimeoutMs: number;
  socketTimeoutMs: number;
}

export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionTimeoutMs: 10_000, greetingTimeoutMs: 10_000, socketTimeoutMs: 30_000 };

/**
 * `<outbox-ID@velvetrope>`: the same for every attempt of one outbox row, so a copy sent
 * again after a crash between the SMTP server's acceptance and our "sent" mark is
 * recognisable as the same message (docs/decisions/006).
 */
export function messageIdFor(outboxId: string): string {
  return `<outbox-${outboxId}@velvetrope>`;
}

export function createSmtpTransport(smtpUrl: string, timeouts: SmtpTimeouts = SMTP_TIMEOUTS): MailTransport {
  // Explicit options override what the URL says: a dead peer must not hold a worker for minutes.
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeouts.connectionTimeoutMs,
    greetingTimeout: timeouts.greetingTimeoutMs,
    socketTimeout: timeouts.socketTimeoutMs,
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
    async verify() {
      await transporter.verify();
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
