/**
 * Generated hostile values for the fuzz suite (fast-check): well-typed but nasty strings,
 * values of the wrong type, and helpers to take a fixed number of samples from a seed.
 * Shared by apps/api/test/fuzz.test.ts and apps/web/test/fuzz.test.ts.
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';

/** Characters that break naive code: controls, NUL, bidi and zero-width marks, lone surrogates, emoji, SQL/HTML metacharacters. */
const SPECIAL = [
  '\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u0085', '\u00a0', '\u2028', '\u2029',
  '\u200b', '\u200d', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\ufeff', '\ufffd', '\uffff',
  '\ud800', '\udfff', '😀', '👩‍👩‍👧‍👦', '🏳️‍🌈', 'ẞ', 'İ', 'ﬃ', 'Å', 'Å', 'ä', 'مرحبا', 'שלום', '中文', '𝕏',
  "'", '"', '`', ';', '--', '/*', '*/', '<', '>', '&', '\\', '%', '_', '$', '{', '}', '\n', '\r\n', '\t', ' ',
];

const PAYLOADS = [
  "' OR '1'='1", "'; DROP TABLE members; --", '" OR ""="', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
  '{{7*7}}', '${7*7}', '%00', '%s%s%s%n', '../../../../etc/passwd', '__proto__', 'constructor', 'toString', 'null',
  'undefined', 'NaN', 'true', '0', '-1', '1e309', 'javascript:alert(1)', '//evil.example', 'http://evil.example/',
  '\\\\evil.example', 'data:text/html,<b>x</b>', '%zz%', '%C0%AE', '\u0000admin@example.test', 'a@b', '@', 'a@b.c\u0000',
];

/** Lengths around the limits of our fields (names 50, email 254, ids 128, source pages 512) and beyond them. */
const LENGTHS = [0, 1, 49, 50, 51, 99, 100, 101, 127, 128, 129, 253, 254, 255, 256, 511, 512, 513, 1024, 4096, 20_000, 70_000];

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.array(fc.constantFrom(...SPECIAL), { minLength: 1, maxLength: 12 }).map((parts) => parts.join('')),
  fc.constantFrom(...PAYLOADS),
  fc.tuple(fc.constantFrom(...LENGTHS), fc.constantFrom('a', 'é', '😀', '\u202e', '0', ' ', '<')).map(([n, c]) => c.repeat(n)),
);

/** Values of the wrong type for a string, number or boolean argument. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER + 2, 1e308, -0),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
);

/** A string field: a plausible value half of the time, else a hostile string. */
export function hostile<T>(typed: fc.Arbitrary<T>): fc.Arbitrary<T | string> {
  return fc.oneof(typed, hostileText);
}

export const hostileEmail: fc.Arbitrary<string> = fc.oneof(
  fc.emailAddress(),
  fc.tuple(fc.emailAddress(), hostileText).map(([email, text]) => `${text}${email}`),
  fc.tuple(fc.emailAddress(), hostileText).map(([email, text]) => `${email}${text}`),
  fc.constantFrom(250, 251, 252, 253, 254, 255, 300).map((n) => `${'a'.repeat(n - '@example.test'.length)}@example.test`),
  fc.constantFrom('ADMIN@EXAMPLE.TEST ', ' x@y.z', 'x@y', 'x@@y.z', 'x@y..z', '"a b"@example.test', 'ä@exämple.test', 'x@[127.0.0.1]'),
  hostileText,
);

const LANGUAGES = ['en', 'de', 'fr', 'it', 'nl', 'pl', 'sv'] as const;
export const language = fc.oneof(fc.constantFrom(...LANGUAGES, 'EN', 'xx', 'en-GB', ''), hostileText);
export const country = fc.oneof(fc.constantFrom('DE', 'AT', 'CH', 'NL', 'FR', 'IT', 'PL', 'SE', 'BE', 'US', 'de', 'ZZ', ''), hostileText);

