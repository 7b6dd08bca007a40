/**
 * An address as its owner wrote it. The shared schema hands on an address with its domain in
 * ASCII (IDNA), the form DNS and mail servers take and the API stores (ADR 042); a page that
 * echoes the address shows the domain's own letters: `anna@xn--mller-kva.de` is shown
 * `anna@müller.de`. Anything that is not such an address is shown as it is.
 */
import { domainToUnicode } from 'node:url';

export function shownEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0 || !/xn--/i.test(address.slice(at + 1))) return address;
  const domain = domainToUnicode(address.slice(at + 1));
  return domain ? `${address.slice(0, at)}@${domain}` : address;
}
