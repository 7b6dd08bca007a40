/**
 * The network a client address belongs to (issue 12 §2, §4): what per-address limits count and
 * what a code's signals spread over. An IPv4 address is one client; an IPv6 client gets a whole
 * /64 from its provider and can take a new address from it for every request, so the /64 is the
 * client. For the spread of a code's visitors, IPv4 counts by /24 (one provider's block) and
 * IPv6 by /48 (one site's allocation: a home or office line is delegated a /48 or a /56, so one
 * stranger has thousands of /64s — and must count once, ADR 054).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, or null. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  const withoutZone = address.split('%')[0] ?? '';
  let text = withoutZone;
  // An embedded IPv4 tail (::ffff:192.0.2.1) as two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    text = text.slice(0, -v4.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as IPv4, else null. */
function mappedIpv4(groups: number[]): string | null {
  if (groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return null;
  const [hi = 0, lo = 0] = groups.slice(6);
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/**
 * The client for per-address limits: an IPv4 address as it is, an IPv6 address as its /64
 * (`2001:db8:1:2::/64`). Anything else (`unknown`) is returned unchanged.
 */
export function clientNetwork(address: string): string {
  return networkOf(address, 32, 64);
}

/** The network a code's signals count: IPv4 by /24, IPv6 by /48. */
export function signalNetwork(address: string): string {
  return networkOf(address, 24, 48);
}

function networkOf(address: string, ipv4Bits: 24 | 32, ipv6Bits: 48 | 64): string {
  const ip = address.trim().toLowerCase();
  if (isIPv4(ip)) return ipv4Bits === 32 ? ip : `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  const v4 = mappedIpv4(groups);
  if (v4) return networkOf(v4, ipv4Bits, ipv6Bits);
  return `${groups
    .slice(0, ipv6Bits / 16)
    .map((g) => g.toString(16))
    .join(':')}::/${ipv6Bits}`;
}
