/**
 * The verify-email page's websocket (spec §7.5, §8, §9) against a scripted server: a fake
 * WebSocket speaking graphql-transport-ws, the real graphql-ws client and the real time-outs
 * on fake timers. What the spec's close codes do: 4504 (the server never acknowledged), 4499
 * (a socket that stopped answering), 4205 (back online: a fresh socket at once) are retried
 * with the spec's back-off; the final codes stop; nothing reconnects in a loop, and the page
 * hears whenever the socket is not listening, so it polls instead of waiting.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACK_TIMEOUT_MS,
  CLOSE_ACK_TIMEOUT,
  CLOSE_RESTART,
  CLOSE_TERMINATED,
  KEEP_ALIVE_MS,
  PONG_TIMEOUT_MS,
  WS_RETRY_ATTEMPTS,
  watchRegistrationStatus,
} from '../app/lib/api/live-status.ts';
import type { RegistrationStatus } from '../app/lib/api/operations.ts';

type Frame = { type: string; id?: string; payload?: unknown };

/** How the scripted server treats a socket. */
interface Script {
  /** Answer connection_init (default true). */
  ack?: boolean;
  /** Right after the acknowledgement, close with this code (a proxy that drops every socket). */
  dropAfterAck?: number;
  /** Answer pings (default true). */
  pong?: boolean;
  /** A close of the client's never completes (the connection died with the old network). */
  deadOnClose?: boolean;
}

let script: Script = {};

class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];

  readyState = FakeSocket.CONNECTING;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  received: Frame[] = [];
  /** The code the client closed with, if it did, and when. */
  closedWith: { code: number; reason: string } | undefined;
  clientClosedAt: number | undefined;
  closedAt: number | undefined;
  readonly openedAt = Date.now();
  readonly script: Script = { ...script };

  constructor(
    readonly url: string,
    readonly protocol: string,
  ) {
    FakeSocket.all.push(this);
    queueMicrotask(() => {
      this.readyState = FakeSocket.OPEN;
      this.onopen?.();
    });
  }

  send(data: string) {
    const frame = JSON.parse(data) as Frame;
    this.received.push(frame);
    if (frame.type === 'connection_init' && this.script.ack !== false) {
      this.reply({ type: 'connection_ack' });
      if (this.script.dropAfterAck !== undefined) this.serverClose(this.script.dropAfterAck);
    } else if (frame.type === 'ping' && this.script.pong !== false) {
      this.reply({ type: 'pong' });
    } else if (frame.type === 'subscribe') {
      this.reply({ id: frame.id, type: 'next', payload: { data: { registrationStatus: { memberId: 'm-1', state: 'PENDING' } } } });
    }
  }

  close(code: number, reason: string) {
    if (this.readyState >= FakeSocket.CLOSING) return;
    this.closedWith = { code, reason };
    this.clientClosedAt = Date.now();
    this.readyState = FakeSocket.CLOSING;
    if (this.script.deadOnClose) return;
    queueMicrotask(() => this.finish(code, reason));
  }

  serverClose(code: number) {
    queueMicrotask(() => this.finish(code, 'server'));
  }

  private reply(frame: Frame) {
    queueMicrotask(() => {
      if (this.readyState === FakeSocket.OPEN) this.onmessage?.({ data: JSON.stringify(frame) });
    });
  }

  private finish(code: number, reason: string) {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.readyState = FakeSocket.CLOSED;
    this.closedAt = Date.now();
    this.onclose?.({ code, reason, wasClean: true });
  }
}

const win = Object.assign(new EventTarget(), {
  location: { href: 'https://club.example/de/registration/formfinished', pathname: '/de/registration/formfinished', search: '' },
});

function watch() {
  const statuses: RegistrationStatus[] = [];
  const live: boolean[] = [];
  const stop = watchRegistrationStatus(
    'm-1',
    { graphqlUrl: async () => 'https://api.club.example/graphql', token: () => null },
    (status) => statuses.push(status),
    (value) => live.push(value),
  );
  return { statuses, live, stop };
}

