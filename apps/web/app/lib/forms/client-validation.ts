/**
 * A form's shared Zod schema (@velvet/validation), run in the browser by Conform. Conform
 * types a form's fields by their submitted (string) values while the schema's parsed
 * output has booleans and enums; the submission is handed over typed by the form's values.
 * Kept apart from ./forms.ts so pages without such a form never load Zod.
 */
import type { Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { z, type ZodType } from 'zod';

/** A submit button with this name leaves the step without checking it (lean step 2's Back). */
export const BACK_BUTTON = 'back';

const anything = z.object({}).loose();

export function validateWith<Values extends object>(schema: ZodType) {
  return ({ formData, submitter }: { formData: FormData; submitter?: HTMLElement | null }) =>
    parseWithZod(formData, { schema: (submitter as HTMLButtonElement | null | undefined)?.name === BACK_BUTTON ? anything : schema }) as unknown as Submission<
      Values,
      string[],
      Values
    >;
}
