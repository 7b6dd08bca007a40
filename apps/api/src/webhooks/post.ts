/**
 * One webhook attempt over the wire (ADR 065), to receivers on the internet only. The endpoint's
 * address is checked when it is saved, but a name can resolve to anything, and later to
 * something else: so the addresses a host name resolves to are checked at the moment of the
 * connection, in the socket's own look-up, and the connection is made to the address that was
 * checked (no second look-up a changed DNS answer could slip through). An internal address
 * (private, loopback, link-local, carrier-grade NAT, multicast, reserved; IPv4-mapped IPv6 too)
 * is refused unless the instance is a local one (ADR 026), whose tests and quick start post to
 * loopback receivers.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}
const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** An address of a private, loopback, link-local or reserved network (IPv4, IPv6, IPv4-mapped). */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = MAPPED_V4.exec(bare);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  const family = isIP(bare);
  if (family === 4) return INTERNAL.check(bare, 'ipv4');
  if (family === 6) return INTERNAL.check(bare, 'ipv6');
  return false;
}

/** Thrown when a receiver's host is, or resolves to, an internal address. */
export class InternalAddressError extends Error {
  constructor(host: string) {
    super(`the webhook host ${host} is an internal address`);
    this.name = 'InternalAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The socket's look-up: resolves as usual, and fails when any address found is internal. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    if (addresses.length === 0 || addresses.some(({ address }) => isInternalAddress(address))) return callback(new InternalAddressError(hostname), '');
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /** False on a local instance (ADR 026): loopback receivers are allowed there. */
  publicOnly: boolean;
}

/** Posts the delivery and answers the receiver's HTTP status (redirects are not followed). */
export function postWebhook({ url, headers, body, signal, publicOnly }: WebhookPost): Promise<number> {
  const target = new URL(url);
  // An address written as an IP literal is connected to without a look-up: checked here.
  if (publicOnly && isInternalAddress(target.hostname)) return Promise.reject(new InternalAddressError(target.hostname));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal, ...(publicOnly ? { lookup: publicOnlyLookup } : {}) },
      (response) => {
        // The answer's body is not read: only the status counts.
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
