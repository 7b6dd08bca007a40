/**
 * The page cache (ADR 039): anonymous public pages rendered once per key (path, language,
 * country, features revision and feature values, … — `app/lib/page-cache.server.ts` decides
 * what may be cached and under which key) and served from memory.
 *
 * What differs from one response to the next is never cached: the render's CSP nonce, its
 * page-load id (X-Session-ID, ADR 022), the visitor's anonymous id, the calendar's instant and
 * the public forms' signed rendering instant (ADR 041) are cut out of the stored HTML, and every response gets its own again: the nonce the
 * security headers announced for it, a fresh page-load id, the anonymous id its key was
 * evaluated with, the request's instant. Only complete 200 HTML responses without Set-Cookie
 * are kept; an entry lives until the page's calendar changes, at most `maxAgeMs`, and the
 * least recently used entries go beyond `maxEntries`. A flag change reaches the key at once:
 * the key holds the features payload's revision and the feature values.
 *
 * Each entry also keeps its text compressed once (ADR 051): every part between two slots as
 * its own raw-deflate run, ended by a sync flush, so a response's gzip body is those runs with
 * its own values between them as stored (uncompressed) blocks, a header and a trailer — a
 * valid single gzip stream, made without compressing anything per response. Each run may
 * refer back to the page before it (a preset dictionary of the last 32 KiB, the slots blanked
 * with a byte the HTML never holds, so no reference lands in a value): compressed apart, the
 * parts come out as small as the page compressed whole. That needs every value as long as the
 * stored render's (nonces, UUIDs, instants are); a response whose values differ in length is
 * compressed whole instead.
 */
import { randomUUID } from 'node:crypto';
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** What one response fills into a cached page. */
export interface PageSlots {
  nonce: string;
  sessionId: string;
  anonymousId: string;
  /** The calendar's instant (ms), as the root loader hands it to the page. */
  now: number;
  /** The public forms' signed rendering instant (ADR 041): a cached page must not keep an old one. */
  formStartedAt: string;
}

type Slot = keyof PageSlots;

/** A header value with the response's nonce cut out: parts[0] nonce parts[1] … */
type HeaderTemplate = [name: string, parts: string[]];

interface Entry {
  status: number;
  headers: [string, string][];
  /** The HTML around the slots, encoded once: parts[0] slot[0] parts[1] slot[1] … parts[n]. */
  parts: Buffer[];
  /** The same parts, each compressed as a raw-deflate run ending byte-aligned (sync flush), referring back only to parts. */
  deflated: Buffer[];
  slots: Slot[];
  /** Each slot's length in bytes in the stored render: the compressed runs' back-references count on them. */
  slotLengths: number[];
  /** The headers Express's middleware gave the stored response (security headers…), for answers made before Express. */
  front: HeaderTemplate[] | null;
  storedAt: number;
  calendarValidUntil: number;
}

export interface PageCacheOptions {
  maxEntries?: number;
  maxAgeMs?: number;
  /** The real clock (tests move it). */
  clock?: () => number;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The HTML as a template: every occurrence of the response's own values becomes a slot. */
export function toTemplate(html: string, values: PageSlots): { parts: string[]; slots: Slot[] } {
  const bySource = new Map<string, Slot>([
    [values.nonce, 'nonce'],
    [values.sessionId, 'sessionId'],
    [values.anonymousId, 'anonymousId'],
    [values.formStartedAt, 'formStartedAt'],
  ]);
  const pattern = new RegExp(
    `${[...bySource.keys()].filter(Boolean).map(escapeRegExp).join('|')}|(?<![0-9.])${values.now}(?![0-9.])`,
    'g',
  );
  const parts: string[] = [];
  const slots: Slot[] = [];
  let last = 0;
  for (const match of html.matchAll(pattern)) {
    parts.push(html.slice(last, match.index));
    slots.push(bySource.get(match[0]) ?? 'now');
    last = match.index + match[0].length;
  }
  parts.push(html.slice(last));
  return { parts, slots };
}

export function fromTemplate(parts: string[], slots: Slot[], values: PageSlots): string {
  let html = parts[0] ?? '';
  for (let i = 0; i < slots.length; i++) html += String(values[slots[i]!]) + parts[i + 1];
  return html;
}

/** An answer from the cache: the page's own headers, the front headers with this response's nonce, the body as asked for. */
export interface CachedAnswer {
  status: number;
  headers: [string, string][];
  /** Null when the page was stored without them (the Express path sets its own). */
  front: [string, string][] | null;
  body: Buffer;
  encoding: 'gzip' | 'identity';
}

/** Headers that belong to one response, never to a stored page. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'x-correlation-id', 'x-page-cache', 'set-cookie', 'date', 'connection', 'keep-alive']);

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A last, empty stored block: BFINAL=1, BTYPE=00, LEN=0, NLEN=0xffff. */
const LAST_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);
const STORED_MAX = 0xffff;

