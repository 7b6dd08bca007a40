import { describe, expect, it } from 'vitest';
import { unusableSiteHeader, usableHost, usableOrigin } from '../src/request-head.ts';

describe('the headers that name the site', () => {
  it('takes a host with an optional port, and nothing more', () => {
    for (const host of ['localhost', 'localhost:3000', 'club.example', 'CLUB.example.', '127.0.0.1:3310', '[::1]', '[::1]:9090', 'xn--bcher-kva.example']) {
      expect({ host, usable: usableHost(host) }).toEqual({ host, usable: true });
    }
    for (const host of ['', 'a<b', '^', '%', '[', 'a b', 'a/b', 'a\\b', 'a@b', 'user:pw@b', 'a?b', 'a#b', 'a?', 'x:99999', 'x:y', '[::1', '|']) {
      expect({ host, usable: usableHost(host) }).toEqual({ host, usable: false });
    }
  });

  it('reads Origin as React Router does: null or an address', () => {
    expect(usableOrigin('null')).toBe(true);
    expect(usableOrigin('https://club.example')).toBe(true);
    expect(usableOrigin('not a url')).toBe(false);
    expect(usableOrigin('')).toBe(false);
  });

  it('names the first unusable header, and reads X-Forwarded-Host only behind a trusted proxy', () => {
    const headers = (values: Record<string, string>) => (name: string) => values[name];
    expect(unusableSiteHeader(headers({ host: 'club.example' }), false)).toBeNull();
    expect(unusableSiteHeader(headers({ host: 'a<b' }), false)).toBe('host');
    expect(unusableSiteHeader(headers({ host: 'club.example', 'x-forwarded-host': 'a<b' }), false)).toBeNull();
    expect(unusableSiteHeader(headers({ host: 'club.example', 'x-forwarded-host': 'a<b' }), true)).toBe('x-forwarded-host');
    expect(unusableSiteHeader(headers({ host: 'club.example', 'x-forwarded-host': 'club.example, proxy.internal:8080' }), true)).toBeNull();
    expect(unusableSiteHeader(headers({ host: 'club.example', origin: '%' }), false)).toBe('origin');
  });
});
