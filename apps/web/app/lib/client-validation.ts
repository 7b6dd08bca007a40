/**
 * A form's shared Zod schema (@velvet/validation), run in the browser by Conform. Conform
 * types a form's fields by their submitted (string) values while the schema's parsed
 * output has booleans and enums; the submission is handed over typed by the form's values.
 * Kept apart from ./forms.ts so pages without such a form never load Zod.
 */
import type { Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ZodType } from 'zod';

export function validateWith<Values extends object>(schema: ZodType) {
  return ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema }) as unknown as Submission<Values, string[], Values>;
}
