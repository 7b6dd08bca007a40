/**
 * acqParams (spec §2): all query parameters packed into one encoded string, so they can
 * survive a hop through a system that keeps only one parameter, and unpacked back into
 * the URL on arrival.
 */
const ACQ_PARAMS = 'acqParams';

export function packAcqParams(params: URLSearchParams): string {
  const bytes = new TextEncoder().encode(params.toString());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** URL-safe or standard base64, padded or not (a `+` left unencoded in a query reads as a space). */
export function unpackAcqParams(packed: string): URLSearchParams | undefined {
  const cleaned = packed.replace(/ /g, '+').replace(/={0,2}$/, '');
  if (!/^[A-Za-z0-9_+/-]*$/.test(cleaned)) return undefined;
  try {
    const base64 = cleaned.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new URLSearchParams(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

/**
 * Given a URL with acqParams, the same URL with the packed parameters merged back in
 * (explicit parameters win) and acqParams removed; undefined when there is nothing to do.
 */
export function expandAcqParams(url: URL): string | undefined {
  const packed = url.searchParams.get(ACQ_PARAMS);
  if (packed === null) return undefined;
  const unpacked = unpackAcqParams(packed) ?? new URLSearchParams();
  const explicit = new URLSearchParams(url.searchParams);
  explicit.delete(ACQ_PARAMS);
  const merged = new URLSearchParams();
  for (const [key, value] of unpacked) if (key !== ACQ_PARAMS && !explicit.has(key)) merged.append(key, value);
  for (const [key, value] of explicit) merged.append(key, value);
  const query = merged.toString();
  return `${url.pathname}${query ? `?${query}` : ''}${url.hash}`;
}
