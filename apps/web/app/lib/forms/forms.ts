/**
 * Submit buttons are disabled while their own form is on its way. A Conform form validated
 * only on the server re-checks a field by posting the form with its intent field; such a
 * field check is not a submission and never disables the button (a click landing on a
 * button disabled by a check in flight was lost — ADR 008).
 */
import { useNavigation } from 'react-router';

/** The form field Conform adds to a field check (@conform-to/dom INTENT). */
export const FIELD_CHECK_FIELD = '__intent__';

export function isFieldCheck(formData: FormData | undefined): boolean {
  return formData?.has(FIELD_CHECK_FIELD) ?? false;
}

/**
 * True while a real submission is on its way (not a field check), until the page it leads to is shown. With `intent`, only a
 * submission whose hidden `intent` field has that value counts, so one form on a page
 * does not disable another.
 */
export function useSubmitting(intent?: string): boolean {
  const navigation = useNavigation();
  // 'loading' with form data: the action has answered and the next page (or this one, revalidated)
  // is on its way. The button stays busy until it is there, or a second tap would send again.
  if (navigation.state === 'idle' || !navigation.formData || isFieldCheck(navigation.formData)) return false;
  return intent === undefined || navigation.formData?.get('intent') === intent;
}
