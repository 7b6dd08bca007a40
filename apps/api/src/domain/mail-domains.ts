/**
 * Addresses that can receive mail (issue 12 §3, ADR 042).
 *
 * - Disposable-address domains come from `disposable-email-domains-js`, the CC0 list of the
 *   disposable-email-domains project as an npm package: updating the package updates the list,
 *   no code changes. A subdomain of a listed domain is disposable too.
 * - A domain receives mail when DNS names a mail exchanger for it (MX), or, without one, an
 *   address (A/AAAA, RFC 5321 §5.1); a "null MX" (RFC 7505) says it takes none. The question has
 *   a short time-out; when DNS itself does not answer (time-out, refused, server failure) the
 *   answer is `unknown`: the address is accepted and flagged, registration never waits on DNS.
 */
import { Resolver } from 'node:dns/promises';
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

type MailDomainVerdict = 'deliverable' | 'undeliverable' | 'unknown';

/** The domain part of an address, lower case, without a trailing dot. */
function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase().replace(/\.$/, '');
}

let disposable: Set<string> | undefined;

/** True for a domain on the disposable-address list, or a subdomain of one. */
export function isDisposableDomain(domain: string): boolean {
  disposable ??= disposableEmailBlocklistSet();
  const labels = domain.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (disposable.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

/** DNS answers that mean "no such records" (the name or the record type does not exist). */
const NO_RECORDS = new Set(['ENOTFOUND', 'ENODATA']);

export interface MailDomainChecker {
  check(domain: string): Promise<MailDomainVerdict>;
}

export interface MailDomainCheckOptions {
  /** Resolvers (`ip` or `ip:port`); the system's when empty. */
  servers: readonly string[];
  /** Per question; the whole check is bounded by twice this. */
  timeoutMs: number;
}

const CACHE_MS = 10 * 60 * 1000;
const CACHE_SIZE = 2000;

export function createMailDomainChecker(options: MailDomainCheckOptions): MailDomainChecker {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
  if (options.servers.length > 0) resolver.setServers([...options.servers]);
  const cache = new Map<string, { verdict: MailDomainVerdict; at: number }>();

  /** The records of one question: a list, `none`, or `unknown` when DNS did not answer. */
  const ask = async <T>(question: () => Promise<T[]>): Promise<T[] | 'none' | 'unknown'> => {
    try {
      const records = await question();
      return records.length > 0 ? records : 'none';
    } catch (error) {
      return NO_RECORDS.has((error as NodeJS.ErrnoException).code ?? '') ? 'none' : 'unknown';
    }
  };

  const lookup = async (domain: string): Promise<MailDomainVerdict> => {
    const mx = await ask(() => resolver.resolveMx(domain));
    if (mx === 'unknown') return 'unknown';
    if (mx !== 'none') {
      // RFC 7505: one MX of preference 0 naming the root ("." , read as "") takes no mail.
      const nullMx = mx.length === 1 && mx[0]!.exchange.replace(/\.$/, '') === '';
      return nullMx ? 'undeliverable' : 'deliverable';
    }
    const [v4, v6] = await Promise.all([ask(() => resolver.resolve4(domain)), ask(() => resolver.resolve6(domain))]);
    if (Array.isArray(v4) || Array.isArray(v6)) return 'deliverable';
    return v4 === 'unknown' || v6 === 'unknown' ? 'unknown' : 'undeliverable';
  };

  return {
    async check(domain) {
      const now = Date.now();
      const hit = cache.get(domain);
      if (hit && now - hit.at < CACHE_MS) return hit.verdict;
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<MailDomainVerdict>((resolve) => {
        timer = setTimeout(() => resolve('unknown'), options.timeoutMs * 2);
      });
      const verdict = await Promise.race([lookup(domain), bounded]).finally(() => clearTimeout(timer));
      // DNS not answering is not remembered: the next address asks again.
      if (verdict !== 'unknown') {
        if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(domain, { verdict, at: now });
      }
      return verdict;
    },
  };
}

export type MailAddressVerdict = { ok: true; unverified: boolean } | { ok: false; messageId: 'validation.disposableEmail' | 'validation.emailDomain' };

/**
 * Whether a well-formed address may sign up: refused for a disposable domain or one that takes
 * no mail; accepted and `unverified` when DNS could not be asked. `checker` null: DNS is not
 * asked (EMAIL_DOMAIN_CHECK off, or an identity provider vouched for the address).
 */
export async function checkMailAddress(email: string, checker: MailDomainChecker | null): Promise<MailAddressVerdict> {
  const domain = domainOf(email);
  if (isDisposableDomain(domain)) return { ok: false, messageId: 'validation.disposableEmail' };
  if (!checker) return { ok: true, unverified: false };
  const verdict = await checker.check(domain);
  if (verdict === 'undeliverable') return { ok: false, messageId: 'validation.emailDomain' };
  return { ok: true, unverified: verdict === 'unknown' };
}