/** Exactly `runs` values of `arbitrary` from `seed` (the run is reproduced with the same seed). */
export function samples<T>(arbitrary: fc.Arbitrary<T>, runs: number, seed: number): T[] {
  return fc.sample(arbitrary, { numRuns: runs, seed });
}

/**
 * The suite's inputs are the same on every run unless asked otherwise, so CI's verdict belongs to
 * the change under test, never to the draw: `FUZZ_SEED=<n>` replays a run, `FUZZ_SEED=random`
 * (with `FUZZ_RUNS=400`) hunts for new inputs on a developer's machine (ADR 030).
 */
const DEFAULT_SEED = 20_261_124;

/** The seed of this run. */
export function fuzzSeed(): number {
  const fromEnv = process.env.FUZZ_SEED;
  if (fromEnv === 'random') return Math.floor(Math.random() * 2 ** 31);
  const seed = Number(fromEnv);
  return fromEnv && Number.isSafeInteger(seed) ? seed : DEFAULT_SEED;
}

/** `runs`, or FUZZ_RUNS when set: a longer hunt on a developer's machine (`FUZZ_RUNS=400`). */
export function fuzzRuns(runs: number): number {
  const fromEnv = Number(process.env.FUZZ_RUNS);
  return Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : runs;
}

/** Runs `tasks` with at most `concurrency` in flight. */
export async function inParallel<T>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** A short, printable description of an input for failure messages. */
export function describeInput(value: unknown, max = 400): string {
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' && item.length > 80 ? `${item.slice(0, 40)}…(${item.length} chars)` : item));
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A header value a client can put on the wire (Node's HTTP parser takes tab, visible ASCII,
 * space and bytes 0x80–0xff): well-formed hosts and origins beside ones no URL can be built
 * from (issue 18 §1: `Host: a<b` once ended the web server).
 */
const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'a<b', '^', '%', '[', ']', '|', ' ', 'a b', 'a/b', 'a\\b', 'a@b', 'a?b', 'a#b', 'x:99999', 'x:', ':80', '[::1]', '[::1]:3000', '[::1',
    'localhost', 'localhost:3000', 'LOCALHOST', '127.0.0.1', 'example.test.', 'xn--bcher-kva.example', 'null', 'http://evil.example',
    'https://localhost:3000', 'http://a<b', 'http://[::1', 'file:///etc/passwd', '*', 'de-DE,de;q=0.9', 'bot', 'Googlebot/2.1', 'Bearer x', '', 'é',
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 40 }),
  fc.string({ unit: fc.oneof(fc.constant('\t'), fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f).map((code) => String.fromCharCode(code))), maxLength: 40 }),
);

/** Every request header a client writes that our servers read, the site-naming ones first. */
const CLIENT_HEADERS = [
  'host', 'x-forwarded-host', 'origin', 'referer', 'x-forwarded-for', 'x-forwarded-proto', 'cookie', 'accept-language', 'user-agent', 'accept',
  'accept-encoding', 'content-type', 'sec-fetch-site', 'x-correlation-id', 'x-session-id', 'x-source-page', 'x-test-now', 'authorization',
  'x-graphql-yoga-csrf', 'if-none-match', 'range', 'cf-ipcountry', 'x-requested-with',
] as const;

/** Some of CLIENT_HEADERS, each with a generated value; Host and Origin in most (a header left out is not sent; `host` left out is the real one). */
export const clientHeaders: fc.Arbitrary<Record<string, string>> = fc
  .tuple(
    fc.record({ host: headerValue, origin: headerValue }, { requiredKeys: [] }),
    fc.uniqueArray(fc.tuple(fc.constantFrom(...CLIENT_HEADERS), headerValue), { maxLength: 5, selector: ([name]) => name }),
  )
  .map(([site, others]) => ({ ...Object.fromEntries(others), ...site }));

/** A request with headers exactly as given (Host included, which `fetch` will not send as written), through node:http. */
export function sendWithHeaders(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method, headers: init.headers, setHost: !('host' in init.headers) }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject).end(init.body);
  });
}
