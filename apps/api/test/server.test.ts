/** HTTP behaviour and hardening of the API, through yoga.fetch and (for WebSockets) a loopback port. */
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../src/logger.ts';
import { createApiServer } from '../src/server.ts';
import { createTestApi, logCollector } from './support/api.ts';
import type { TestApi } from './support/api.ts';
import { createTestDatabase, deleteAllData } from './support/database.ts';
import type { TestDatabase } from './support/database.ts';
import { testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';

const COUNTRY = '{ countryDetails { country } }';

describe('API server', () => {
  let database: TestDatabase;
  const logs = logCollector();
  let api: TestApi;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    api = await createTestApi({ env: testEnv({ LOG_LEVEL: 'info' }), db: database.db, logDestination: logs });
  });
  afterEach(async () => {
    await deleteAllData(database.db);
    logs.lines.length = 0;
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  describe('correlation', () => {
    it('echoes X-Correlation-ID and logs it, with the session id and source page', async () => {
      const { headers, status } = await graphql(api.yoga, COUNTRY, {
        headers: { 'x-correlation-id': 'acq-web-1234', 'x-session-id': 'session-42', 'x-source-page': '/de/' },
      });
      expect(status).toBe(200);
      expect(headers.get('x-correlation-id')).toBe('acq-web-1234');
      const requestLog = logs.lines.find((line) => line.msg === 'request');
      expect(requestLog).toMatchObject({
        correlationId: 'acq-web-1234',
        sessionId: 'session-42',
        sourcePage: '/de/',
        method: 'POST',
        path: '/graphql',
        status: 200,
      });
    });

    it('generates api-<uuid> when the header is absent or malformed', async () => {
      for (const headers of [{}, { 'x-correlation-id': 'bad id with spaces' }] as Record<string, string>[]) {
        const response = await graphql(api.yoga, COUNTRY, { headers });
        expect(response.headers.get('x-correlation-id')).toMatch(/^api-[0-9a-f-]{36}$/);
      }
    });

    it('puts the correlation id on every log line of the request', async () => {
      await graphql(api.yoga, COUNTRY, { headers: { 'x-correlation-id': 'trace-me' } });
      expect(logs.lines.length).toBeGreaterThan(0);
      for (const line of logs.lines) expect(line.correlationId).toBe('trace-me');
    });
  });

  describe('countryDetails', () => {
    it.each([
      ['de-AT,de;q=0.9,en;q=0.8', 'AT'],
      ['en-US;q=0.5, fr-BE', 'BE'],
      ['en-US,en;q=0.9', null],
      ['de', null],
      ['zh-Hant-TW, nl-NL;q=0.1', 'NL'],
      ['!!!, it-IT', 'IT'],
    ])('uses the region of Accept-Language %j -> %s', async (acceptLanguage, country) => {
      const { body } = await graphql(api.yoga, COUNTRY, { headers: { 'accept-language': acceptLanguage } });
      expect(body.data).toEqual({ countryDetails: { country } });
    });

    it('is null without any hint', async () => {
      expect((await graphql(api.yoga, COUNTRY)).body.data).toEqual({ countryDetails: { country: null } });
    });

    it('ignores a country header unless TRUSTED_COUNTRY_HEADER names it', async () => {
      const { body } = await graphql(api.yoga, COUNTRY, { headers: { 'cf-ipcountry': 'FR' } });
      expect(body.data).toEqual({ countryDetails: { country: null } });
    });

    it('prefers the trusted header and falls back when it is unsupported', async () => {
      const trusted = await createTestApi({ env: testEnv({ TRUSTED_COUNTRY_HEADER: 'CF-IPCountry' }), db: database.db });
      try {
        const fromHeader = await graphql(trusted.yoga, COUNTRY, { headers: { 'cf-ipcountry': 'fr', 'accept-language': 'de-AT' } });
        expect(fromHeader.body.data).toEqual({ countryDetails: { country: 'FR' } });
        const unsupported = await graphql(trusted.yoga, COUNTRY, { headers: { 'cf-ipcountry': 'US', 'accept-language': 'de-AT' } });
        expect(unsupported.body.data).toEqual({ countryDetails: { country: 'AT' } });
        const neither = await graphql(trusted.yoga, COUNTRY, { headers: { 'cf-ipcountry': 'XX' } });
        expect(neither.body.data).toEqual({ countryDetails: { country: null } });
      } finally {
        await trusted.close();
      }
    });
  });

  describe('health', () => {
    it('answers GET /health with {status:"ok"} after pinging the database', async () => {
      const response = await api.yoga.fetch('http://localhost/health');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    });

    it('answers 503 when the database is gone', async () => {
      const broken = await createTestDatabase('sqlite');
      const brokenApi = await createTestApi({ env: testEnv(), db: broken.db });
      await broken.close();
      const response = await brokenApi.yoga.fetch('http://localhost/health');
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'unavailable', database: 'unavailable' });
      await brokenApi.close();
    });
  });

  describe('hardening', () => {
    it('rejects a query deeper than the depth limit', async () => {
      let deep = 'leaf';
      for (let i = 0; i < 10; i++) deep = `f${i} { ${deep} }`;
      const { body } = await graphql(api.yoga, `{ ${deep} }`);
      expect(body.data).toBeUndefined();
      expect(body.errors?.map((e) => e.message).join('\n')).toMatch(/depth limit/i);
    });

    it('rejects too many aliases', async () => {
      const aliases = Array.from({ length: 12 }, (_, i) => `a${i}: countryDetails { country }`).join(' ');
      const { body } = await graphql(api.yoga, `{ ${aliases} }`);
      expect(body.errors?.map((e) => e.message).join('\n')).toMatch(/aliases/i);
    });

    it('rejects a document with too many tokens', async () => {
      const fields = Array.from({ length: 1100 }, () => 'country').join(' ');
      const { body } = await graphql(api.yoga, `{ countryDetails { ${fields} } }`);
      expect(body.errors?.map((e) => e.message).join('\n')).toMatch(/token/i);
    });

    it('does not suggest field names', async () => {
      const { body } = await graphql(api.yoga, '{ countryDetail { country } }');
      const message = body.errors?.[0]?.message ?? '';
      expect(message).toMatch(/Cannot query field/);
      expect(message).not.toMatch(/Did you mean/);
    });

    it('allows introspection outside production', async () => {
      const { body } = await graphql(api.yoga, '{ __schema { queryType { name } } }');
      expect(body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    });

    it('turns introspection and GraphiQL off in production', async () => {
      const production = await createTestApi({ env: testEnv({ NODE_ENV: 'production' }), db: database.db });
      try {
        const { body } = await graphql(production.yoga, '{ __schema { queryType { name } } }');
        expect(body.data ?? null).toBeNull();
        expect(body.errors?.[0]?.message).toMatch(/introspection/i);
        const typename = await graphql(production.yoga, '{ __type(name: "Query") { name } }');
        expect(typename.body.errors?.[0]?.message).toMatch(/introspection/i);
        const page = await production.yoga.fetch('http://localhost/graphql', { headers: { accept: 'text/html' } });
        expect(page.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
        // Ordinary queries still work.
        expect((await graphql(production.yoga, COUNTRY)).body.data).toEqual({ countryDetails: { country: null } });
      } finally {
        await production.close();
      }
    });

    it('rejects a GET without the CSRF header and accepts one with it', async () => {
      const url = `http://localhost/graphql?query=${encodeURIComponent(COUNTRY)}`;
      const blocked = await api.yoga.fetch(url, { headers: { accept: 'application/json' } });
      expect(blocked.status).toBe(403);
      expect(JSON.stringify(await blocked.json())).toMatch(/CSRF/);
      const allowed = await api.yoga.fetch(url, { headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } });
      expect(allowed.status).toBe(200);
      expect(await allowed.json()).toEqual({ data: { countryDetails: { country: null } } });
    });

    it('rejects a form-encoded POST without the CSRF header', async () => {
      const response = await api.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `query=${encodeURIComponent(COUNTRY)}`,
      });
      expect(response.status).toBe(403);
    });

    it('never runs a mutation over GET', async () => {
      const url = `http://localhost/graphql?query=${encodeURIComponent('mutation { x }')}`;
      const response = await api.yoga.fetch(url, { headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } });
      expect(response.status).toBe(405);
    });

    it('answers 413 to a body over 64 KiB, announced or streamed', async () => {
      const big = JSON.stringify({ query: COUNTRY, variables: { pad: 'x'.repeat(70 * 1024) } });
      const announced = await api.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) },
        body: big,
      });
      expect(announced.status).toBe(413);
      const streamed = await api.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(streamed.headers.get('x-correlation-id')).toMatch(/^api-/);
      // Just under the limit is fine.
      const fine = await graphql(api.yoga, COUNTRY, { variables: { pad: 'x'.repeat(60 * 1024) } });
      expect(fine.status).toBe(200);
    });

    it('answers 400, not 500, to variables or extensions that are not JSON (found by the fuzz suite)', async () => {
      const get = (search: string) =>
        api.yoga.fetch(`http://localhost/graphql?query=${encodeURIComponent(COUNTRY)}&${search}`, {
          headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
        });
      const form = (search: string) =>
        api.yoga.fetch('http://localhost/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-graphql-yoga-csrf': '1' },
          body: `query=${encodeURIComponent(COUNTRY)}&${search}`,
        });
      for (const response of [await get('variables=%7B'), await get('extensions=nope'), await form('variables=%7B')]) {
        expect(response.status).toBe(400);
        expect(((await response.json()) as { errors: { message: string }[] }).errors[0]?.message).toMatch(/JSON/);
      }
      expect((await get('variables=%7B%7D')).status).toBe(200);
    });

    it('allows the web origin through CORS with credentials, and no other', async () => {
      const preflight = (origin: string) =>
        api.yoga.fetch('http://localhost/graphql', {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,x-correlation-id',
          },
        });
      const allowed = await preflight('http://localhost:3000');
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      const denied = await preflight('https://evil.example');
      expect(denied.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    });

    it('masks unexpected errors and logs them with the correlation id', async () => {
      const broken = await createTestDatabase('sqlite');
      const brokenLogs = logCollector();
      const brokenApi = await createTestApi({ env: testEnv({ LOG_LEVEL: 'error' }), db: broken.db, logDestination: brokenLogs });
      await broken.close();
      const { body } = await graphql(brokenApi.yoga, '{ registrationCodeDetails(registrationCode: "WHATEVER") { errors } }', {
        headers: { 'x-correlation-id': 'broken-db' },
      });
      expect(body.errors?.[0]?.message).toBe('Unexpected error.');
      expect(JSON.stringify(body)).not.toMatch(/database|sqlite|closed/i);
      expect(brokenLogs.lines.some((line) => line.correlationId === 'broken-db' && line.level === 50)).toBe(true);
      await brokenApi.close();
    });

    it('keeps registration codes out of error messages for unknown arguments', async () => {
      await insertCode(database.db, { code: 'SECRET-CODE' });
      const { body } = await graphql(api.yoga, '{ registrationCodeDetails(registrationCode: "SECRET-CODE", bogus: 1) { errors } }');
      expect(body.errors?.[0]?.message).toMatch(/bogus/);
    });
  });
});

