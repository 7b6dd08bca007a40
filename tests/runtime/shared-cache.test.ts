/**
 * The product behind a standard shared cache (ADR 053): nginx from Debian's packages, configured
 * from the repository's own deploy/nginx/nginx.conf.template, in front of `npm start`'s build.
 * Public pages come from the cache; visitors never see each other's pages; nothing personal is
 * kept. (`apt-get install nginx`, or NGINX_PATH.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../../packages/i18n/catalogs/de.json' with { type: 'json' };
import { CONSENT_COOKIE, CONSENT_REVISION } from '../../apps/web/app/lib/consent/consent-shared.ts';
import { startNginx } from '../../scripts/nginx.mjs';
import { dataDir, eventually, freePorts, missingBuild, run, type Running } from './support.ts';

interface Answer {
  status: number;
  cache: string | null;
  /** Whether nginx asked the origin for the bucket's variation (MISS) or used its kept answer (HIT). */
  variationCache: string | null;
  cacheControl: string | null;
  correlationId: string | null;
  body: string;
}

/** The buckets a page shared by a variation names, in its loader data. */
const BUCKETS = /\\"buckets\\",\\"([0-9a-f]{64})\\"/;

/**
 * Two copies, one for each variation of the versioned features' 50/50 test (not one per bucket):
 * each names its variation's buckets (the browser takes one of them), not the bucket it was
 * rendered for, and the two name complementary halves of the 256.
 */
/** Both variations drawn (a visit draws its bucket at random). */
const bothVariations = (answers: Answer[]) => new Set(answers.map((a) => a.body)).size >= 2;

function expectOneCopyPerVariation(answers: Answer[]): void {
  const copies = [...new Set(answers.map((a) => a.body))];
  expect(copies).toHaveLength(2);
  for (const body of copies) expect(body).toMatch(/\\"bucketSource\\",\\"variation\\"/);
  const [first, second] = copies.map((body) => BigInt(`0x${BUCKETS.exec(body)?.[1] ?? '0'}`));
  expect(first! & second!).toBe(0n);
  expect(first! | second!).toBe((1n << 256n) - 1n);
}

let product: Running;
let nginx: { stop: () => Promise<void> };
let front: string;

async function get(pathname: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${front}${pathname}`, { headers, redirect: 'manual' });
  return {
    status: response.status,
    cache: response.headers.get('x-cache-status'),
    variationCache: response.headers.get('x-variation-cache-status'),
    cacheControl: response.headers.get('cache-control'),
    correlationId: response.headers.get('x-correlation-id'),
    body: await response.text(),
  };
}

beforeAll(async () => {
  const missing = missingBuild();
  if (missing.length > 0) throw new Error(`build first (npm run build): missing ${missing.join(', ')}`);
  const [port, apiPort, workerPort, nginxPort] = await freePorts(4);
  front = `http://127.0.0.1:${nginxPort}`;
  product = run(['scripts/start.mjs'], {
    PORT: String(port),
    API_PORT: String(apiPort),
    WORKER_PORT: String(workerPort),
    DATA_DIR: dataDir(),
    TRUST_PROXY: '1',
    PUBLIC_URL: front,
    // Every visit here comes from one address, and hits on an invitation come only once a bucket is
    // drawn twice within 10 s (about 40 misses for two): the default 30 code checks a minute (plus
    // a burst of 10) would make the page this one address's own limit answer by chance, as a CI run
    // saw. The limit itself is tested in api-outage.test.ts and the API suite.
    RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '1000',
  });
  await eventually('the product to start', async () => (product.output().includes('Velvet Rope is running') ? true : undefined), 90_000);
  // The operator's file, filled in as envsubst would (scripts/nginx.mjs).
  nginx = await startNginx({ listen: `127.0.0.1:${nginxPort}`, origin: `127.0.0.1:${port}` });
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  await product?.stop();
});