/** `data` as stored deflate blocks (not final): the stream is byte-aligned before and after. */
function storedBlocks(data: Buffer, into: Buffer[]): void {
  for (let offset = 0; offset < data.length; offset += STORED_MAX) {
    const chunk = data.subarray(offset, offset + STORED_MAX);
    const head = Buffer.allocUnsafe(5);
    head[0] = 0;
    head.writeUInt16LE(chunk.length, 1);
    head.writeUInt16LE(~chunk.length & 0xffff, 3);
    into.push(head, chunk);
  }
}

/** A gzip stream of `raw` (the identity chunks) where `deflated[i]` compresses `raw[2i]` and `raw[2i+1]` is a slot's value. */
export function stitchGzip(raw: Buffer[], deflated: Buffer[]): Buffer {
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  for (let i = 0; i < raw.length; i++) {
    const chunk = raw[i]!;
    crc = crc32(chunk, crc);
    size += chunk.length;
    if (i % 2 === 0) out.push(deflated[i / 2]!);
    else storedBlocks(chunk, out);
  }
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  out.push(LAST_BLOCK, trailer);
  return Buffer.concat(out);
}

const WINDOW = 32 * 1024;
const BLANK = 0;

/**
 * The parts compressed as runs of one deflate stream: each with the 32 KiB before it as its
 * dictionary, the slots in it blanked. A part holding the blank byte itself gets no dictionary
 * (it could match a blank), nor does the first.
 */
function deflateParts(parts: Buffer[], slotLengths: number[]): Buffer[] {
  const options = { level: constants.Z_BEST_COMPRESSION, finishFlush: constants.Z_SYNC_FLUSH };
  const before: Buffer[] = [];
  let length = 0;
  return parts.map((part, i) => {
    const history = Buffer.concat(before, length).subarray(Math.max(0, length - WINDOW));
    const deflated = history.length > 0 && !part.includes(BLANK) ? deflateRawSync(part, { ...options, dictionary: history }) : deflateRawSync(part, options);
    const blank = Buffer.alloc(slotLengths[i] ?? 0, BLANK);
    before.push(part, blank);
    length += part.length + blank.length;
    return deflated;
  });
}

function headerTemplates(headers: [string, string][], nonce: string): HeaderTemplate[] {
  return headers.filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())).map(([name, value]) => [name, value.split(nonce)]);
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly clock: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 500;
    this.maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
    this.clock = options.clock ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached response for `key` with this response's values filled in, gzip-encoded when asked for, or null. */
  get(key: string, values: Omit<PageSlots, 'sessionId'>, options: { gzip?: boolean } = {}): CachedAnswer | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (this.clock() - entry.storedAt >= this.maxAgeMs || values.now >= entry.calendarValidUntil) {
      this.entries.delete(key);
      return null;
    }
    // Most recently used last: the first entry is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, entry);
    const filled: PageSlots = { ...values, sessionId: randomUUID() };
    const raw: Buffer[] = [entry.parts[0]!];
    for (let i = 0; i < entry.slots.length; i++) raw.push(Buffer.from(String(filled[entry.slots[i]!])), entry.parts[i + 1]!);
    const front = entry.front && entry.front.map(([name, parts]): [string, string] => [name, parts.join(values.nonce)]);
    const answer = { status: entry.status, headers: entry.headers, front };
    if (!options.gzip) return { ...answer, body: Buffer.concat(raw), encoding: 'identity' };
    const stitchable = entry.slotLengths.every((length, i) => raw[2 * i + 1]!.length === length);
    return { ...answer, body: stitchable ? stitchGzip(raw, entry.deflated) : gzipSync(Buffer.concat(raw)), encoding: 'gzip' };
  }

  /**
   * Keeps a complete response rendered with `values` under `key`, if it may be kept. `front`: the
   * headers the middleware before the page set on it (they carry `values.nonce` where the CSP names it).
   */
  set(
    key: string,
    response: { status: number; headers: Headers; body: string },
    values: PageSlots,
    calendarValidUntil: number,
    front?: [string, string][],
  ): boolean {
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !type.startsWith('text/html') || response.headers.has('set-cookie')) return false;
    const { parts, slots } = toTemplate(response.body, values);
    // A page without its nonce was not rendered the usual way: not one to repeat.
    if (!slots.includes('nonce')) return false;
    this.entries.delete(key);
    const headers = [...response.headers.entries()].filter(([name]) => !OWN_HEADERS.has(name));
    const encoded = parts.map((part) => Buffer.from(part));
    const slotLengths = slots.map((slot) => Buffer.byteLength(String(values[slot])));
    this.entries.set(key, {
      status: response.status,
      headers,
      parts: encoded,
      deflated: deflateParts(encoded, slotLengths),
      slots,
      slotLengths,
      front: front ? headerTemplates(front, values.nonce) : null,
      storedAt: this.clock(),
      calendarValidUntil,
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return true;
  }

  clear(): void {
    this.entries.clear();
  }
}
