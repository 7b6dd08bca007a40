/**
 * Referrers a registration link must not come from (spec §5): coupon and deal sites,
 * forums, search engines, social networks, web mail and translation services. An
 * invitation posted there is being passed around publicly.
 *
 * Matching (documented in docs/decisions/003):
 * - an entry without a dot (`coupon`, `reddit`) matches anywhere in the host name;
 * - an entry with a dot matches whole labels: `x.com` blocks `x.com` and `www.x.com` but
 *   not `dropbox.com`; `google.` blocks `www.google.de`; `mail.` blocks `mail.yahoo.com`.
 */
export const DEFAULT_REFERRER_BLOCKLIST: readonly string[] = [
  // coupons and deals
  'mydealz', 'groupon', 'coupon', 'gutschein', 'voucher', 'deal', 'rabatt', 'promocode', 'promo-code',
  'codice-sconto', 'bon-de-reduction', 'cupon', 'kortingscode', 'kod-rabatowy', 'rabattkod', 'retailmenot',
  'pepper.', 'dealabs', 'chollometro', 'preisjaeger',
  // forums
  'reddit', 'forum', 'quora', 'discord',
  // search engines
  'google.', 'bing.', 'duckduckgo', 'yahoo', 'ecosia', 'qwant', 'yandex', 'baidu', 'startpage',
  // social networks
  'facebook', 'fb.com', 'instagram', 'tiktok', 'twitter', 'x.com', 't.co', 'pinterest', 'linkedin',
  'snapchat', 'telegram', 'whatsapp', 'youtube', 'threads.net', 'bsky.app', 'vk.com',
  // web mail
  'mail.', 'gmail', 'outlook', 'hotmail', 'live.com', 'gmx', 'web.de', 't-online', 'proton', 'icloud',
  // translation
  'translate.', 'deepl', 'translate',
];

/** Parses a REFERRER_BLOCKLIST value: comma-separated, case-insensitive, blanks ignored. */
export function parseReferrerBlocklist(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** True when `referrer` is a valid absolute URL whose host name matches an entry of `blocklist`. */
export function isReferrerBlocked(referrer: string | null | undefined, blocklist: readonly string[]): boolean {
  if (!referrer) return false;
  const url = URL.parse(referrer.trim());
  if (!url || !url.hostname) return false;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const dotted = `.${host}.`;
  return blocklist.some((raw) => {
    const entry = raw.toLowerCase();
    if (!entry) return false;
    if (!entry.includes('.')) return host.includes(entry);
    const pattern = `${entry.startsWith('.') ? '' : '.'}${entry}${entry.endsWith('.') ? '' : '.'}`;
    return dotted.includes(pattern);
  });
}
