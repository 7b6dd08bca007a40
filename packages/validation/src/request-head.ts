/**
 * The headers a client writes that name the site itself — Host, X-Forwarded-Host behind a
 * trusted proxy, Origin — checked before anything builds an address from them (issue 18 §1).
 * A value the WHATWG URL parser refuses (`a<b`, `^`, a space…) or reads as more than a host
 * (`a/b`, `a@b`, `a?b`) would otherwise make `new URL()` throw deep inside a framework; the
 * web server and the API answer such a request with a 400 instead, before their handlers.
 */

/** True when `value` is a host with an optional port and nothing else, as a URL's authority. */
export function usableHost(value: string): boolean {
  if (value === '') return false;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return false;
  }
  return url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '' && !value.endsWith('?') && !value.endsWith('#');
}

/** True when an Origin header can be read: `null`, or an address a URL parser accepts (what React Router's action check parses). */
export function usableOrigin(value: string): boolean {
  return value === 'null' || URL.canParse(value);
}

/** The name of the first header that names the site unusably, or null when the request may go on. */
export function unusableSiteHeader(header: (name: string) => string | undefined, trustProxy: boolean): 'host' | 'x-forwarded-host' | 'origin' | null {
  const host = header('host');
  if (host !== undefined && !usableHost(host)) return 'host';
  const forwarded = trustProxy ? header('x-forwarded-host') : undefined;
  if (forwarded !== undefined && !forwarded.split(',').every((part) => usableHost(part.trim()))) return 'x-forwarded-host';
  const origin = header('origin');
  if (origin !== undefined && !usableOrigin(origin)) return 'origin';
  return null;
}
