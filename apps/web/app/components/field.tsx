import type { FieldMetadata } from '@conform-to/react';
import { useT } from '../lib/page/use-root.ts';

/**
 * The translated error of one field, announced politely, with a stable id for aria. One
 * message per problem: the schemas stop at a field's first failing rule, and only the first
 * is shown should two ever arrive.
 */
export function FieldErrors({ field, inverse = false }: { field: FieldMetadata<unknown>; inverse?: boolean }) {
  const t = useT();
  return (
    <div id={field.errorId} aria-live="polite" className={`mt-2 min-h-5 text-sm ${inverse ? 'text-red-200' : 'text-alert'}`}>
      {field.errors?.[0] ? <p>{t(field.errors[0])}</p> : null}
    </div>
  );
}

export function describedBy(field: FieldMetadata<unknown>): string | undefined {
  return field.errors?.length ? field.errorId : undefined;
}
