/**
 * The fuzz suite of the API (issue 9 §5): generated hostile input against every public query
 * and mutation argument and malformed HTTP against /graphql, on SQLite and PostgreSQL, sent to
 * the API running as a child process (support/fuzz-server.ts). Asserted: no HTTP 5xx, no
 * masked "Unexpected error." (the API's 500 in a 200), no error log line, no exit (an
 * unhandled rejection or uncaught exception ends the process), bounded memory growth.
 * A fixed number of requests per target; the seed is printed and FUZZ_SEED reproduces a run.
 */
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { signLobbyToken, signSocialToken } from '@velvet/tokens/signed-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './support/database.ts';
import { startChildServer } from './support/child-server.ts';
import type { ChildServer } from './support/child-server.ts';
import { TEST_SECRET } from './support/env.ts';
import {
  clientHeaders,
  country,
  describeInput,
  fuzzRuns,
  fuzzSeed,
  hostile,
  hostileEmail,
  hostileText,
  inParallel,
  language,
  samples,
  wrongType,
} from './support/hostile-input.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const SEED = fuzzSeed();
/** Generated requests per operation and engine. */
const RUNS = fuzzRuns(40);
/** Malformed HTTP requests per engine. */
const HTTP_RUNS = 2 * RUNS;
/** What the API's memory (RSS, and V8 heap in use after a garbage collection) may grow by during one engine's run, after its warm-up. */
const RSS_GROWTH_BOUND = 96 * 1024 * 1024;
const HEAP_GROWTH_BOUND = 16 * 1024 * 1024;
/** The API's V8 heap limit in the fuzz run (MB): a leak ends the process instead of hiding in a large heap. */
const HEAP_MB = 256;
const ADMIN = { email: 'fuzz-admin@example.test', password: 'fuzz-admin-password-0123' };
const CSRF = { 'x-graphql-yoga-csrf': '1' };

/** A token signed with the API's secret over generated claims (resolved just before sending). */
interface SignMe {
  sign: 'lobby' | 'social';
  claims: Record<string, unknown>;
}

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const enumOf = (...values: string[]) => fc.constantFrom(...values);
const uuidish = hostile(fc.uuid());
const boolish = fc.boolean();

function lobbyToken(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.record({ sign: fc.constant('lobby' as const), claims: fc.record({ email: hostileEmail }) }) },
    { weight: 1, arbitrary: hostile(fc.constant('eyJhbGciOiJIUzI1NiJ9.e30.x')) },
  );
}

function socialToken(): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc.record({
        sign: fc.constant('social' as const),
        claims: fc.record({
          email: hostileEmail,
          emailVerified: fc.boolean(),
          firstName: optional(hostileText),
          lastName: optional(hostileText),
          provider: fc.oneof(fc.constant('google'), hostileText),
          subject: fc.oneof(fc.uuid(), hostileText),
        }),
      }),
    },
    { weight: 1, arbitrary: hostileText },
  );
}

/**
 * An object of generated fields: mostly all present and well-typed (hostile values of the
 * right type reach the resolver), else with fields missing, one field of the wrong type, an
 * unknown field, or not an object at all.
 */
function variables(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const complete = fc.record(fields);
  return fc.oneof(
    { weight: 6, arbitrary: complete },
    { weight: 2, arbitrary: fc.record(fields, { requiredKeys: [] }) },
    {
      weight: 2,
      arbitrary: fc.tuple(complete, fc.nat(), wrongType).map(([record, index, value]) => {
        const keys = Object.keys(record);
        return keys.length ? { ...record, [keys[index % keys.length]!]: value } : record;
      }),
    },
    { weight: 1, arbitrary: fc.tuple(complete, hostileText, hostileText).map(([record, key, value]) => ({ ...record, [key]: value })) },
    { weight: 1, arbitrary: wrongType },
  );
}

function inputObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 8, arbitrary: variables(fields) }, { weight: 1, arbitrary: fc.array(variables(fields), { maxLength: 2 }) });
}

interface Target {
  name: string;
  document: string;
  variables: (code: string) => fc.Arbitrary<unknown>;
  /** Send the admin session's Bearer token (the operation is admin-only). */
  admin?: boolean;
}

const registrationCode = (code: string) =>
  fc.oneof({ weight: 2, arbitrary: fc.constantFrom(code, code.toLowerCase(), ` ${code} `) }, { weight: 3, arbitrary: hostile(fc.constant(code)) });

