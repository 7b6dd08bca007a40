import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { useState } from 'react';
import { Form } from 'react-router';
import { useSubmitting } from '../lib/forms/forms.ts';
import { FormGuard } from './form-guard.tsx';
import { useIntl } from 'react-intl';
import { SHARED_PRODUCT } from '../lib/landing/shared-product.ts';
import { useT } from '../lib/page/use-root.ts';
import { EmailSuggestion } from './email-suggestion.tsx';
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
        <SharedProduct />
        <div>
          <h2 id="product-share-title" className="display text-4xl">{t('productShare.title')}</h2>
          <p className="mt-4 text-lg text-stone">{lead}</p>
          <button type="button" className="btn-primary mt-8" onClick={() => setOpen(true)}>{t('productShare.submit')}</button>
        </div>
      </div>
      <Modal open={open} onClose={() => setOpen(false)} labelledBy="product-share-dialog-title">
        <h2 id="product-share-dialog-title" className="display text-3xl">{t('productShare.title')}</h2>
        <p className="mt-3 text-stone">{lead}</p>
        <SharedProduct compact />
        <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-4">
          <input type="hidden" name="intent" value="product-share" />
          <FormGuard />
          <div>
            <label htmlFor={fields.email.id} className="eyebrow block text-stone">{t('productShare.email')}</label>
            <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" inputMode="email" className="field-input mt-2" aria-describedby={describedBy(fields.email)} />
            <FieldErrors field={fields.email} />
            <EmailSuggestion inputId={fields.email.id} />
          </div>
          <button type="submit" className="btn-primary w-full" disabled={busy}>{t('productShare.submit')}</button>
        </Form>
      </Modal>
    </section>
  );
}

/**
 * The shared piece: its picture, brand, name, the members' price and the retail price it is
 * taken off. `compact`: a line in the pop-up, so the piece stays in sight while the visitor types.
 */
function SharedProduct({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const intl = useIntl();
  const p = SHARED_PRODUCT;
  const money = (euros: number) => intl.formatNumber(euros, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
  const off = intl.formatNumber(-(1 - p.memberPrice / p.retailPrice), { style: 'percent', maximumFractionDigits: 0 });
  const prices = (
    <p className={compact ? 'mt-1 text-sm' : 'mt-4'}>
      <span className="sr-only">{t('productShare.price.member')}: </span>
      <span className={compact ? 'font-medium' : 'display text-3xl'}>{money(p.memberPrice)}</span>{' '}
      <span className="sr-only">{t('productShare.price.retail')}: </span>
      <s className="text-stone">{money(p.retailPrice)}</s>{' '}
      <span className="text-stone">{off}</span>
    </p>
  );
  if (compact) {
    return (
      <div className="mt-6 flex items-center gap-4 border-y border-line py-4">
        <img src={p.picture} alt="" width={64} height={80} className="h-20 w-16 shrink-0 object-cover" />
        <div>
          <p className="eyebrow text-stone">{p.brand}</p>
          <p className="mt-1">{t(p.name)}</p>
          {prices}
        </div>
      </div>
    );
  }
  return (
    <figure className="bg-paper" data-testid="shared-product">
      <div className="relative">
        <img src={p.picture} alt={t(p.name)} width={400} height={500} className="aspect-[4/5] w-full object-cover" />
        <p className="eyebrow absolute left-4 top-4 bg-ink px-3 py-1 text-paper">{t('productShare.teaser')}</p>
      </div>
      <figcaption className="p-6">
        <p className="eyebrow text-stone">{p.brand}</p>
        <p className="mt-2 text-lg font-medium">{t(p.name)}</p>
        <p className="eyebrow mt-4 text-stone" aria-hidden="true">{t('productShare.price.member')}</p>
        {prices}
      </figcaption>
    </figure>
  );
}
