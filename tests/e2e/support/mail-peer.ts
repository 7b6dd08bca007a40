/**
 * A real SMTP server for the end-to-end tests: the product delivers its email here over
 * SMTP (SMTP_URL), and tests read what arrived through a small HTTP API, so every
 * Playwright worker sees the same mailbox.
 *
 *   SMTP  127.0.0.1:$MAIL_PEER_SMTP_PORT
 *   HTTP  GET /messages?to=ADDRESS  → parsed messages, oldest first
 *         GET /healthz
 */
import { createServer } from 'node:http';
import type { Readable } from 'node:stream';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

interface Received {
  to: string[];
  from: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  date: string;
}

const smtpPort = Number(process.env.MAIL_PEER_SMTP_PORT ?? 2526);
const httpPort = Number(process.env.MAIL_PEER_HTTP_PORT ?? 2527);
const messages: Received[] = [];

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    readAll(stream)
      .then((raw) => PostalMime.parse(raw))
      .then((mail) => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: mail.subject ?? '',
          html: mail.html ?? '',
          text: mail.text ?? '',
          messageId: mail.messageId ?? '',
          date: new Date().toISOString(),
        });
        callback();
      })
      .catch((error: Error) => callback(error));
  },
});
smtp.listen(smtpPort, '127.0.0.1');

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/healthz') return void res.end('ok');
  if (url.pathname === '/messages') {
    const to = url.searchParams.get('to')?.toLowerCase();
    res.setHeader('content-type', 'application/json');
    return void res.end(JSON.stringify(to ? messages.filter((m) => m.to.includes(to)) : messages));
  }
  res.statusCode = 404;
  res.end();
}).listen(httpPort, '127.0.0.1');
