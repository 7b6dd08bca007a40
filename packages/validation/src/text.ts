/**
 * Text no field of ours accepts (docs/decisions/027). U+0000 above all: PostgreSQL text
 * cannot hold it ("invalid byte sequence", 22021) while SQLite stores it, so without this
 * check the same input would be refused on one engine and kept on the other.
 */

/** True when `value` has a C0 control character other than tab, line feed or carriage return, or DEL. */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
}

/** True when any string in `value` (nested in arrays and objects, keys too) contains U+0000. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}