describe('nginx in front', () => {
  it('keeps a public page once per variation of the running test and hands it to the next visitors, with nothing of anyone in it', async () => {
    const answers: Answer[] = [];
    // Each cookieless visit draws one of 256 buckets; the versioned features' 50/50 test splits them in two.
    while ((answers.filter((a) => a.cache === 'HIT').length < 10 || !bothVariations(answers)) && answers.length < 60) answers.push(await get('/de'));
    const hits = answers.filter((a) => a.cache === 'HIT');
    expect(hits.length).toBeGreaterThanOrEqual(10);
    const rendered = new Set(answers.filter((a) => a.cache !== 'HIT').map((a) => a.body));
    // A hit is exactly a page the origin rendered for an earlier visitor of its variation.
    for (const hit of hits) expect(rendered.has(hit.body)).toBe(true);
    for (const { status: code, body, cacheControl } of answers) {
      expect(code).toBe(200);
      expect(cacheControl).toMatch(/^public, max-age=0, s-maxage=60,/);
      expect(body).toContain('lang="de"');
      // No per-visitor value: no page-load id, no nonce, no anonymous id, no form start.
      expect(body).not.toMatch(/acq-session-id|nonce=|[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|name="formStartedAt" value="[^"]/);
    }
    expectOneCopyPerVariation(answers);
    // Every answer has its own correlation id: a kept copy does not replay the one it was rendered under.
    expect(new Set(answers.map((a) => a.correlationId)).size).toBe(answers.length);
    // The cache's question to the origin is its own: no visitor can ask it.
    expect((await get('/__experiments/variation')).status).toBe(404);
  });

  it('keeps the languages of an unprefixed page apart', async () => {
    for (let i = 0; i < 60; i++) {
      const [de, pl] = await Promise.all([get('/', { 'accept-language': 'de-DE,de;q=0.9' }), get('/', { 'accept-language': 'pl-PL' })]);
      expect(de.body).toContain('<html lang="de"');
      expect(pl.body).toContain('<html lang="pl"');
    }
  });

  it('keeps an invitation seconds, one copy per variation of the running test, for visitors without a referrer; one arriving from another site reaches the origin', async () => {
    const answers: Answer[] = [];
    // Kept per variation too: hits come from the third visit or so.
    while ((answers.filter((a) => a.cache === 'HIT').length < 10 || !bothVariations(answers)) && answers.length < 60) answers.push(await get('/de?rc=WELCOME2026'));
    const hits = answers.filter((a) => a.cache === 'HIT');
    expect(hits.length).toBeGreaterThanOrEqual(10);
    const rendered = new Set(answers.filter((a) => a.cache !== 'HIT').map((a) => a.body));
    for (const hit of hits) expect(rendered.has(hit.body)).toBe(true);
    for (const { status: code, body, cacheControl } of answers) {
      expect(code).toBe(200);
      expect(cacheControl).toMatch(/^public, max-age=0, s-maxage=10,/);
      expect(body).toContain('Sophie');
      expect(body).not.toMatch(/acq-session-id|name="formStartedAt" value="[^"]/);
    }
    expectOneCopyPerVariation(answers);
    // From a blocked site (spec §4): never a copy, the origin sends the visitor to the deny page, every time.
    for (let i = 0; i < 2; i++) {
      const blocked = await get('/de?rc=WELCOME2026', { referer: 'https://www.mydealz.de/deals/1' });
      expect(blocked.status).toBe(302);
      expect(blocked.cache).not.toBe('HIT');
    }
    // From another site that is allowed: the visitor's own arrival, kept in their flow cookie, never shared.
    const elsewhere = await get('/de?rc=WELCOME2026', { referer: 'https://blog.example.org/post' });
    expect(elsewhere).toMatchObject({ status: 200, cacheControl: 'private, no-store' });
    expect(elsewhere.cache).not.toBe('HIT');
  });

  it('never keeps what is someone’s own: a visitor with cookies, a form’s answer', async () => {
    const personal = [
      () => get('/de', { cookie: 'acq_token=eyJhbGciOiJIUzI1NiJ9.e30.x' }),
      () => get('/de', { cookie: 'acq_anonymous_id=3f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b' }),
      // A consent choice: the page that follows it is that visitor's.
      () => get('/de', { cookie: `${CONSENT_COOKIE}=${encodeURIComponent(JSON.stringify({ categories: ['necessary'], revision: CONSENT_REVISION, consentId: 'c-1' }))}` }),
    ];
    for (const visit of personal) {
      for (let i = 0; i < 3; i++) {
        const answer = await visit();
        expect(answer.status).toBe(200);
        expect(answer.cacheControl).toBe('private, no-store');
        expect(answer.cache).not.toBe('HIT');
        // The variation of the kept id's bucket at this address is asked once, then kept: it names no one.
        if (i > 0 && visit === personal[1]) expect(answer.variationCache).toBe('HIT');
      }
    }
    const posted = await fetch(`${front}/de?index`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: front },
      body: 'intent=code&code=',
    });
    expect(posted.headers.get('cache-control')).toBe('private, no-store');
    expect(await posted.text()).toContain(de['validation.accessCodeMissing']);
  });
});
