import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { useState } from 'react';
import { Form } from 'react-router';
import { useSubmitting } from '../lib/forms/forms.ts';
import { FormGuard } from './form-guard.tsx';
import { useT } from '../lib/page/use-root.ts';
import { describedBy, FieldErrors } from './field.tsx';
import { Modal } from './modal.tsx';

/**
 * A member's shared product link (viralProductShare): the piece is teased, and a pop-up
 * asks non-members for their email address to start the registration with the sharer's
 * invitation. Closed, the teaser keeps a button to open it again.
 */
export function ProductShare({ inviterName, lastResult }: { inviterName: string | null; lastResult?: SubmissionResult<string[]> | undefined }) {
  const t = useT();
  const busy = useSubmitting('product-share');
  const [open, setOpen] = useState(true);
  const [form, fields] = useForm<{ email: string }>({ id: 'product-share', lastResult });
  const lead = inviterName ? t('productShare.text', { inviterName }) : t('productShare.textAnonymous');
  return (
    <section aria-labelledby="product-share-title" className="bg-mist">
      <div className="mx-auto grid max-w-6xl gap-10 px-6 py-16 sm:grid-cols-2 sm:items-center">
        <div aria-hidden="true" className="relative aspect-[4/5] overflow-hidden bg-gradient-to-br from-neutral-300 via-neutral-200 to-neutral-400">
          <div className="absolute inset-0 backdrop-blur-xl" />
          <p className="eyebrow absolute inset-x-0 bottom-6 text-center text-ink">{t('productShare.teaser')}</p>
        </div>
        <div>
          <h2 id="product-share-title" className="display text-4xl">{t('productShare.title')}</h2>
          <p className="mt-4 text-lg text-stone">{lead}</p>
          <button type="button" className="btn-primary mt-8" onClick={() => setOpen(true)}>{t('productShare.submit')}</button>
        </div>
      </div>
      <Modal open={open} onClose={() => setOpen(false)} labelledBy="product-share-dialog-title">
        <h2 id="product-share-dialog-title" className="display text-3xl">{t('productShare.title')}</h2>
        <p className="mt-3 text-stone">{lead}</p>
        <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-4">
          <input type="hidden" name="intent" value="product-share" />
          <FormGuard />
          <div>
            <label htmlFor={fields.email.id} className="eyebrow block text-stone">{t('productShare.email')}</label>
            <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" inputMode="email" className="field-input mt-2" aria-describedby={describedBy(fields.email)} />
            <FieldErrors field={fields.email} />
          </div>
          <button type="submit" className="btn-primary w-full" disabled={busy}>{t('productShare.submit')}</button>
        </Form>
      </Modal>
    </section>
  );
}