const registrationFields = (code: string) => ({
  registrationCode: registrationCode(code),
  email: hostile(hostileEmail),
  firstName: hostile(fc.constantFrom('Zoë', 'O’Brien-Núñez')),
  lastName: hostile(fc.constantFrom('Smith', 'de la Cruz')),
  gender: fc.oneof(enumOf('FEMALE', 'MALE'), fc.constant(null)),
  country: hostile(country),
  newsletter: boolish,
  termsAccepted: boolish,
  termsPkString: hostile(fc.constantFrom('terms-DE-2026-01', 'terms-AT-2026-01')),
  dataPolicyPkString: hostile(fc.constantFrom('data-policy-DE-2026-01', 'data-policy-AT-2026-01')),
  language: hostile(language),
  slug: hostile(fc.constantFrom('vip', 'social', 'app')),
  referrer: hostile(fc.webUrl()),
  validityTimestamp: hostile(fc.constantFrom('1893456000000.abc', '0', '')),
});

const TARGETS: Target[] = [
  {
    name: 'registrationCodeDetails',
    document: `query q($registrationCode: String!, $validityTimestamp: String, $slug: String, $referrer: String) {
      registrationCodeDetails(registrationCode: $registrationCode, validityTimestamp: $validityTimestamp, slug: $slug, referrer: $referrer) {
        errors errorDetails { error } invitorName countryOptions { isoCode termsPkString dataPolicyPkString } customization } }`,
    variables: (code) => {
      const { registrationCode: rc, slug, referrer, validityTimestamp } = registrationFields(code);
      return variables({ registrationCode: rc, slug, referrer, validityTimestamp });
    },
  },
  {
    name: 'registrationStatus',
    document: 'query q($memberId: String!) { registrationStatus(memberId: $memberId) { memberId state } }',
    variables: () => variables({ memberId: uuidish }),
  },
  {
    name: 'lobbyToken',
    document: 'query q($token: String!) { lobbyToken(token: $token) { email userErrors { code field messageId } } }',
    variables: () => variables({ token: lobbyToken() }),
  },
  { name: 'countryDetails', document: 'query q { countryDetails { country } }', variables: () => variables({}) },
  { name: 'viewer', document: 'query q { viewer { customerId saltedHashedCustomerId } }', variables: () => variables({}) },
  { name: 'adminSession', document: 'query q { adminSession { email expiresAt } }', variables: () => variables({}) },
  {
    name: 'funnelReport',
    admin: true,
    document: `query q($filter: FunnelFilter) { funnelReport(filter: $filter) {
      sessions steps { event events sessions } otherEvents { event events sessions }
      options { countries languages variants invitationLinks { code landingSlug registrationCodeId } } } }`,
    variables: () =>
      variables({
        filter: fc.oneof(
          inputObject({ country: hostile(country), language: hostile(language), registrationCodeId: uuidish, variant: hostile(fc.string()) }),
          fc.constant(null),
        ),
      }),
  },
  {
    name: 'register',
    document: 'mutation m($input: RegisterInput!) { register(input: $input) { outcome memberId userErrors { code field messageId } } }',
    variables: (code) =>
      variables({ input: inputObject({ ...registrationFields(code), flow: enumOf('DEFAULT', 'LEAN', 'SOCIAL') }) }),
  },
  {
    name: 'completeSocialRegistration',
    document: `mutation m($input: CompleteSocialRegistrationInput!) { completeSocialRegistration(input: $input) {
      outcome memberId userErrors { code field messageId } firstName memberToken voucher { code percent } } }`,
    variables: (code) => {
      const fields: Record<string, fc.Arbitrary<unknown>> = registrationFields(code);
      delete fields.email;
      return variables({
        input: inputObject({
          ...fields,
          token: socialToken(),
          shoppingPreferences: fc.array(fc.constantFrom('BEAUTY', 'HOME', 'KIDS', 'LUXURY', 'MEN', 'SPORT', 'WOMEN'), { maxLength: 9 }),
        }),
      });
    },
  },
  {
    name: 'activateAccount',
    document: 'mutation m($activationId: String!) { activateAccount(activationId: $activationId) { outcome firstName language memberId } }',
    variables: () => variables({ activationId: uuidish }),
  },
  {
    name: 'joinWaitlist',
    document: 'mutation m($language: String, $token: String!) { joinWaitlist(language: $language, token: $token) { outcome email userErrors { code field messageId } } }',
    variables: () => variables({ token: lobbyToken(), language: hostile(language) }),
  },
  {
    name: 'applyForMembership',
    document: `mutation m($email: String!, $language: String, $country: String) {
      applyForMembership(email: $email, language: $language, country: $country) { accepted userErrors { code field messageId } } }`,
    variables: () => variables({ email: hostile(hostileEmail), language: hostile(language), country: hostile(country) }),
  },
  {
    name: 'recordConsent',
    document: 'mutation m($input: RecordConsentInput!) { recordConsent(input: $input) }',
    variables: () =>
      variables({
        input: inputObject({
          consentId: fc.oneof({ weight: 3, arbitrary: fc.uuid({ version: 4 }) }, { weight: 1, arbitrary: hostileText }),
          action: enumOf('ACCEPT_ALL', 'CUSTOM', 'REJECT_ALL'),
          analytics: boolish,
          marketing: boolish,
          source: enumOf('APP', 'BANNER', 'PREFERENCES'),
          version: fc.oneof(
            { weight: 3, arbitrary: fc.nat({ max: 10_000 }) },
            { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constantFrom(-1, 10_001, 2 ** 31 - 1, -(2 ** 31))) },
          ),
          language: hostile(language),
          country: hostile(country),
        }),
      }),
  },
  {
    name: 'recordFunnelEvents',
    document: 'mutation m($events: [FunnelEventInput!]!) { recordFunnelEvents(events: $events) }',
    variables: (code) => {
      const event = variables({
        name: hostile(fc.constantFrom('landing', 'code_entered', 'registration_started', 'error_registration_email', 'waitlist_joined')),
        sessionId: uuidish,
        analyticsConsent: boolish,
        country: hostile(country),
        landingSlug: hostile(fc.constantFrom('vip', 'social')),
        language: hostile(language),
        registrationCode: registrationCode(code),
        variant: hostile(fc.constantFrom('social-15-percent-mov', 'default')),
      });
      return variables({ events: fc.oneof(fc.array(event, { maxLength: 8 }), fc.array(event, { minLength: 49, maxLength: 52 }), event) });
    },
  },
  {
    name: 'adminLogin',
    document: 'mutation m($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token expiresAt userErrors { code field messageId } } }',
    variables: () =>
      variables({
        email: hostile(fc.oneof(fc.constant(ADMIN.email), hostileEmail)),
        password: hostile(fc.oneof(fc.constant(ADMIN.password), fc.constantFrom(0, 1, 12, 72, 73, 1024, 1025, 60_000).map((n) => 'p'.repeat(n)))),
      }),
  },
  { name: 'adminLogout', document: 'mutation m { adminLogout }', variables: () => variables({}) },
  {
    name: 'generateRegistrationLink',
    admin: true,
    document: 'mutation m($registrationCode: String!) { generateRegistrationLink(registrationCode: $registrationCode) { url expiresAt userErrors { code field messageId } } }',
    variables: (code) => variables({ registrationCode: registrationCode(code) }),
  },
];

