/**
 * Hostile input at the web server (issue 9 §3, ADR 028), over real HTTP against the real
 * web server (createWebApp, pages compiled by Vite): bodies bounded whatever the framing,
 * forms only where forms go, redirects that stay on the site, the web-view cookie Secure on
 * HTTPS. No API is running: what is tested here never needs one.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { catalogs } from '@velvet/i18n/catalogs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../server/app.ts';
import { sendWithHeaders } from '../../api/test/support/hostile-input.ts';
import { printFigure } from './support/console-guard.ts';
import { startWebServer, stopPages, type TestWebServer } from './support/web-server.ts';

let web: TestWebServer;
let https: TestWebServer;
beforeAll(async () => {
  web = await startWebServer();
  https = await startWebServer({ PUBLIC_URL: 'https://club.example' });
  // Compile the pages once, so memory figures measure requests, not Vite.
  expect((await fetch(`${web.url}/membership-interest/apply`)).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await web?.close();
  await https?.close();
  await stopPages();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A POST whose body is sent in chunks (Transfer-Encoding: chunked) of `chunkBytes` up to `totalBytes`, as fast as the server takes them. */
function chunkedPost(url: string, totalBytes: number, chunkBytes = 64 * 1024): Promise<RawAnswer & { sentBytes: number }> {
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked', origin: new URL(url).origin, 'accept-language': 'de' },
    });
    const chunk = Buffer.alloc(chunkBytes, 'a');
    const pump = () => {
      while (!answered && sentBytes < totalBytes) {
        const first = sentBytes === 0;
        sentBytes += chunk.length;
        const ok = req.write(first ? Buffer.concat([Buffer.from('email='), chunk]) : chunk);
        if (!ok) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sentBytes }));
    });
    // The server closes the connection after its answer: a write may fail after that.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    pump();
  });
}

/** A request line sent exactly as written (`curl --path-as-is`): no client normalizes the path. */
function rawGet(base: string, target: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`));
    let raw = '';
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => (raw += text));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

describe('request bodies are bounded whatever the framing', () => {
  it('answers a 30 MB chunked form 413 without reading it, and memory stays flat', async () => {
    let peak = process.memoryUsage().rss;
    const before = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const answers = await Promise.all([0, 1, 2, 3].map(() => chunkedPost(`${web.url}/membership-interest/apply`, 30 * 1024 * 1024)));
      for (const answer of answers) {
        expect(answer.status).toBe(413);
        expect(answer.headers.connection).toBe('close');
        expect(answer.body).toContain(catalogs.de['error.bodyTooLarge.message']!);
        // The server stopped reading: far less than the 30 MB was ever sent.
        expect(answer.sentBytes).toBeLessThan(10 * 1024 * 1024);
      }
    } finally {
      clearInterval(sampler);
    }
    const growthMb = (peak - before) / 1024 / 1024;
    printFigure(`four parallel 30 MB chunked posts: RSS ${Math.round(before / 1048576)} MB before, peak ${Math.round(peak / 1048576)} MB (+${growthMb.toFixed(1)} MB)`);
    expect(growthMb).toBeLessThan(50);
  });

  it('refuses a declared Content-Length over the limit before reading, on every route that takes a body', async () => {
    for (const path of ['/membership-interest/apply', '/de/registration/formstarted', '/entrance/funnel', '/no-such-page']) {
      const answer = await fetch(`${web.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: web.url },
        body: `email=${'a'.repeat(MAX_BODY_BYTES)}`,
      });
      expect(answer.status, path).toBe(413);
    }
  });

  it('still takes a chunked form within the limit', async () => {
    const answer = await chunkedPost(`${web.url}/membership-interest/apply`, 2 * 1024, 1024);
    expect(answer.status).not.toBe(413);
    expect(answer.status).toBeLessThan(500);
  });
});

describe('pages take forms, nothing else', () => {
  const post = (path: string, contentType: string | undefined, body: string, language = 'en') =>
    fetch(`${web.url}${path}`, {
      method: 'POST',
      headers: { ...(contentType ? { 'content-type': contentType } : {}), origin: web.url, 'accept-language': language },
      body,
    });

  it('answers JSON, text and bodies without a type 415 in the visitor’s language, never 500', async () => {
    for (const [type, body] of [
      ['application/json', '{"email":"a@example.com"}'],
      ['text/plain', 'email=a@example.com'],
      [undefined, 'email=a@example.com'],
    ] as const) {
      for (const path of ['/membership-interest/apply', '/membership-interest/apply.data', '/fr/admin/login', '/']) {
        const answer = await post(path, type, body, 'fr');
        expect(answer.status, `${type} to ${path}`).toBe(415);
        expect(await answer.text()).toContain(catalogs.fr['error.notAForm.message']!);
      }
    }
  });

  it('answers a multipart body that does not parse 400', async () => {
    const answer = await post('/membership-interest/apply', 'multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nbroken', 'pl');
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(catalogs.pl['error.malformedForm.message']!);
  });

  it('lets forms through, as browsers and React Router’s .data requests send them', async () => {
    const form = new URLSearchParams({ email: 'not-an-address' });
    const page = await post('/membership-interest/apply', 'application/x-www-form-urlencoded', form.toString());
    // The page's own answer: the form again, with its field's error.
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(catalogs.en['validation.email']!);
    const data = await post('/membership-interest/apply.data', 'application/x-www-form-urlencoded', form.toString());
    expect(data.status).toBe(200);
    expect(await data.text()).toContain('validation.email');
    const multipart = new FormData();
    multipart.set('email', 'not-an-address');
    const sent = await fetch(`${web.url}/membership-interest/apply`, { method: 'POST', headers: { origin: web.url }, body: multipart });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain(catalogs.en['validation.email']!);
  });
});

