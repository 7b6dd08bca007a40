/**
 * Forms validated on the server (Conform without client-side rules): once a form has
 * shown its errors, Conform re-checks a field on blur or input by posting the form with
 * its intent field. Such a field check is not a submission: it must not disable the
 * submit button (a click whose mousedown blurs the last field would land on a disabled
 * button and be lost) and it changes nothing the loaders read.
 */
import { useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router';

/** The form field Conform adds to a field check (@conform-to/dom INTENT). */
export const FIELD_CHECK_FIELD = '__intent__';

export function isFieldCheck(formData: FormData | undefined): boolean {
  return formData?.has(FIELD_CHECK_FIELD) ?? false;
}

/**
 * True while a real submission is on its way (not a field check). With `intent`, only a
 * submission whose hidden `intent` field has that value counts, so one form on a page
 * does not disable another.
 */
export function useSubmitting(intent?: string): boolean {
  const navigation = useNavigation();
  if (navigation.state !== 'submitting' || isFieldCheck(navigation.formData)) return false;
  return intent === undefined || navigation.formData?.get('intent') === intent;
}

/** A route's `shouldRevalidate`: after a field check the loaders' data is unchanged. */
export function skipRevalidationAfterFieldCheck({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  if (isFieldCheck(formData)) return false;
  return defaultShouldRevalidate;
}