/** Headers a client may send: garbage ids, bearer tokens, languages, cookies (never X-Forwarded-For: owned by "hostile"). */
const headerValue = fc.oneof(
  // Only what an HTTP client can send: no control characters but the tab (fetch refuses them).
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => [...s].filter((c) => c === '\t' || (c >= ' ' && c !== '\x7f')).join('')),
  fc.constantFrom('', ' ', 'Bearer', 'Bearer ', 'Bearer x.y.z', 'Basic YTpi', 'de-DE,de;q=0.9,en;q=0.8', '*;q=abc', 'x'.repeat(8000), '/en/lobby?token=x', '../../etc'),
);
const extraHeaders = fc.record(
  {
    authorization: headerValue,
    'accept-language': headerValue,
    'x-correlation-id': headerValue,
    'x-session-id': headerValue,
    'x-source-page': headerValue,
    cookie: headerValue,
    accept: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('application/json', 'application/graphql-response+json', '*/*') },
      { weight: 1, arbitrary: fc.constantFrom('text/event-stream', 'multipart/mixed', 'text/html') },
    ),
  },
  { requiredKeys: [] },
);

const operationRequest = (target: Target, code: string) =>
  fc.record({
    variables: target.variables(code),
    headers: extraHeaders,
    operationName: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant('q') }, { weight: 1, arbitrary: hostile(fc.constant('m')) }),
    extensions: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostile(fc.constant({ persistedQuery: { version: 1, sha256Hash: 'x' } })) }),
    asGet: fc.boolean().map((b) => b && target.document.startsWith('query')),
  });