describe('redirects stay on the site', () => {
  const hostile = [
    '/acquisition//evil.example',
    '/acquisition/\\evil.example',
    '/acquisition/%2F%2Fevil.example',
    '//evil.example/?acqParams=x',
    '/\\evil.example?acqParams=x',
    '\\\\evil.example?acqParams=x',
    '/%2F%2Fevil.example?acqParams=x',
    '/%09/evil.example?acqParams=x',
    '/%5C/evil.example?acqParams=x',
    '/DE//evil.example',
    '/de//evil.example?acqParams=x',
    '//evil.example/%ZZ',
    '/\\evil.example/%ZZ',
    '/acquisition//evil.example/%ZZ',
  ];

  it.each(hostile)('%s leads to a page of our own', async (target) => {
    const answer = await rawGet(web.url, target);
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400) {
      expect(typeof location).toBe('string');
      // Read as a browser reads it (WHATWG URL: tabs and newlines dropped, "\" is "/").
      expect(new URL(location as string, web.url).origin).toBe(web.url);
      expect(location).not.toMatch(/^[\s]*[\\/]{2}/);
    } else {
      expect(answer.status).toBeLessThan(500);
    }
  });

  it('keeps the page and its query when it moves an address', async () => {
    expect((await rawGet(web.url, '/acquisition/about-us')).headers.location).toBe('/about-us');
    expect((await rawGet(web.url, '/DE/about-us?x=1')).headers.location).toBe('/de/about-us?x=1');
    // One address per page, whatever the capitals it was asked with.
    const deny = await rawGet(web.url, '/REGISTRATION/DENY?rc=AB');
    expect({ status: deny.status, location: deny.headers.location }).toEqual({ status: 301, location: '/registration/deny?rc=AB' });
  });
});

describe('the web-view cookie', () => {
  const cookieOf = async (base: string) => {
    const answer = await fetch(`${base}/about-us?redirectUrl=${encodeURIComponent('velvetrope://home')}`);
    return answer.headers.getSetCookie().find((c) => c.startsWith('acq_webview=')) ?? '';
  };

  it('is Secure when the site is served over HTTPS, like every other cookie', async () => {
    expect(await cookieOf(https.url)).toMatch(/;\s*Secure/i);
    expect(await cookieOf(web.url)).toMatch(/^acq_webview=velvetrope/);
    expect(await cookieOf(web.url)).not.toMatch(/;\s*Secure/i);
  });
});

describe('a request that names the site unusably (issue 18 §1, §7)', () => {
  let guarded: TestWebServer;
  const reported: unknown[] = [];
  beforeAll(async () => {
    guarded = await startWebServer(
      { TRUST_PROXY: '1' },
      { errorReporting: { reporter: null, send: null, report: (error) => reported.push(error), apiFailure: (failure) => reported.push(failure) } },
    );
  }, 120_000);
  afterAll(async () => {
    await guarded?.close();
  });

  const send = (path: string, headers: Record<string, string>, method = 'GET', body?: string) =>
    sendWithHeaders(`${guarded.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });

  it('answers an unusable Host, X-Forwarded-Host or Origin with the 400 page in the visitor’s language, reporting nothing', async () => {
    const heads: Record<string, string>[] = [{ host: 'a<b' }, { host: 'a b' }, { host: '^' }, { host: 'a/b' }, { 'x-forwarded-host': 'a<b' }, { 'x-forwarded-host': 'ok.example, a|b' }, { origin: 'no url' }];
    for (const head of heads) {
      const answer = await send('/de/membership-interest/apply', head);
      expect({ head, status: answer.status }).toEqual({ head, status: 400 });
      expect(answer.body).toContain(catalogs.de['error.malformedForm.title']);
      expect(answer.body).not.toMatch(/\bat \S+ \(|node_modules/);
    }
    expect((await send('/de/membership-interest/apply', { 'x-forwarded-host': 'club.example:8443' })).status).toBe(200);
    expect(reported).toEqual([]);
  });

  it('refuses quietly, with a 400, a form whose Origin is not the address it was sent to', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'pl' };
    // The configured public address, but sent to another host: React Router would refuse it and report an error with a stack.
    for (const origin of ['http://localhost:3000', 'null']) {
      const answer = await send('/membership-interest/apply', { ...form, origin, 'sec-fetch-site': 'same-origin' }, 'POST', 'email=a%40example.test');
      expect({ origin, status: answer.status }).toEqual({ origin, status: 400 });
      expect(answer.body).toContain(catalogs.pl['error.malformedForm.title']);
    }
    expect(reported).toEqual([]);
    // The address's own origin is let through to the page's action (a form error, not a refusal).
    const own = await send('/membership-interest/apply', { ...form, origin: guarded.url }, 'POST', 'email=not-an-address');
    expect(own.status).toBe(200);
  });
});
