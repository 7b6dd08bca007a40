/**
 * Internationalised mail domains (ADR 042): `müller.de` is `xn--mller-kva.de` to DNS and to
 * every mail server. No zod here: the funnel's hashing (in every page's first script) uses it too.
 */

/**
 * A domain of DNS labels with a dot, in its ASCII form: letters, digits and inner hyphens, at
 * most 63 a label; the top level letters or an internationalised one (`xn--p1ai`, .рф).
 */
const ASCII_DOMAIN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/**
 * What a typed domain may hold before IDNA: letters of any script, digits, hyphens and dots (the
 * ideographic ones too), no label beginning or ending with a hyphen (its ASCII form would hide it).
 */
const TYPED_DOMAIN = /^[\p{L}\p{M}\p{N}.\u3002\uff0e\uff61-]+$/u;
const EDGE_HYPHEN = /(^|[.\u3002\uff0e\uff61])-|-($|[.\u3002\uff0e\uff61])/u;

/**
 * A domain in its ASCII (IDNA, "punycode") form, as DNS and every mail server know it:
 * `müller.de` is `xn--mller-kva.de`. The WHATWG URL parser does the conversion (UTS #46, the
 * mapping browsers use for addresses), in browsers and in Node alike, so the form and the API
 * agree without a library. Null when the domain cannot be one.
 */
export function asciiDomain(domain: string): string | null {
  if (!TYPED_DOMAIN.test(domain) || EDGE_HYPHEN.test(domain)) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
  return ASCII_DOMAIN.test(hostname) ? hostname : null;
}

/** The address with its domain in ASCII when it has one that converts; else as it is (for hashing, never for checking). */
export function asciiEmail(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = at > 0 ? asciiDomain(address.slice(at + 1).toLowerCase()) : null;
  return domain ? `${address.slice(0, at)}@${domain}` : address;
}