describe('API server over a port', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('serves /health and runs operations over graphql-ws on /graphql', async () => {
    const env = testEnv();
    const api = await createApiServer({ env, db: database.db, logger: createLogger(env) });
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    const { port } = api.server.address() as AddressInfo;
    try {
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(await health.json()).toEqual({ status: 'ok' });

      const client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: true,
      });
      try {
        const result = await new Promise<unknown>((resolve, reject) => {
          let value: unknown;
          client.subscribe(
            { query: '{ countryDetails { country } }' },
            { next: (data) => (value = data), error: reject, complete: () => resolve(value) },
          );
        });
        expect(result).toEqual({ data: { countryDetails: { country: null } } });

        const invalid = await new Promise<unknown>((resolve) => {
          client.subscribe({ query: '{ nope }' }, { next: () => undefined, error: resolve, complete: () => resolve(null) });
        });
        expect(JSON.stringify(invalid)).toMatch(/Cannot query field/);
      } finally {
        await client.dispose();
      }

      const crossSite = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
        headers: { origin: 'https://evil.example' },
      });
      const status = await new Promise<number | undefined>((resolve) => {
        crossSite.on('unexpected-response', (_req, res) => resolve(res.statusCode));
        crossSite.on('open', () => resolve(101));
        crossSite.on('error', () => undefined);
      });
      expect(status).toBe(403);
      crossSite.terminate();
    } finally {
      await api.close();
    }
  });
});
