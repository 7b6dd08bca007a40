/** Unexpected API errors reach the error-reporting service (a local HTTP collector here), scrubbed. */
import { once } from 'node:events';
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
  const collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
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
    const broken = await createTestDatabase('sqlite');
    const api = await createTestApi({ env: testEnv({ ERROR_REPORTING_URL: url }), db: broken.db });
    await broken.close();
    const { body } = await graphql(api.yoga, '{ registrationCodeDetails(registrationCode: "WHATEVER") { errors } }', {
      headers: { 'x-correlation-id': 'report-me', 'x-source-page': '/registration?firstName=Jane&email=jane.doe%40example.com&rc=WHATEVER' },
    });
    expect(body.errors?.[0]?.message).toBe('Unexpected error.');
    const deadline = Date.now() + 5_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toHaveLength(1);
    const report = JSON.parse(received[0]!) as ErrorReport;
    expect(report).toMatchObject({ platform: 'node', logger: 'api', level: 'error', tags: { correlationId: 'report-me' } });
    expect(report.transaction).toBe('/registration?firstName=[Filtered]&email=[Filtered]&rc=WHATEVER');
    expect(received[0]).not.toMatch(/Jane|jane/);
    await api.close();
  });

  it('sends nothing when ERROR_REPORTING_URL is unset', async () => {
    received.length = 0;
    const broken = await createTestDatabase('sqlite');
    const api = await createTestApi({ env: testEnv(), db: broken.db });
    await broken.close();
    await graphql(api.yoga, '{ registrationCodeDetails(registrationCode: "WHATEVER") { errors } }');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);
    await api.close();
  });
});
