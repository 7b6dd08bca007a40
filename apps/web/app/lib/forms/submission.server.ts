/**
 * Conform's parseWithZod for forms that strangers can post. Conform reads its intent field
 * (`__intent__`, a field check or list operation) with JSON.parse and throws on anything it
 * cannot read, which made a forged field a 500 (found by the fuzz suite, issue 9 §5). Here a
 * post whose intent Conform cannot read is parsed as a plain submission, as if the field were
 * absent: the visitor gets the form back with its messages.
 */
import { parseWithZod as conformParseWithZod } from '@conform-to/zod/v4';
import { FIELD_CHECK_FIELD } from './forms.ts';

export const parseWithZod = ((payload: FormData | URLSearchParams, options: Parameters<typeof conformParseWithZod>[1]) => {
  try {
    return conformParseWithZod(payload, options);
  } catch (error) {
    if (!payload.has(FIELD_CHECK_FIELD)) throw error;
    const plain = new FormData();
    for (const [name, value] of payload.entries()) if (name !== FIELD_CHECK_FIELD) plain.append(name, value);
    return conformParseWithZod(plain, options);
  }
}) as typeof conformParseWithZod;
