/**
 * Client-side checks for the forms built on a shared Zod schema (the registration form, the
 * social second step): the schema runs in the browser as the person types, and again in the
 * action, so messages are the same without JavaScript. Zod and the schemas
 * (./client-validation-rules.ts) are not part of the page: they are evaluated when the person
 * starts on the form (FormGuard's `prepare`), which keeps that work out of the page load on a
 * phone. FormGuard holds a submission until the load has settled.
 *
 * Before the rules are there, Conform's field checks (an input after the action has answered
 * with errors) keep the errors the form shows and never post; a submission (the load failed,
 * or "Back", which needs no checks) goes to the action, which validates it as without JavaScript.
 * Each check made without them asks for them again (one download at a time), so a connection
 * that comes back brings the checks back without a reload.
 */
import { parse, type Submission } from '@conform-to/react';
import type * as ClientValidationRules from './client-validation-rules.ts';

/** A submit button with this name leaves the step without checking it (lean step 2's Back). */
export const BACK_BUTTON = 'back';

type Rules = typeof ClientValidationRules;

let rules: Rules | undefined;
let loading: Promise<void> | undefined;

/** Loads the rules once; never rejects (a failed load is tried again at the next call). */
export function loadClientValidation(): Promise<void> {
  return (loading ??= import('./client-validation-rules.ts').then(
    (module) => {
      rules = module;
    },
    () => {
      loading = undefined;
    },
  ));
}

/** Conform's `onValidate` for a form whose schema `schemaOf` picks from the rules. */
export function clientValidation<Values>(schemaOf: (loaded: Rules) => NonNullable<Parameters<Rules['validate']>[0]>) {
  return ({ form, formData, submitter }: { form: HTMLFormElement; formData: FormData; submitter?: HTMLElement | null }): Submission<Values, string[], Values> => {
    if (!rules) {
      void loadClientValidation();
      return withoutRules<Values>(form, formData);
    }
    const back = submitter instanceof HTMLButtonElement && submitter.name === BACK_BUTTON;
    return rules.validate<Values>(back ? null : schemaOf(rules), formData);
  };
}

function withoutRules<Values>(form: HTMLFormElement, formData: FormData) {
  return parse<Values, string[]>(formData, {
    // A field check: every error shown stays (null keeps a field's error, and '' is the form's own).
    // A submission: no verdict (null), so Conform lets it go to the action.
    resolve: (_payload, intent) => ({ error: intent ? Object.fromEntries(['', ...fieldNames(form)].map((name) => [name, null])) : null }),
  }) as Submission<Values, string[], Values>;
}

function fieldNames(form: HTMLFormElement): string[] {
  return [...form.elements].flatMap((element) => ('name' in element && typeof element.name === 'string' && element.name ? [element.name] : []));
}
