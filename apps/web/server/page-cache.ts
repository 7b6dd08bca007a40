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
 */
import { randomUUID } from 'node:crypto';

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

interface Entry {
  status: number;
  headers: [string, string][];
  /** The HTML around the slots, encoded once: parts[0] slot[0] parts[1] slot[1] … parts[n]. */
  parts: Buffer[];
  slots: Slot[];
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

  /** The cached response for `key` with this response's values filled in, or null. */
  get(key: string, values: Omit<PageSlots, 'sessionId'>): { status: number; headers: [string, string][]; body: Buffer } | null {
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
    const chunks: Buffer[] = [entry.parts[0]!];
    for (let i = 0; i < entry.slots.length; i++) chunks.push(Buffer.from(String(filled[entry.slots[i]!])), entry.parts[i + 1]!);
    return { status: entry.status, headers: entry.headers, body: Buffer.concat(chunks) };
  }

  /** Keeps a complete response rendered with `values` under `key`, if it may be kept. */
  set(key: string, response: { status: number; headers: Headers; body: string }, values: PageSlots, calendarValidUntil: number): boolean {
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !type.startsWith('text/html') || response.headers.has('set-cookie')) return false;
    const { parts, slots } = toTemplate(response.body, values);
    // A page without its nonce was not rendered the usual way: not one to repeat.
    if (!slots.includes('nonce')) return false;
    this.entries.delete(key);
    const headers = [...response.headers.entries()].filter(([name]) => name !== 'content-length' && name !== 'transfer-encoding');
    this.entries.set(key, { status: response.status, headers, parts: parts.map((part) => Buffer.from(part)), slots, storedAt: this.clock(), calendarValidUntil });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return true;
  }

  clear(): void {
    this.entries.clear();
  }
}