/** A raw HTTP/1.1 request for /graphql: wrong methods, bad content types, garbage or truncated bodies, odd GraphQL documents. */
const DOCUMENTS = fc.oneof(
  fc.constant('{ countryDetails { country } }'),
  hostileText,
  fc.constantFrom(
    'query q($a: String, $a: String) { countryDetails { country } }',
    'query q($a: String = 1) { lobbyToken(token: $a) { email } }',
    'query { a: countryDetails { country } b: countryDetails { country } c: countryDetails { country } d: countryDetails { country } e: countryDetails { country } f: countryDetails { country } g: countryDetails { country } h: countryDetails { country } i: countryDetails { country } j: countryDetails { country } k: countryDetails { country } }',
    `query { ${'countryDetails { country } '.repeat(300)} }`,
    'fragment A on Query { ...B } fragment B on Query { ...A } query { ...A }',
    'query { countryDetails @skip(if: true) @include(if: false) @deprecated { country } }',
    'subscription s { registrationStatus(memberId: "x") { state } }',
    'query { __schema { types { name } } }',
    'query { __typename }',
    'mutation { adminLogout } mutation { adminLogout }',
    `query ${'{ countryDetails '.repeat(50)}${'}'.repeat(50)}`,
    '{ registrationCodeDetails(registrationCode: "\\u0000") { errors } }',
    '{ registrationCodeDetails(registrationCode: """x""") { errors } }',
  ),
);
const jsonBody = fc.oneof(
  DOCUMENTS.map((query) => JSON.stringify({ query })),
  fc.tuple(DOCUMENTS, DOCUMENTS).map(([a, b]) => JSON.stringify([{ query: a }, { query: b }])),
  DOCUMENTS.map((query) => JSON.stringify({ query }).slice(0, -3)),
  fc.constantFrom('', '{', '[]', 'null', '"x"', '123', 'true', '{"query":null}', '{"query":1}', '{"query":"{ __typename }","variables":"x"}', '{"query":"{ __typename }","variables":[1]}', '{"query":"a","query":"b"}', '\ufeff{"query":"{ __typename }"}', '{"__proto__":{"query":"{ __typename }"}}'),
  fc.constantFrom(1000, 5000, 100_000).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.constantFrom(60_000, 70_000).map((n) => JSON.stringify({ query: `{ __typename } #${'x'.repeat(n)}` })),
  hostileText,
);
const rawRequest = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND'),
  target: fc.constantFrom('/graphql', '/graphql?query=%7B__typename%7D', '/graphql?query=%zz', '/graphql?query={countryDetails{country}}&variables=%7B', '/graphql/', '//graphql', '/graphql?operationName=x&extensions=1', '/health', '/live', '/graphql?' + 'a='.repeat(3000)),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'application/graphql+json',
    'application/graphql',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=x',
    'application/xml',
    'image/png',
    '',
    ';;;',
  ),
  csrf: fc.boolean(),
  body: jsonBody.map((text) => Buffer.from(text)),
  invalidUtf8: fc.boolean(),
  framing: fc.constantFrom('length', 'length', 'chunked', 'bad-chunked', 'truncated', 'none'),
  // Every header a client writes, Host and Origin included (issue 18 §1), on a request or a websocket upgrade.
  headers: fc.option(clientHeaders, { nil: undefined, freq: 2 }),
  upgrade: fc.boolean(),
});

type RawRequest = typeof rawRequest extends fc.Arbitrary<infer T> ? T : never;

