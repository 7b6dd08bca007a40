/**
 * `npm start` as a visitor's machine runs it (ADR 026, 062): compiled JavaScript under
 * NODE_ENV=production, the migrations as their own step, then one process per role (web, api,
 * worker) under scripts/start.mjs, which starts a crashed child again while the others keep serving.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../packages/i18n/catalogs/en.json' with { type: 'json' };
import { sendWithHeaders } from '../../apps/api/test/support/hostile-input.ts';
import { ROOT, childrenOf, dataDir, eventually, freePorts, missingBuild, run, status, type Running } from './support.ts';

const GENERIC = en['error.generic'];
// Pages write the brand with a no-break space (issue 22 row 7, `keepBrandTogether`).
const INVITED = en['landing.headline.default'].replace('{inviterName}', 'Sophie').replace('Velvet Rope', 'Velvet\u00a0Rope');

/** What a page shows: its markup without scripts (the client catalog holds every message). */
async function shown(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: (await response.text()).replace(/<script[\s\S]*?<\/script>/g, '') };
}

beforeAll(() => {
  const missing = missingBuild();
  if (missing.length > 0) throw new Error(`build first (npm run build): missing ${missing.join(', ')}`);
});

describe('npm start', () => {
  let product: Running;
  let web: string;
  let api: string;
  let worker: string;

  beforeAll(async () => {
    const [port, apiPort, workerPort] = await freePorts(3);
    web = `http://127.0.0.1:${port}`;
    api = `http://127.0.0.1:${apiPort}`;
    worker = `http://127.0.0.1:${workerPort}`;
    product = run(['scripts/start.mjs'], { PORT: String(port), API_PORT: String(apiPort), WORKER_PORT: String(workerPort), DATA_DIR: dataDir() });
    await eventually('the product to start', async () => (product.output().includes('Velvet Rope is running') ? true : undefined), 90_000);
  });
  afterAll(async () => {
    await product?.stop();
  });

  const programs = () => childrenOf(product.child.pid!);
  const roleOf = (pid: number) => {
    const role = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((v) => v.startsWith('ROLE='));
    return role?.slice('ROLE='.length) ?? 'web';
  };
  const pidOf = (role: 'web' | 'api' | 'worker') => programs().find((p) => roleOf(p.pid) === role)?.pid;

  it('runs one compiled program per role, no TypeScript loader, with NODE_ENV=production', () => {
    const argv = programs().map((p) => [roleOf(p.pid), ...p.argv.slice(1)]);
    expect(argv).toEqual([
      ['api', '--enable-source-maps', 'apps/api/dist/main.js'],
      ['worker', '--enable-source-maps', 'apps/api/dist/main.js'],
      ['web', '--enable-source-maps', 'apps/web/server.js'],
    ]);
    for (const { pid } of programs()) {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain('NODE_ENV=production');
      // The launcher migrated first, as a deployment's own step; the roles only check it did.
      expect(environ).toContain('MIGRATE_ON_START=false');
      expect(environ.some((v) => v.startsWith('NODE_OPTIONS=') && /tsx|strip-types/.test(v))).toBe(false);
    }
    // A deployment installs with `npm ci --omit=dev`: nothing it runs may need tsx.
    for (const workspace of ['apps/api', 'apps/web']) {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, workspace, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    }
  });

  it('sends the browser’s files compressed once, at build time: Brotli or gzip as the browser takes them, kept a year by any cache (ADR 069)', async () => {
    const html = await (await fetch(`${web}/de`)).text();
    const framework = /\/assets\/framework-[\w-]+\.js/.exec(html)?.[0];
    expect(framework).toBeDefined();
    const onDisk = readFileSync(path.join(ROOT, 'apps/web/build/client', framework!), 'utf8');
    const sent: Record<string, number> = {};
    for (const [accepted, encoding] of [['gzip, deflate, br, zstd', 'br'], ['gzip', 'gzip'], ['identity', null]] as const) {
      const response = await fetch(`${web}${framework}`, { headers: { 'accept-encoding': accepted } });
      expect(response.headers.get('content-encoding'), accepted).toBe(encoding);
      expect(response.headers.get('vary'), accepted).toContain('Accept-Encoding');
      expect(response.headers.get('cache-control'), accepted).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type'), accepted).toMatch(/^text\/javascript/);
      sent[accepted] = Number(response.headers.get('content-length'));
      expect(await response.text(), accepted).toBe(onDisk);
    }
    // Brotli's best: about a seventh fewer bytes than gzip's best, and a quarter of the file.
    expect(sent['gzip, deflate, br, zstd']).toBeLessThan(sent.gzip! * 0.9);
    expect(sent.gzip).toBeLessThan(sent.identity! * 0.35);
  });

  it('has production semantics: no introspection, no GraphiQL', async () => {
    const introspection = await fetch(`${api}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }),
    });
    const body = (await introspection.json()) as { data?: unknown; errors?: { message: string }[] };
    expect(body.data ?? null).toBeNull();
    expect(body.errors?.[0]?.message).toMatch(/introspection/i);
    const graphiql = await fetch(`${api}/graphql`, { headers: { accept: 'text/html' } });
    expect(graphiql.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
  });

  it('keeps the quick start’s embedded defaults: demo invitation, dev mailbox', async () => {
    const page = await shown(`${web}/?rc=WELCOME2026`);
    expect(page.text).toContain(INVITED);
    expect(page.text).not.toContain(GENERIC);
    expect(await status(`${api}/dev/mailbox`)).toBe(200);
  });

  it('answers an unusable Host or Origin with a 400 page, also for a page the cache holds, and keeps serving (issue 18 §1)', async () => {
    const webPid = pidOf('web');
    const apiPid = pidOf('api');
    // Twice: the second answer of `/` comes from the page cache, which the first request stores.
    for (const _ of [1, 2]) expect(await status(`${web}/`)).toBe(200);
    const heads: Record<string, string>[] = [
      { host: 'a<b' },
      { host: '^' },
      { host: '%' },
      { host: '[' },
      { host: 'a b' },
      { host: 'a/b' },
      { host: 'shop@evil' },
      { host: 'x:99999' },
      { origin: 'not a url' },
    ];
    for (const head of heads) {
      for (const [base, path] of [[web, '/'], [web, '/de?rc=WELCOME2026'], [api, '/graphql']] as const) {
        const answer = await sendWithHeaders(`${base}${path}`, { method: 'GET', headers: head });
        expect({ head, path, status: answer.status }).toEqual({ head, path, status: 400 });
        expect(answer.body).not.toMatch(/\bat \S+ \(|node_modules|\/work\//);
      }
    }
    expect(await sendWithHeaders(`${web}/de`, { method: 'GET', headers: { host: 'a<b' } })).toMatchObject({ status: 400, body: expect.stringContaining('lang="de"') as unknown });
    // The same programs still serve: nothing exited.
    expect(await status(`${web}/`)).toBe(200);
    expect(await status(`${api}/health`)).toBe(200);
    expect([pidOf('web'), pidOf('api')]).toEqual([webPid, apiPid]);
    expect(product.output()).not.toMatch(/stopped|Invalid URL/);
  });

  it('starts a crashed API again while the web server keeps serving, with the generic message meanwhile', async () => {
    const before = pidOf('api')!;
    process.kill(before, 'SIGKILL');
    // Meanwhile the web server answers, and a page that needs the API says the store is unavailable.
    const outage = await eventually('a page rendered during the outage', async () => {
      const page = await shown(`${web}/?rc=WELCOME2026`);
      return page.text.includes(GENERIC) ? page : undefined;
    });
    expect(outage.status).toBeLessThan(500);
    expect(outage.text).not.toContain(INVITED);
    expect(await status(`${web}/about-us`)).toBe(200);
    // Then the API is back by itself, as a new process, and the invitation works again.
    await eventually('the API to be back', async () => ((await status(`${api}/health`)) === 200 ? true : undefined));
    expect(pidOf('api')).not.toBe(before);
    await eventually('the invitation page to work again', async () => ((await shown(`${web}/?rc=WELCOME2026`)).text.includes(INVITED) ? true : undefined));
    expect(product.output()).toMatch(/\[start\] api stopped \(SIGKILL\); starting it again/);
  });

  it('starts a crashed web server again', async () => {
    const before = pidOf('web')!;
    process.kill(before, 'SIGKILL');
    await eventually('the web server to be back', async () => {
      const pid = pidOf('web');
      return pid !== undefined && pid !== before && (await status(`${web}/healthz`)) === 200 ? true : undefined;
    });
  });

  it('says once, readable, where each role listens and what it uses', async () => {
    const summary = product.output().slice(product.output().indexOf('Velvet Rope is running'));
    expect(product.output().split('Velvet Rope is running')).toHaveLength(2);
    const localhost = (url: string) => url.replace('127.0.0.1', 'localhost');
    expect(summary).toMatch(new RegExp(`web +${localhost(web)} +invitation: ${localhost(web)}/\\?rc=WELCOME2026`));
    expect(summary).toMatch(new RegExp(`api +${localhost(api)}/graphql`));
    expect(summary).toMatch(new RegExp(`worker +${localhost(worker)}/health/ready`));
    expect(summary).toMatch(/database +SQLite, \/\S+\/velvet\.sqlite/);
    expect(summary).toMatch(new RegExp(`email +dev mailbox, /\\S+/mailbox +\\(read at ${localhost(api)}/dev/mailbox\\)`));
    expect(summary).toMatch(/redis +none: rate limits, events and the outbox signal stay in each process/);
    // And each role answers the health checks a platform asks.
    for (const base of [web, api, worker]) {
      expect(await status(`${base}/health/live`)).toBe(200);
      expect(await status(`${base}/health/ready`)).toBe(200);
    }
  });

  it('stops every program on SIGTERM', async () => {
    const pids = programs().map((p) => p.pid);
    expect(await product.stop()).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('npm start with a deployment address', () => {
  it('refuses to start without a secret and a mail server, once, and says which variables', async () => {
    const [port, apiPort, workerPort] = await freePorts(3);
    const product = run(['scripts/start.mjs'], {
      PORT: String(port),
      API_PORT: String(apiPort),
      WORKER_PORT: String(workerPort),
      DATA_DIR: dataDir(),
      PUBLIC_URL: 'https://club.velvetrope.example',
    });
    expect(await product.exited).toBe(1);
    expect(product.output()).toMatch(/APP_SECRET is required when PUBLIC_URL is not a loopback address/);
    expect(product.output()).toMatch(/SMTP_URL is required/);
    expect(product.output()).toMatch(/refused its configuration; stopping/);
    expect(product.output()).not.toMatch(/starting it again/);
  });
});

describe('npm start killed outright', () => {
  it('takes its programs with it, so nothing holds the ports against the next start', async () => {
    const [port, apiPort, workerPort] = await freePorts(3);
    const product = run(['scripts/start.mjs'], { PORT: String(port), API_PORT: String(apiPort), WORKER_PORT: String(workerPort), DATA_DIR: dataDir(), SEED_DEMO: 'false' });
    await eventually('the product to start', async () => (product.output().includes('Velvet Rope is running') ? true : undefined), 90_000);
    const pids = childrenOf(product.child.pid!).map((p) => p.pid);
    expect(pids).toHaveLength(3);
    product.child.kill('SIGKILL');
    await product.exited;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await eventually('every program to stop', async () => (pids.some(alive) ? undefined : true), 15_000);
    expect(await status(`http://127.0.0.1:${port}/healthz`)).toBeUndefined();
    expect(await status(`http://127.0.0.1:${apiPort}/health`)).toBeUndefined();
    expect(await status(`http://127.0.0.1:${workerPort}/health/live`)).toBeUndefined();
  });
});
