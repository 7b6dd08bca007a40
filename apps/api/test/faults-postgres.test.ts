/**
 * PostgreSQL drops every connection of a running API process (docs/decisions/027): the
 * process stays up, requests meanwhile get a clean SERVICE_UNAVAILABLE, it reconnects by
 * itself and /health reports the outage and the recovery. The API runs as a real child
 * process on its own PostgreSQL role and schema; the test terminates only that role's
 * connections (pg_stat_activity by application_name) and locks only that role out.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, graphqlOver, until } from './support/api-process.ts';
import type { ApiProcess } from './support/api-process.ts';
import { POSTGRES_URL } from './support/database.ts';

const CODE_CHECK = 'query Check($code: String!) { registrationCodeDetails(registrationCode: $code) { errors } }';

type Answer = Awaited<ReturnType<typeof graphqlOver>>;

describe('PostgreSQL drops the connections of a running API', () => {
  const id = randomUUID().replaceAll('-', '').slice(0, 16);
  const role = `velvet_fault_${id}`;
  const schema = `test_fault_${id}`;
  const applicationName = `velvet-fault-${id}`;
  let admin: pg.Client;
  let api: ApiProcess | undefined;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create role ${role} login`);
    await admin.query(`create schema ${schema} authorization ${role}`);
    const url = new URL(POSTGRES_URL);
    url.username = role;
    url.password = '';
    url.searchParams.set('application_name', applicationName);
    url.searchParams.set('options', `-c search_path=${schema}`);
    api = await startApiProcess({ DATABASE_URL: url.toString(), RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '100000' });
  });

  afterAll(async () => {
    await api?.kill();
    if (!admin) return;
    await admin.query(`alter role ${role} login`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [role]);
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`drop role if exists ${role}`);
    await admin.end();
  });

  const terminateAll = async () =>
    (
      await admin.query<{ terminated: boolean }>(
        'select pg_terminate_backend(pid) as terminated from pg_stat_activity where application_name = $1',
        [applicationName],
      )
    ).rowCount ?? 0;

  /** Requests in `parallel` loops until `done()`; every answer is kept. */
  const load = (parallel: number, done: () => boolean) => {
    const answers: Answer[] = [];
    const loops = Array.from({ length: parallel }, async () => {
      while (!done()) {
        // A refused or reset connection (the process is gone) is an answer too: status 0.
        answers.push(await graphqlOver(api!.url, CODE_CHECK, { code: 'NO-SUCH-CODE' }).catch(() => ({ status: 0, body: {} })));
      }
    });
    return { answers, finished: Promise.all(loops) };
  };

  /** An answer a client can handle: data, or only SERVICE_UNAVAILABLE errors, always HTTP 200. */
  const clean = (answer: Answer) =>
    answer.status === 200 &&
    (answer.body.errors === undefined
      ? (answer.body.data as { registrationCodeDetails?: { errors: string[] } }).registrationCodeDetails?.errors[0] === 'REGISTRATION_CODE_INVALID'
      : answer.body.errors.every((e) => e.extensions?.code === 'SERVICE_UNAVAILABLE'));

  const unavailable = (answer: Answer) => answer.body.errors?.[0]?.extensions?.code === 'SERVICE_UNAVAILABLE';

  it('keeps running under load while every connection is terminated, answering SERVICE_UNAVAILABLE meanwhile', async ({ annotate }) => {
    let stop = false;
    const traffic = load(8, () => stop);
    let terminated = 0;
    try {
      for (let round = 0; round < 25; round++) {
        // Wait until the API has connections again (it reconnects on demand), then drop them all.
        terminated += await until('the API to hold database connections', async () => {
          const count = await terminateAll();
          return count > 0 ? count : undefined;
        });
      }
    } finally {
      stop = true;
      await traffic.finished;
    }
    expect(terminated).toBeGreaterThanOrEqual(25);
    await annotate(
      `${terminated} connections terminated; ${traffic.answers.length} answers, ${traffic.answers.filter(unavailable).length} of them SERVICE_UNAVAILABLE`,
    );
    expect(api!.exitCode(), api!.output()).toBeNull();
    expect(traffic.answers.filter((answer) => !clean(answer)), JSON.stringify(traffic.answers.filter((a) => !clean(a)).slice(0, 3))).toEqual([]);
    // After the storm it answers from the database again. The first request may still meet a
    // connection the last round ended whose end the pool has not read yet (one more
    // SERVICE_UNAVAILABLE, as above); the next ones reconnect.
    const after = await until('the API to answer from the database again', async () => {
      const answer = await graphqlOver(api!.url, CODE_CHECK, { code: 'NO-SUCH-CODE' });
      return unavailable(answer) ? undefined : answer;
    });
    expect(after.body).toEqual({ data: { registrationCodeDetails: { errors: ['REGISTRATION_CODE_INVALID'] } } });
  });

  it('reports a lasting outage on /health and in every answer, then recovers by itself', async () => {
    let stop = false;
    const traffic = load(4, () => stop);
    // The outage: the server refuses the API's role and drops what it has.
    await admin.query(`alter role ${role} nologin`);
    await terminateAll();
    const down = await until('/health to report the outage', async () => {
      const response = await fetch(`${api!.url}/health`);
      return response.status === 503 ? ((await response.json()) as unknown) : undefined;
    });
    expect(down).toEqual({ status: 'unavailable', database: 'unavailable' });

    const during = await graphqlOver(api!.url, CODE_CHECK, { code: 'NO-SUCH-CODE' });
    expect(during.status).toBe(200);
    expect(during.body.errors?.map((e) => e.extensions?.code)).toEqual(['SERVICE_UNAVAILABLE']);
    expect(during.body.errors?.[0]?.message).toBe('The service is temporarily unavailable. Please try again in a moment.');

    // Recovery: nobody restarts the API.
    await admin.query(`alter role ${role} login`);
    const up = await until('/health to report the recovery', async () => {
      const response = await fetch(`${api!.url}/health`);
      return response.status === 200 ? ((await response.json()) as unknown) : undefined;
    });
    expect(up).toEqual({ status: 'ok' });
    stop = true;
    await traffic.finished;
    expect(traffic.answers.filter((answer) => !clean(answer)), JSON.stringify(traffic.answers.filter((a) => !clean(a)).slice(0, 3))).toEqual([]);
    expect(traffic.answers.some(unavailable)).toBe(true);
    const after = await graphqlOver(api!.url, CODE_CHECK, { code: 'NO-SUCH-CODE' });
    expect(after.body).toEqual({ data: { registrationCodeDetails: { errors: ['REGISTRATION_CODE_INVALID'] } } });
    expect(api!.exitCode(), api!.output()).toBeNull();
  });
});
