/**
 * Random codes people read aloud and type from paper: registration codes and welcome vouchers.
 */
import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L. 32 symbols, so no modulo bias. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** `length` symbols of CODE_ALPHABET, 5 random bits each. */
export function randomCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}
