/** The CSP lets the page reach the API where the acquisition defaults send it (spec §7.1, ADR 022). */
import express from 'express';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders } from '../server/security.ts';

async function connectSrc(options: Parameters<typeof securityHeaders>[0]): Promise<string[]> {
  const app = express();
  app.use(securityHeaders(options));
  app.get('/', (_req, res) => res.send('ok'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as { port: number };
    const csp = (await fetch(`http://127.0.0.1:${port}/`)).headers.get('content-security-policy') ?? '';
    return csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src'))?.split(/\s+/).slice(1) ?? [];
  } finally {
    server.close();
  }
}

describe('connect-src', () => {
  it('allows the server-rendered API address and the acquisition defaults’ override, each over http(s) and ws(s)', async () => {
    const sources = await connectSrc({
      publicUrl: 'https://club.example',
      publicApiUrl: 'https://api.club.example',
      browserGraphqlUrl: 'https://realtime.club.example/graphql',
      development: false,
    });
    expect(sources).toEqual(expect.arrayContaining(['https://api.club.example', 'wss://api.club.example', 'https://realtime.club.example', 'wss://realtime.club.example']));
    expect(sources.filter((s) => s.startsWith('ws:'))).toEqual([]);
  });

  it('names each address once when they agree', async () => {
    const sources = await connectSrc({ publicUrl: 'http://localhost:3000', publicApiUrl: 'http://localhost:9090', browserGraphqlUrl: 'http://localhost:9090/graphql', development: false });
    expect(sources).toEqual(["'self'", 'http://localhost:9090', 'ws://localhost:9090']);
  });
});

describe("a page's script-src", () => {
  const site = { publicUrl: 'https://club.example', publicApiUrl: 'https://api.club.example', tagManagerUrl: 'https://tags.example/gtm.js' };
  const scriptSrc = (policy: string) => policy.split(';').find((d) => d.startsWith('script-src'));

  it('names the digest of each inline script and nothing per response, so two renders of one page agree', () => {
    const policy = contentSecurityPolicy({ ...site, development: false });
    expect(scriptSrc(policy(['AAA=', 'BBB=']))).toBe("script-src 'self' 'sha256-AAA=' 'sha256-BBB=' 'strict-dynamic' https://tags.example");
    expect(policy(['AAA='])).toBe(policy(['AAA=']));
    expect(policy([])).not.toMatch(/nonce|unsafe/);
  });

  it("allows Vite's inline scripts in development, where digests would void 'unsafe-inline'", () => {
    expect(scriptSrc(contentSecurityPolicy({ ...site, development: true })(['AAA=']))).toBe("script-src 'self' 'unsafe-inline' https://tags.example");
  });
});
