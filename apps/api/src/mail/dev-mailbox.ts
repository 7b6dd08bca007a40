/**
 * The dev mailbox: without SMTP_URL every email is a JSON file under
 * `<DATA_DIR>/mailbox/`, listed at GET /dev/mailbox (newest first), shown at
 * /dev/mailbox/<id> and given raw at /dev/mailbox/<id>.json. Served only by local
 * instances (a loopback PUBLIC_URL, ADR 026). The list escapes everything; an email is shown under a CSP that allows no
 * script and a sandbox, so a hostile value in it cannot run.
 */
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'graphql-yoga';

export interface MailboxMessage {
  id: string;
  outboxId: string;
  messageId: string;
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  /** ISO time the message was written. */
  date: string;
}

const DEV_MAILBOX_PATH = '/dev/mailbox';
const ID_PATTERN = /^\d{8}T\d{9}Z-[A-Za-z0-9-]{1,64}$/;

export function mailboxDir(dataDir: string): string {
  return path.join(dataDir, 'mailbox');
}

/** `20261122T101500123Z`: sorts by time as text. */
function stamp(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '');
}

export async function writeToMailbox(
  dir: string,
  email: Omit<MailboxMessage, 'id' | 'date'>,
  now: Date = new Date(),
): Promise<MailboxMessage> {
  await mkdir(dir, { recursive: true });
  const id = `${stamp(now)}-${email.outboxId}`;
  const message: MailboxMessage = { id, ...email, date: now.toISOString() };
  const file = path.join(dir, `${id}.json`);
  const temp = `${file}.tmp`;
  await writeFile(temp, JSON.stringify(message, null, 2), { mode: 0o600 });
  // A reader never sees half a file.
  await rename(temp, file);
  return message;
}

async function listMailbox(dir: string): Promise<MailboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const ids = names
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => ID_PATTERN.test(id))
    .sort()
    .reverse();
  const messages = await Promise.all(ids.map((id) => readMailboxMessage(dir, id)));
  return messages.filter((message): message is MailboxMessage => message !== null);
}

async function readMailboxMessage(dir: string, id: string): Promise<MailboxMessage | null> {
  if (!ID_PATTERN.test(id)) return null;
  try {
    return JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')) as MailboxMessage;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const LIST_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
// Sandboxed without scripts; the email's links (target=_blank) may open a new tab, as in a mail client.
const EMAIL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; sandbox allow-popups allow-popups-to-escape-sandbox";

function listPage(messages: MailboxMessage[]): string {
  const rows = messages
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.date)}</td><td>${escapeHtml(m.to)}</td><td><a href="${DEV_MAILBOX_PATH}/${escapeHtml(
          encodeURIComponent(m.id),
        )}">${escapeHtml(m.subject)}</a></td><td><a href="${DEV_MAILBOX_PATH}/${escapeHtml(encodeURIComponent(m.id))}.json">json</a></td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title>
<style>body{font-family:Georgia,serif;margin:2rem}table{border-collapse:collapse}td,th{padding:.4rem .8rem;border-bottom:1px solid #000;text-align:left}</style>
</head><body><h1>Dev mailbox</h1><p>${messages.length} message(s), newest first. Served by local instances only (ADR 026).</p>
<table><thead><tr><th>Date</th><th>To</th><th>Subject</th><th>Raw</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}

/** Yoga plugin serving the dev mailbox (local instances only, ADR 026). */
export function useDevMailbox(dataDir: string): Plugin {
  const dir = mailboxDir(dataDir);
  return {
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== DEV_MAILBOX_PATH && !url.pathname.startsWith(`${DEV_MAILBOX_PATH}/`)) return;
      const respond = (status: number, body: string, type: string, csp = LIST_CSP) =>
        endResponse(
          new fetchAPI.Response(body, {
            status,
            headers: { 'content-type': type, 'content-security-policy': csp, 'cache-control': 'no-store' },
          }),
        );
      if (request.method !== 'GET') return respond(405, 'method not allowed', 'text/plain; charset=utf-8');
      const rest = url.pathname.slice(DEV_MAILBOX_PATH.length).replace(/^\//, '');
      return (async () => {
        if (rest === '') return respond(200, listPage(await listMailbox(dir)), 'text/html; charset=utf-8');
        if (rest === 'index.json') return respond(200, JSON.stringify(await listMailbox(dir)), 'application/json; charset=utf-8');
        const raw = rest.endsWith('.json');
        const message = await readMailboxMessage(dir, decodeURIComponent(raw ? rest.slice(0, -5) : rest));
        if (!message) return respond(404, 'not found', 'text/plain; charset=utf-8');
        if (raw) return respond(200, JSON.stringify(message, null, 2), 'application/json; charset=utf-8');
        return respond(200, message.html, 'text/html; charset=utf-8', EMAIL_CSP);
      })();
    },
  };
}
