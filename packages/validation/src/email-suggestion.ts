/**
 * "Did you mean anna@gmx.de?" (issue 24 §3, ADR 061): the address with its domain corrected when
 * the typed domain is one slip of the fingers from a provider's (MAIL_PROVIDERS), or its top
 * level one that exists nowhere (MISTYPED_TOP_LEVELS). A suggestion only: the form never changes
 * what was typed without the person's tap, and the API never refuses an address for it.
 *
 * A slip is what fingers do on a keyboard, not any edit: a key left out, a key pressed beside
 * the intended one or with it, two keys swapped. So `wep.de` (b and p lie far apart) is a domain
 * of its own, not a typo of web.de. The keys are QWERTY's, QWERTZ's and AZERTY's together, the
 * layouts of our 28 countries. No zod and no other import: the browser loads this on the first
 * blur of an email field.
 */
import { MAIL_PROVIDERS, MISTYPED_TOP_LEVELS } from './email-providers.ts';

const LAYOUTS = [
  ['1234567890-', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm,.'],
  ['1234567890', 'qwertzuiop', 'asdfghjkl', 'yxcvbnm,.-'],
  ['1234567890', 'azertyuiop', 'qsdfghjklm', 'wxcvbn,;'],
];

/** Each key's neighbours on any of the layouts: the same row either side, and the touching keys of the rows above and below. */
const NEIGHBOURS = new Map<string, Set<string>>();
for (const rows of LAYOUTS) {
  rows.forEach((row, r) => {
    [...row].forEach((key, i) => {
      const near = [row[i - 1], row[i + 1], rows[r - 1]?.[i], rows[r - 1]?.[i + 1], rows[r + 1]?.[i - 1], rows[r + 1]?.[i]];
      const set = NEIGHBOURS.get(key) ?? new Set<string>();
      for (const other of near) if (other) set.add(other);
      NEIGHBOURS.set(key, set);
    });
  });
}

const near = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && (a === b || (NEIGHBOURS.get(a)?.has(b) ?? false));

/** The first index where the two differ, and the last (counted from each end). */
function differingSpan(typed: string, intended: string) {
  let start = 0;
  while (start < typed.length && start < intended.length && typed[start] === intended[start]) start++;
  let endTyped = typed.length;
  let endIntended = intended.length;
  while (endTyped > start && endIntended > start && typed[endTyped - 1] === intended[endIntended - 1]) {
    endTyped--;
    endIntended--;
  }
  return { start, endTyped, endIntended };
}

/**
 * Whether `typed` is `intended` after one slip: a key left out, a neighbouring key instead of the
 * right one, a neighbouring (or the same) key pressed as well, or two keys swapped.
 */
export function isSlipOf(typed: string, intended: string): boolean {
  if (typed === intended) return false;
  const { start, endTyped, endIntended } = differingSpan(typed, intended);
  const typedPart = typed.slice(start, endTyped);
  const intendedPart = intended.slice(start, endIntended);
  // Left out: one key of the intended domain is missing.
  if (typedPart === '' && intendedPart.length === 1) return true;
  // Pressed as well: an extra key beside (or the same as) a key next to it. The span may slide
  // along a run of one letter ("gmaail"), so any position of the extra key within it will do.
  if (intendedPart === '' && typedPart.length === 1) {
    const extra = typedPart;
    return near(extra, typed[start - 1]) || near(extra, typed[start + 1]);
  }
  // Instead: one key replaced by its neighbour.
  if (typedPart.length === 1 && intendedPart.length === 1) return near(typedPart, intendedPart);
  // Swapped: two keys in the wrong order.
  return typedPart.length === 2 && intendedPart.length === 2 && typedPart[0] === intendedPart[1] && typedPart[1] === intendedPart[0];
}

const KNOWN = new Set(MAIL_PROVIDERS);

/** The provider domain `domain` is a slip of, or one with its nonexistent top level corrected; null for a domain that is fine as it is. */
function suggestDomain(domain: string): string | null {
  if (KNOWN.has(domain)) return null;
  const provider = MAIL_PROVIDERS.find((candidate) => isSlipOf(domain, candidate));
  if (provider) return provider;
  const dot = domain.lastIndexOf('.');
  const topLevel = MISTYPED_TOP_LEVELS[domain.slice(dot + 1)];
  return dot > 0 && topLevel ? `${domain.slice(0, dot)}.${topLevel}` : null;
}

/**
 * The address with its domain corrected ("anna@gmx.ed" → "anna@gmx.de"), trimmed and lower-cased
 * as the forms store it; null when there is nothing to suggest (no @, or a domain that is fine).
 */
export function suggestEmail(typed: string): string | null {
  const address = typed.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1 || at === address.length - 1) return null;
  const domain = suggestDomain(address.slice(at + 1));
  return domain ? `${address.slice(0, at)}@${domain}` : null;
}