function rawBytes(request: RawRequest, port: number): Buffer {
  const body = request.invalidUtf8 ? Buffer.concat([request.body, Buffer.from([0xc3, 0x28, 0xff, 0xfe])]) : request.body;
  const { host = `127.0.0.1:${port}`, 'content-type': contentType = request.contentType, ...others } = request.headers ?? {};
  const head = [`${request.method} ${request.target} HTTP/1.1`, `Host: ${host}`];
  head.push(...(request.upgrade ? ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Protocol: graphql-transport-ws'] : ['Connection: close']));
  if (contentType) head.push(`Content-Type: ${contentType}`);
  if (request.csrf) head.push('X-GraphQL-Yoga-CSRF: 1');
  for (const [name, value] of Object.entries(others)) head.push(`${name}: ${value}`);
  /** The head as bytes: generated header values may hold bytes 0x80–0xff, sent as they are. */
  const headWith = (...extra: string[]) => Buffer.from(`${[...head, ...extra].join('\r\n')}\r\n\r\n`, 'latin1');
  switch (request.framing) {
    case 'length':
      return Buffer.concat([headWith(`Content-Length: ${body.length}`), body]);
    case 'truncated':
      return Buffer.concat([headWith(`Content-Length: ${body.length + 100}`), body]);
    case 'chunked':
      return Buffer.concat([
        headWith('Transfer-Encoding: chunked'),
        body.length ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')]) : Buffer.alloc(0),
        Buffer.from('0\r\n\r\n'),
      ]);
    case 'bad-chunked':
      return Buffer.concat([headWith('Transfer-Encoding: chunked'), Buffer.from('zz\r\n'), body]);
    case 'none':
      return Buffer.concat([headWith(), body]);
  }
}

/** Sends raw bytes, half-closes, and returns the response's status (null when the server closed without one). */
function sendRaw(port: number, bytes: Buffer): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 10 s'));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A websocket that was let in stays open: its 101 is the answer.
      if (/^HTTP\/1\.1 101/.test(Buffer.concat(chunks).toString('latin1'))) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString('latin1'));
      resolve(status ? Number(status[1]) : null);
    });
    socket.end(bytes);
  });
}

function answeredWithData(text: string): boolean {
  try {
    const body = JSON.parse(text) as { data?: unknown; errors?: unknown };
    return typeof body.data === 'object' && body.data !== null && body.errors === undefined;
  } catch {
    return false;
  }
}

interface Failure {
  target: string;
  problem: string;
  input: string;
}

async function signTokens(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map(signTokens));
  if (typeof value !== 'object' || value === null) return value;
  if ('sign' in value && 'claims' in value) {
    const { sign, claims } = value as SignMe;
    // A genuine token over generated claims: the API must still refuse or store them cleanly.
    if (sign === 'lobby') return signLobbyToken(claims as { email: string }, TEST_SECRET, 3600);
    return signSocialToken(claims as unknown as Parameters<typeof signSocialToken>[0], TEST_SECRET, 600);
  }
  return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await signTokens(item)] as const)));
}

