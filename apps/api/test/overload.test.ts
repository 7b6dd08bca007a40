/**
 * Overload is not an outage (ADR 052): beyond what the database's pool can take, operations wait
 * in a short line and the rest are answered OVERLOADED at once — never SERVICE_UNAVAILABLE, never
 * after seconds; /health stays 200 while the database answers; every registration accepted is
 * complete in the database and no shed one was written.
 *
 * The flood is made deterministic by taking every connection of the API's pool (PostgreSQL: the
 * pool's DATABASE_POOL_SIZE connections; SQLite: its one connection) from the test: the operations
 * admitted then wait for the database, so the line fills and times out exactly as under a real
 * overload, with no sleeps; giving the connections back lets the admitted ones finish.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAdmission } from '../src/http/admission.ts';
import type { Admission } from '../src/http/admission.ts';
import { createTestApi } from './support/api.ts';
import type { TestApi } from './support/api.ts';
import { createTestDatabase, deleteAllData, ENGINES } from './support/database.ts';
import type { TestDatabase } from './support/database.ts';
import { testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { REGISTER, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

describe('the admission line', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const enterAll = (admission: Admission, count: number) => Array.from({ length: count }, () => admission.enter());

  it('runs `concurrency` at once, lets `queueLimit` wait, and sheds the next at once', async () => {
    const admission = createAdmission({ concurrency: 2, queueLimit: 1, queueWaitMs: 500 });
    const [a, b, c, d] = enterAll(admission, 4);
    const [first, second] = await Promise.all([a, b]);
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(await d).toBeNull();
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 2, waiting: 1 });
    // A turn ended: the first in line takes it.
    first!();
    const third = await c;
    expect(third).toBeTypeOf('function');
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 2, waiting: 0 });
    second!();
    third!();
    expect(admission.running).toBe(0);
  });

  it('first come, first served; a turn released twice frees one place', async () => {
    const admission = createAdmission({ concurrency: 1, queueLimit: 5, queueWaitMs: 500 });
    const release = await admission.enter();
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => admission.enter().then((turn) => (order.push(n), turn)));
    release!();
    release!();
    const one = await waiting[0];
    expect(admission.running).toBe(1);
    one!();
    const two = await waiting[1];
    two!();
    const three = await waiting[2];
    three!();
    expect(order).toEqual([1, 2, 3]);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 0, waiting: 0 });
  });

  it('serves the newest first once the line stands (its oldest waited half the wait), the oldest while it moves', async () => {
    const admission = createAdmission({ concurrency: 1, queueLimit: 5, queueWaitMs: 500 });
    const release = await admission.enter();
    const order: string[] = [];
    const oldest = admission.enter().then((turn) => (order.push('oldest'), turn));
    await vi.advanceTimersByTimeAsync(300);
    const newest = admission.enter().then((turn) => (order.push('newest'), turn));
    release!();
    const newestTurn = await newest;
    expect(order).toEqual(['newest']);
    newestTurn!();
    const oldestTurn = await oldest;
    expect(order).toEqual(['newest', 'oldest']);
    oldestTurn!();
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 0, waiting: 0 });
  });

  it('sheds one that waited `queueWaitMs` without a turn, and leaves the others in line', async () => {
    const admission = createAdmission({ concurrency: 1, queueLimit: 5, queueWaitMs: 500 });
    const release = await admission.enter();
    const early = admission.enter();
    await vi.advanceTimersByTimeAsync(300);
    const late = admission.enter();
    await vi.advanceTimersByTimeAsync(200);
    expect(await early).toBeNull();
    expect(admission.waiting).toBe(1);
    release!();
    const turn = await late;
    expect(turn).toBeTypeOf('function');
    turn!();
    expect(admission.running).toBe(0);
  });

  it('with no line at all, sheds whatever finds every turn taken', async () => {
    const admission = createAdmission({ concurrency: 1, queueLimit: 0, queueWaitMs: 500 });
    const release = await admission.enter();
    expect(await admission.enter()).toBeNull();
    release!();
    expect(await admission.enter()).toBeTypeOf('function');
  });
});

const POOL = 2;
const QUEUE = 3;
const QUEUE_WAIT_MS = 300;
/** Every answer of a flood comes within this; the admitted ones also wait for the test to give the pool back. */
const QUICK_MS = 1_000;

