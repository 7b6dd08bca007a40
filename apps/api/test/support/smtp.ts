/** A real SMTP server on a loopback port (smtp-server), and a small MIME reader for what it receives. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  from: string;
  to: string[];
  raw: string;
  headers: Map<string, string>;
  subject: string;
  messageId: string;
  text: string;
  html: string;
}

export interface SmtpPeer {
  port: number;
  url: string;
  received: ReceivedEmail[];
  /** Resolves when `count` emails in all have arrived. */
  waitFor(count: number): Promise<ReceivedEmail[]>;
  close(): Promise<void>;
}

export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const received: ReceivedEmail[] = [];
  const waiters: { count: number; resolve: (emails: ReceivedEmail[]) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = session.envelope;
        received.push(
          parseEmail(
            Buffer.concat(chunks).toString('utf8'),
            envelope.mailFrom ? envelope.mailFrom.address : '',
            envelope.rcptTo.map((r) => r.address),
          ),
        );
        for (const waiter of waiters.filter((w) => received.length >= w.count)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(received.slice());
        }
        callback();
      });
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  const actual = (server.server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    received,
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const peer = await startSmtpPeer();
  await peer.close();
  return peer.port;
}

function unfoldHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_m, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  const input = value.replace(/=\r?\n/g, '');
  for (let i = 0; i < input.length; i++) {
    if (input[i] === '=' && /^[0-9A-F]{2}$/i.test(input.slice(i + 1, i + 3))) {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(input[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function split(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  return { headers: unfoldHeaders(raw.slice(0, end)), body: raw.slice(end + 4) };
}

function parseEmail(raw: string, from: string, to: string[]): ReceivedEmail {
  const { headers, body } = split(raw);
  const parts: { type: string; content: string }[] = [];
  const collect = (partHeaders: Map<string, string>, partBody: string) => {
    const type = partHeaders.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith('multipart/') && boundary) {
      for (const chunk of partBody.split(`--${boundary}`).slice(1)) {
        if (chunk.startsWith('--')) break;
        const inner = split(chunk.replace(/^\r\n/, ''));
        collect(inner.headers, inner.body.replace(/\r\n$/, ''));
      }
      return;
    }
    parts.push({ type: type.toLowerCase(), content: decodeBody(partBody, partHeaders.get('content-transfer-encoding')) });
  };
  collect(headers, body);
  return {
    from,
    to,
    raw,
    headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    messageId: headers.get('message-id') ?? '',
    text: parts.find((p) => p.type.startsWith('text/plain'))?.content ?? '',
    html: parts.find((p) => p.type.startsWith('text/html'))?.content ?? '',
  };
}