describe.each(ENGINES)('fuzzing the API on %s', (engine) => {
  let api: ChildServer;
  let adminToken = '';
  const counts = new Map<string, number>();
  /** Requests per target whose operation ran and answered with data (not refused before the resolver). */
  const answered = new Map<string, number>();
  const failures: Failure[] = [];
  // NUL and every other character go to both engines alike: NUL is BAD_USER_INPUT before any resolver (ADR 027).
  const prepare = <T>(value: T): T => value;

  beforeAll(async () => {
    api = await startChildServer({
      script: path.join(here, 'support/fuzz-server.ts'),
      cwd: path.join(here, '..'),
      nodeArgs: [`--max-old-space-size=${HEAP_MB}`, '--expose-gc'],
      env: {
        FUZZ_ENGINE: engine,
        NODE_ENV: 'production',
        APP_SECRET: TEST_SECRET,
        PUBLIC_URL: 'http://localhost:3000',
        LOG_LEVEL: 'error',
        SEED_DEMO: 'false',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
    });
    const login = await post({ query: 'mutation { adminLogin(email: "fuzz-admin@example.test", password: "fuzz-admin-password-0123") { token } }' });
    adminToken = ((await login.json()) as { data: { adminLogin: { token: string } } }).data.adminLogin.token;
  }, 60_000);

  afterAll(async () => {
    await api?.stop();
  });

  function post(body: unknown, headers: Record<string, string> = {}) {
    return fetch(`http://127.0.0.1:${api.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...CSRF, ...headers },
      body: JSON.stringify(body),
    });
  }

  async function check(target: string, input: unknown, send: () => Promise<Response | number | null>) {
    counts.set(target, (counts.get(target) ?? 0) + 1);
    let response: Response | number | null;
    try {
      response = await send();
    } catch (error) {
      failures.push({ target, problem: `request failed: ${(error as Error).message}`, input: describeInput(input) });
      return;
    }
    const status = typeof response === 'object' && response !== null ? response.status : response;
    if (status !== null && status >= 500) failures.push({ target, problem: `HTTP ${status}`, input: describeInput(input) });
    if (typeof response === 'object' && response !== null) {
      const text = await response.text();
      if (text.includes('Unexpected error.')) failures.push({ target, problem: `masked error: ${text.slice(0, 200)}`, input: describeInput(input) });
      if (response.status === 200 && answeredWithData(text)) answered.set(target, (answered.get(target) ?? 0) + 1);
    }
  }

  it(`answers ${RUNS} generated requests per operation without a 5xx, a masked error or a crash`, async () => {
    const started = performance.now();
    const code = String(api.ready.code);
    // Warm-up: the first requests load code and fill caches; growth is measured from here.
    for (let i = 0; i < 20; i++) await post({ query: '{ countryDetails { country } }' }).then((r) => r.text());
    const before = await api.memory();

    for (const [index, target] of TARGETS.entries()) {
      const inputs = samples(operationRequest(target, code), RUNS, SEED + index);
      await inParallel(inputs, 4, async (input) => {
        const vars = prepare(await signTokens(input.variables));
        const headers: Record<string, string> = { ...input.headers, ...(target.admin ? { authorization: `Bearer ${adminToken}` } : {}) };
        await check(target.name, input, () => {
          if (input.asGet) {
            const search = new URLSearchParams({ query: target.document, variables: JSON.stringify(vars) });
            if (typeof input.operationName === 'string') search.set('operationName', prepare(input.operationName));
            return fetch(`http://127.0.0.1:${api.port}/graphql?${search}`, { headers: { ...CSRF, ...headers } });
          }
          return post(prepare({ query: target.document, variables: vars, operationName: input.operationName, extensions: input.extensions }), headers);
        });
      });
    }

    const raw = samples(rawRequest, HTTP_RUNS, SEED + 1000);
    await inParallel(raw, 4, (request) => check('malformed HTTP', { ...request, body: request.body.toString('utf8').slice(0, 200) }, () => sendRaw(api.port, rawBytes(request, api.port))));

    const after = await api.memory();
    const rssGrowth = after.rss - before.rss;
    const heapGrowth = after.heapUsed - before.heapUsed;
    const seconds = (performance.now() - started) / 1000;
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(
      `fuzz api/${engine}: seed ${SEED}, ${total} requests (${[...counts].map(([t, n]) => `${t} ${n}/${answered.get(t) ?? 0} answered`).join(', ')}), ` +
        `${failures.length} failures, ${seconds.toFixed(1)} s, RSS ${(before.rss / 1048576).toFixed(0)} MB + ${(rssGrowth / 1048576).toFixed(1)} MB, heap in use ${(before.heapUsed / 1048576).toFixed(0)} MB + ${(heapGrowth / 1048576).toFixed(1)} MB\n`,
    );
    const report = `seed ${SEED} (reproduce: FUZZ_SEED=${SEED} npx vitest run apps/api/test/fuzz.test.ts)`;
    const problems = new Map<string, number>();
    for (const f of failures) problems.set(`${f.target}: ${f.problem.slice(0, 60)}`, (problems.get(`${f.target}: ${f.problem.slice(0, 60)}`) ?? 0) + 1);
    const byProblem = [...problems].map(([problem, n]) => `${n} × ${problem}`);
    expect(failures.slice(0, 10), `${failures.length} failures (${byProblem.join('; ')}), ${report}`).toEqual([]);
    expect(api.exited(), `the API exited; ${report}\n${api.stderr()}`).toBeNull();
    expect(api.errorLogs().map((line) => ({ msg: line.msg, err: (line.err as { message?: string } | undefined)?.message })), report).toEqual([]);
    expect(api.stderr(), report).toBe('');
    // The generators reach every operation's resolver, not only the parser's refusals.
    expect(TARGETS.filter((target) => !answered.get(target.name)).map((target) => target.name), report).toEqual([]);
    expect(heapGrowth, `the heap in use grew by ${heapGrowth} bytes; ${report}`).toBeLessThan(HEAP_GROWTH_BOUND);
    expect(rssGrowth, `RSS grew by ${rssGrowth} bytes; ${report}`).toBeLessThan(RSS_GROWTH_BOUND);
  }, 120_000);
});
