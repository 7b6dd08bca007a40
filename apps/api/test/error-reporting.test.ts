/** Unexpected API errors reach the error-reporting service (a local HTTP collector here), scrubbed. */
import { EventEmitter, once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorReport } from '@velvet/error-reporting/reporter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi } from './support/api.ts';
import { createTestDatabase } from './support/database.ts';
import { testEnv } from './support/env.ts';
import { graphql } from './support/graphql.ts';

describe('error reports from the API', () => {
  const received: string[] = [];
  const arrivals = new EventEmitter();
  const collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(body);
      arrivals.emit('report', body);
      res.writeHead(204).end();
    });
  });
  /** The next report the collector receives. */
  const nextReport = async () => ((await once(arrivals, 'report')) as [string])[0];
  /** A GraphQL call that fails unexpectedly: its database is gone. */
  async function failingCall(env: ReturnType<typeof testEnv>, correlationId: string) {
    const broken = await createTestDatabase('sqlite');
    const api = await createTestApi({ env, db: broken.db });
    await broken.close();
    const { body } = await graphql(api.yoga, '{ registrationCodeDetails(registrationCode: "WHATEVER") { errors } }', {
      headers: { 'x-correlation-id': correlationId, 'x-source-page': '/registration?firstName=Jane&email=jane.doe%40example.com&rc=WHATEVER' },
    });
    await api.close();
    return body;
  }
  let url: string;
  beforeAll(async () => {
    collector.listen(0, '127.0.0.1');
    await once(collector, 'listening');
    url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/collect`;
  });
  afterAll(() => {
    collector.close();
  });

  it('sends an unexpected error with its page and correlation id, and nothing personal', async () => {
    received.length = 0;
    const arrived = nextReport();
    const body = await failingCall(testEnv({ ERROR_REPORTING_URL: url }), 'report-me');
    expect(body.errors?.[0]?.message).toBe('Unexpected error.');
    const sent = await arrived;
    expect(received).toEqual([sent]);
    const report = JSON.parse(sent) as ErrorReport;
    expect(report).toMatchObject({ platform: 'node', logger: 'api', level: 'error', tags: { correlationId: 'report-me' } });
    expect(report.transaction).toBe('/registration?firstName=[Filtered]&email=[Filtered]&rc=WHATEVER');
    expect(sent).not.toMatch(/Jane|jane/);
  });

  it('sends nothing when ERROR_REPORTING_URL is unset', async () => {
    received.length = 0;
    const body = await failingCall(testEnv(), 'unset');
    expect(body.errors?.[0]?.message).toBe('Unexpected error.');
    // A definite later signal instead of a pause: the same failure in an API that does report.
    // The reporter sends while the call is handled, so a report of the first call would have
    // been on its way before the second call began; only the second one arrives.
    const arrived = nextReport();
    await failingCall(testEnv({ ERROR_REPORTING_URL: url }), 'reported');
    await arrived;
    expect(received.map((sent) => (JSON.parse(sent) as ErrorReport).tags.correlationId)).toEqual(['reported']);
  });
});
