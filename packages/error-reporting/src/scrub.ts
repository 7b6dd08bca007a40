/**
 * Removes personal data from anything about to leave for the error-reporting service
 * (spec §9): gender, firstName, lastName, email, postalCode, bday, country, passwords and
 * card data (numbers, security codes, expiry), wherever they are — as keys of nested
 * objects and arrays, as parameters of query strings and form bodies, as fields of JSON
 * inside strings — plus email addresses and card numbers in free text. Secrets travel the
 * same way (authorization, cookies, tokens). Runs in the browser and on the servers.
 */
import { FILTERED } from './limits.ts';

/** Normalised (lower-case, letters and digits only) names whose value is always removed when the key contains one. */
const CONTAINS = [
  'gender',
  'firstname',
  'lastname',
  'email',
  'postalcode',
  'zipcode',
  'bday',
  'birthday',
  'birthdate',
  'dateofbirth',
  'country',
  'password',
  'passwd',
  'cardnumber',
  'creditcard',
  'ccnumber',
  'cardholder',
  'cvc',
  'cvv',
  'securitycode',
  'expiry',
  'expiration',
  'expdate',
  'expmonth',
  'expyear',
  'iban',
  'authorization',
  'cookie',
  'token',
  'secret',
  'apikey',
];

/** Names removed only when they are the whole key (too short to match inside others). */
const EXACT = new Set(['cc', 'pan', 'exp', 'dob', 'zip', 'pwd', 'pass', 'card']);

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isSensitiveKey(key: string): boolean {
  let decoded = key;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    // keep as is
  }
  const name = normalizeKey(decoded);
  return name !== '' && (EXACT.has(name) || CONTAINS.some((token) => name.includes(token)));
}

/** Bounded quantifiers: linear time on long strings without an @. */
const EMAIL = /[A-Za-z0-9._%+-]{1,64}(?:@|%40)[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}/g;
/** 13–19 digits, optionally grouped by spaces or dashes. */
const CARD_CANDIDATE = /\b\d(?:[ -]?\d){12,18}\b/g;
/** key=value in query strings, form bodies and log text. */
const PARAM = /(^|[?&;#\s,(])([^=&?#;\s,()"']{1,100})=([^&#;\s,)"']*)/g;
/** "key": "value" / "key": 12 inside JSON text. */
const JSON_FIELD = /("([^"\\]{1,100})"\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Longer strings are cut before scrubbing (reports never carry more; scrubbing stays fast). */
const MAX_SCRUBBED_STRING = 65_536;

export function scrubString(input: string): string {
  // Cut at a separator, so no half address or half number is left at the end unrecognised.
  const value = input.length > MAX_SCRUBBED_STRING ? `${input.slice(0, MAX_SCRUBBED_STRING).replace(/[^\s,;&?#"'()<>]{0,400}$/, '')}…` : input;
  return value
    .replace(JSON_FIELD, (match, head: string, key: string) => (isSensitiveKey(key) ? `${head}"${FILTERED}"` : match))
    .replace(PARAM, (match, lead: string, key: string) => (isSensitiveKey(key) ? `${lead}${key}=${FILTERED}` : match))
    .replace(EMAIL, FILTERED)
    .replace(CARD_CANDIDATE, (match) => {
      const digits = match.replace(/\D/g, '');
      return digits.length >= 13 && digits.length <= 19 && luhn(digits) ? FILTERED : match;
    });
}

/**
 * A deep copy of `value` without personal data. Cycles become "[Circular]", depth beyond
 * 12 "[Too deep]"; functions and symbols are dropped; errors become { name, message, stack }.
 */
export function scrub(value: unknown): unknown {
  const seen = new WeakSet<object>();
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return scrubString(node);
    if (node === null || typeof node === 'number' || typeof node === 'boolean') return node;
    if (typeof node === 'bigint') return node.toString();
    if (typeof node !== 'object') return undefined;
    if (seen.has(node)) return '[Circular]';
    if (depth > 12) return '[Too deep]';
    seen.add(node);
    try {
      if (node instanceof Error) {
        return { name: node.name, message: scrubString(node.message), ...(node.stack ? { stack: scrubString(node.stack) } : {}) };
      }
      if (node instanceof Date) return node.toISOString();
      if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1) ?? null);
      const out: Record<string, unknown> = {};
      let hidden = 0;
      for (const [key, child] of Object.entries(node)) {
        if (isSensitiveKey(key)) {
          out[key] = FILTERED;
          continue;
        }
        const cleanKey = scrubString(key);
        const name = cleanKey === key ? key : `${FILTERED}#${++hidden}`;
        const cleaned = walk(child, depth + 1);
        if (cleaned !== undefined) out[name] = cleaned;
      }
      return out;
    } finally {
      seen.delete(node);
    }
  };
  return walk(value, 0);
}