interface Answer {
  email: string;
  outcome: 'accepted' | 'shed' | string;
  ms: number;
}

describe.each(ENGINES)('a flood of registrations beyond the pool on %s', (engine) => {
  const database = {} as TestDatabase;
  const api = {} as TestApi;
  beforeAll(async () => {
    Object.assign(database, await createTestDatabase(engine, { poolSize: POOL }));
    const env = testEnv({ DATABASE_POOL_SIZE: String(POOL), DATABASE_QUEUE_LIMIT: String(QUEUE), DATABASE_QUEUE_WAIT_MS: String(QUEUE_WAIT_MS) });
    Object.assign(api, await createTestApi({ env, db: database.db }));
  });
  afterEach(async () => {
    await deleteAllData(database.db);
  });
  afterAll(async () => {
    await api.close?.();
    await database.close?.();
  });

  async function register(code: string, email = uniqueEmail('flood')): Promise<Answer> {
    const started = performance.now();
    const { status, body } = await graphql<{ register: RegisterPayload | null }>(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
    const ms = performance.now() - started;
    expect(status).toBe(200);
    if (body.data?.register?.outcome === 'FORM_FINISHED') return { email, outcome: 'accepted', ms };
    const codes = body.errors?.map((error) => error.extensions?.code);
    if (codes?.length === 1 && codes[0] === 'OVERLOADED') {
      expect(body.errors?.[0]).toMatchObject({ message: 'The service is busy. Please try again in a moment.', extensions: { retryAfterSeconds: 1 } });
      return { email, outcome: 'shed', ms };
    }
    return { email, outcome: JSON.stringify(body), ms };
  }

  async function health(): Promise<{ status: number; body: unknown; ms: number }> {
    const started = performance.now();
    const response = await api.yoga.fetch('http://localhost/health');
    return { status: response.status, body: await response.json(), ms: performance.now() - started };
  }

  /** Takes every connection of the API's pool until `giveBack()`. */
  async function takeThePool() {
    const connections = engine === 'postgres' ? POOL : 1;
    let giveBack!: () => void;
    const given = new Promise<void>((resolve) => (giveBack = resolve));
    let taken = 0;
    let tookAll!: () => void;
    const allTaken = new Promise<void>((resolve) => (tookAll = resolve));
    const holders = Array.from({ length: connections }, () =>
      database.db.connection().execute(async () => {
        taken += 1;
        if (taken === connections) tookAll();
        await given;
      }),
    );
    await allTaken;
    return {
      async giveBack() {
        giveBack();
        await Promise.all(holders);
      },
    };
  }

  /** Every registration accepted is complete: a pending member on the code, their consent, an activation link and the activation email. */
  async function expectComplete(codeId: string, emails: string[]) {
    if (emails.length === 0) return;
    const members = await database.db.selectFrom('members').select(['id', 'email', 'status', 'registration_code_id']).where('email', 'in', emails).execute();
    expect(members.map((m) => m.email).sort()).toEqual([...emails].sort());
    for (const member of members) {
      expect(member).toMatchObject({ status: 'pending', registration_code_id: codeId });
      const ids = [member.id];
      expect(await database.db.selectFrom('consents').select('id').where('member_id', 'in', ids).execute()).toHaveLength(1);
      expect(await database.db.selectFrom('activations').select('id').where('member_id', 'in', ids).execute()).toHaveLength(1);
      const emailsQueued = await database.db.selectFrom('email_outbox').select('id').where('recipient', '=', member.email).where('template', '=', 'activation').execute();
      expect(emailsQueued).toHaveLength(1);
    }
  }

  async function expectNoneWritten(emails: string[]) {
    if (emails.length === 0) return;
    expect(await database.db.selectFrom('members').select('email').where('email', 'in', emails).execute()).toEqual([]);
    expect(await database.db.selectFrom('email_outbox').select('recipient').where('recipient', 'in', emails).execute()).toEqual([]);
  }

  it('sheds at once what neither the pool nor the line can take, keeps /health 200, and completes every registration it accepted', async () => {
    const { id: codeId, code } = await insertCode(database.db, { balance: 1000 });
    const pool = await takeThePool();
    const FLOOD = 20;
    let answered = 0;
    let allButAdmitted!: () => void;
    const onlyAdmittedLeft = new Promise<void>((resolve) => (allButAdmitted = resolve));
    const flood = Array.from({ length: FLOOD }, () =>
      register(code).then((answer) => {
        answered += 1;
        if (answered === FLOOD - POOL) allButAdmitted();
        return answer;
      }),
    );

    // The pool is all taken and the line is full: the database is fine, /health says so at once.
    const during = await health();
    expect(during.status).toBe(200);
    expect(during.body).toEqual({ status: 'ok' });
    expect(during.ms).toBeLessThan(QUICK_MS);

    // Everything but the POOL admitted operations is answered while they still wait for the database.
    await onlyAdmittedLeft;
    expect(answered).toBe(FLOOD - POOL);
    expect((await health()).status).toBe(200);
    await pool.giveBack();
    const answers = await Promise.all(flood);

    const accepted = answers.filter((a) => a.outcome === 'accepted');
    const shed = answers.filter((a) => a.outcome === 'shed');
    expect(answers.filter((a) => a.outcome !== 'accepted' && a.outcome !== 'shed')).toEqual([]);
    expect(accepted).toHaveLength(POOL);
    expect(shed).toHaveLength(FLOOD - POOL);
    // QUEUE of them waited their QUEUE_WAIT_MS in line; the rest found it full and were told at once
    // (halfway between the two: timers may fire a little early against performance.now()).
    expect(shed.filter((a) => a.ms >= QUEUE_WAIT_MS / 2)).toHaveLength(QUEUE);
    for (const answer of shed) expect(answer.ms).toBeLessThan(QUICK_MS);
    for (const answer of accepted) expect(answer.ms).toBeLessThan(5 * QUICK_MS);

    await expectComplete(codeId, accepted.map((a) => a.email));
    await expectNoneWritten(shed.map((a) => a.email));

    // Every turn was given back: the next registrations run at once.
    const after = [await register(code), await register(code)];
    expect(after.map((a) => a.outcome)).toEqual(['accepted', 'accepted']);
    await expectComplete(codeId, [...accepted, ...after].map((a) => a.email));
  });

  it('under a flood of simultaneous registrations nobody waits long, and each answer is a registration or OVERLOADED', async () => {
    const { id: codeId, code } = await insertCode(database.db, { balance: 1000 });
    const FLOOD = 60;
    const flood = Promise.all(Array.from({ length: FLOOD }, () => register(code)));
    const during = await health();
    const answers = await flood;
    expect(during.status).toBe(200);
    expect(during.ms).toBeLessThan(QUICK_MS);

    const accepted = answers.filter((a) => a.outcome === 'accepted');
    const shed = answers.filter((a) => a.outcome === 'shed');
    expect(answers.filter((a) => a.outcome !== 'accepted' && a.outcome !== 'shed')).toEqual([]);
    expect(accepted.length).toBeGreaterThanOrEqual(POOL);
    // Nobody waits tens of seconds: at most the line's wait plus the work of a line's length of registrations.
    for (const answer of answers) expect(answer.ms).toBeLessThan(5 * QUICK_MS);
    for (const answer of shed) expect(answer.ms).toBeLessThan(QUICK_MS + QUEUE_WAIT_MS);
    await expectComplete(codeId, accepted.map((a) => a.email));
    await expectNoneWritten(shed.map((a) => a.email));
  });
});
