/**
 * Redirects stay on the site (ADR 028). A Location built from the request's path is read by
 * browsers as a web address: `//evil.example` and `/\evil.example` (a backslash is a slash
 * to them, and they drop tabs and newlines anywhere in it) lead to another host. These
 * helpers turn such a target into a path on our own origin.
 */

/** Characters a browser removes from an address before reading it. */
const DROPPED = /[\t\n\r]/g;

/** A target that a browser would read as another host on the same scheme (`//host`, `/\host`, `\\host`…). */
export function leavesTheSite(location: string): boolean {
  let read = location.replace(DROPPED, '');
  // Browsers also strip leading C0 controls and spaces.
  while (read.length > 0 && read.charCodeAt(0) <= 0x20) read = read.slice(1);
  return /^[\\/]{2}/.test(read);
}

function encodeUnsafe(character: string): string {
  try {
    return encodeURIComponent(character);
  } catch {
    return '%EF%BF%BD'; // a lone surrogate
  }
}

/**
 * `target` (a path, with query and fragment) as a path on this site: one leading slash,
 * never `//` or `/\`, and only printable ASCII (everything else percent-encoded; existing
 * escapes stay as they are).
 */
export function sameSitePath(target: string): string {
  const cleaned = target.replace(DROPPED, '').replace(/^[\\/]+/, '');
  return `/${cleaned}`.replace(/[^\x21-\x7e]/gu, encodeUnsafe);
}
