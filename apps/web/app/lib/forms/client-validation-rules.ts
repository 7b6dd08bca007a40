/**
 * The forms' shared Zod schemas (@velvet/validation), run in the browser by Conform. Loaded by
 * ./client-validation.ts when the person starts on a form, never with the page. Conform types a
 * form's fields by their submitted (string) values while the schema's parsed output has
 * booleans and enums; the submission is handed over typed by the form's values.
 */
import type { Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { leanStep1Form, leanStep2Form, registrationForm, socialSecondStepForm, type AskedNames } from '@velvet/validation/registration';
import type { RegistrationStep } from '@velvet/validation/registration-steps';
import { z, type ZodType } from 'zod';

const anything = z.object({}).loose();

/** The registration form's rules at each step, the same the action applies. */
export const registrationSteps = { 'one-step': registrationForm, 'lean-1': leanStep1Form, 'lean-2': leanStep2Form } as const satisfies Record<RegistrationStep, ZodType>;

/** The social second step's rules for the names it asks, one schema per combination. */
const socialSteps = new Map<string, ZodType>();
export function socialSecondStep(ask: AskedNames): ZodType {
  const key = `${ask.firstName}/${ask.lastName}`;
  let schema = socialSteps.get(key);
  if (!schema) socialSteps.set(key, (schema = socialSecondStepForm(ask)));
  return schema;
}

/** The form's values against its schema; with none (a button that leaves the step), anything goes. */
export function validate<Values>(schema: ZodType | null, formData: FormData) {
  return parseWithZod(formData, { schema: schema ?? anything }) as unknown as Submission<Values, string[], Values>;
}