/** Lets promises run without moving the clock on. */
async function settle() {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Moves the clock on by `ms`, a step at a time, letting everything run as it would. */
async function run(ms: number, step = 50) {
  for (let passed = 0; passed < ms; passed += step) {
    await vi.advanceTimersByTimeAsync(step);
    for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
  }
}

const sockets = () => FakeSocket.all;
const last = () => FakeSocket.all.at(-1)!;
/** The time between a socket's end and the next one: the back-off. */
const gaps = () => sockets().slice(1).map((s, i) => s.openedAt - sockets()[i]!.closedAt!);

beforeAll(async () => {
  // Loaded once: the module's own dynamic import then resolves without a disk read.
  await import('graphql-ws');
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.spyOn(Math, 'random').mockReturnValue(0);
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('window', win);
  vi.stubGlobal('document', { querySelector: () => null });
  FakeSocket.all = [];
  script = {};
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the verify-email page’s websocket', () => {
  it('4504: a server that never acknowledges is left after 5 s, retried from 1 s doubling, five times, then the page polls for good', async () => {
    script = { ack: false };
    const { live, stop } = watch();
    await settle();
    expect(sockets()).toHaveLength(1);
    expect(last().received.map((f) => f.type)).toEqual(['connection_init']);
    await run(ACK_TIMEOUT_MS - 100);
    expect(last().closedWith).toBeUndefined();

    await run(5 * 60_000, 100);
    // One socket and five retries, each closed with 4504 after 5 s unanswered, spaced 1, 2, 4,
    // 8, 16 s (jitter 0 here): never a loop, and then no more.
    expect(sockets()).toHaveLength(1 + WS_RETRY_ATTEMPTS);
    for (const socket of sockets()) {
      expect(socket.closedWith).toEqual({ code: CLOSE_ACK_TIMEOUT, reason: 'Connection acknowledgement timeout' });
      expect(socket.clientClosedAt! - socket.openedAt).toBe(ACK_TIMEOUT_MS);
    }
    expect(gaps()).toEqual([1000, 2000, 4000, 8000, 16_000]);
    // The page polls meanwhile, and for good afterwards.
    expect(live).not.toContain(true);
    expect(live.at(-1)).toBe(false);
    expect(live.length).toBeGreaterThan(0);
    stop();
  });

  it('4205: back online, the socket is closed as a restart and a new one says the current state at once — as often as the network comes back', async () => {
    const { statuses, live, stop } = watch();
    await settle();
    expect(live).toEqual([true]);
    expect(statuses).toEqual([{ memberId: 'm-1', state: 'PENDING' }]);

    for (let restart = 1; restart <= 8; restart += 1) {
      const before = last();
      win.dispatchEvent(new Event('online'));
      await settle();
      expect(before.closedWith).toEqual({ code: CLOSE_RESTART, reason: 'Client Restart' });
      expect(live.at(-1)).toBe(false);
      await vi.advanceTimersByTimeAsync(1000);
      await settle();
      expect(last()).not.toBe(before);
      expect(live.at(-1)).toBe(true);
      expect(statuses).toHaveLength(1 + restart);
    }
    // A restart is no failure: eight of them never exhaust the five retries.
    expect(sockets()).toHaveLength(9);
    stop();
  });

  it('4205 on a socket that died with the old network: ended (4499) when it does not close, then replaced', async () => {
    script = { deadOnClose: true };
    const { live, stop } = watch();
    await settle();
    const dead = last();
    win.dispatchEvent(new Event('online'));
    await settle();
    expect(dead.closedWith?.code).toBe(CLOSE_RESTART);
    expect(sockets()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(PONG_TIMEOUT_MS);
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(sockets()).toHaveLength(2);
    expect(live.at(-1)).toBe(true);
    stop();
  });

  it('4499: a socket whose pings go unanswered is ended and replaced; the page polls in between', async () => {
    script = { pong: false };
    const { statuses, live, stop } = watch();
    await settle();
    const frozen = last();
    script = {};
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS);
    await settle();
    expect(frozen.received.map((f) => f.type)).toContain('ping');
    expect(frozen.closedWith).toBeUndefined();
    await vi.advanceTimersByTimeAsync(PONG_TIMEOUT_MS);
    await settle();
    expect(frozen.closedWith?.code).toBe(CLOSE_TERMINATED);
    expect(live).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(sockets()).toHaveLength(2);
    expect(live).toEqual([true, false, true]);
    expect(statuses).toHaveLength(2);
    // The new socket answers its pings: it stays.
    await vi.advanceTimersByTimeAsync(3 * KEEP_ALIVE_MS);
    await settle();
    expect(sockets()).toHaveLength(2);
    stop();
  });

  it.each([CLOSE_ACK_TIMEOUT, CLOSE_RESTART, 1001])(
    'a server that acknowledges and then closes every socket (%i) is retried with the back-off, five times, then the page polls for good',
    async (code) => {
      script = { dropAfterAck: code };
      const { live, stop } = watch();
      await settle();
      await run(5 * 60_000, 100);
      expect(sockets()).toHaveLength(1 + WS_RETRY_ATTEMPTS);
      expect(gaps()).toEqual([1000, 2000, 4000, 8000, 16_000]);
      expect(live.at(-1)).toBe(false);
      stop();
    },
  );

  it('a final code (4401) ends the attempts at once and the page polls', async () => {
    script = { dropAfterAck: 4401 };
    const { live, stop } = watch();
    await settle();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(sockets()).toHaveLength(1);
    expect(live.at(-1)).toBe(false);
    stop();
  });
});
