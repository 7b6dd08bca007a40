import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import type { SubmissionResult } from '@conform-to/react';
import { featureChangeForm } from '@velvet/validation/admin-ops';
import { useIntl } from 'react-intl';
import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-features';
import { AdminBar } from '../components/admin-bar.tsx';
import type { Notice } from '../components/code-form.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { getFeatures, resetFeature, setExperiment, setFeature } from '../lib/admin/admin-ops-operations.ts';
import type { DataOf } from '../lib/api/operations.ts';
import { callApi } from '../lib/api/api.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { useT } from '../lib/page/use-root.ts';

type Feature = DataOf<typeof getFeatures>['adminFeatures'][number];

/**
 * Flags and experiments (ADR 049): each feature as it is in force, and — with features.manage —
 * what the CLI's `feature set|reset` and `experiment set` do, with the same rules
 * (@velvet/validation/admin-ops). A change reaches open pages within seconds, as the CLI's does.
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  const result = await callApi(getFeatures, {}, { ...args, token });
  return {
    email,
    permissions: session.permissions,
    features: result.ok ? result.data.adminFeatures : null,
    notice: result.ok ? null : apiFailureMessage(result.error),
  };
}

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: featureChangeForm });
  const formId = `${String(formData.get('intent')).slice(0, 16)}-${String(formData.get('key')).slice(0, 64)}`;
  if (submission.status !== 'success') return { kind: 'form' as const, formId, result: submission.reply() };
  const input = submission.value;
  if (input.intent === 'reset' && formData.get('confirmed') !== 'yes') return { kind: 'confirm-reset' as const, key: input.key };
  const call = { ...args, token };
  const raw = Object.fromEntries(['value', 'variations', 'weights', 'coverage'].map((name) => [name, String(formData.get(name) ?? '')]));
  const sent =
    input.intent === 'set'
      ? await callApi(setFeature, { key: input.key, value: raw.value ?? '' }, call).then((r) => (r.ok ? { ok: true as const, payload: r.data.adminSetFeature } : r))
      : input.intent === 'reset'
        ? await callApi(resetFeature, { key: input.key }, call).then((r) => (r.ok ? { ok: true as const, payload: r.data.adminResetFeature } : r))
        : await callApi(setExperiment, { key: input.key, variations: raw.variations ?? '', weights: raw.weights ?? '', coverage: raw.coverage || null }, call).then((r) =>
            r.ok ? { ok: true as const, payload: r.data.adminSetExperiment } : r,
          );
  if (!sent.ok) return { kind: 'notice' as const, notice: apiFailureMessage(sent.error) };
  const { userErrors } = sent.payload;
  if (userErrors.length > 0) {
    const fieldErrors: Record<string, string[]> = {};
    for (const e of userErrors) (fieldErrors[e.field && e.field !== 'key' ? e.field : ''] ??= []).push(e.messageId);
    return { kind: 'form' as const, formId, result: submission.reply({ fieldErrors }) };
  }
  return { kind: 'saved' as const, key: input.key };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'admin.features.metaTitle', noIndex: true });

type ActionData = Route.ComponentProps['actionData'];

export default function AdminFeatures({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting('reset');
  const canChange = loaderData.permissions.includes('features.manage');
  const notice: Notice | null = loaderData.notice ?? (actionData?.kind === 'notice' ? actionData.notice : null);
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.features.title')} />
      <p className="mt-4 max-w-2xl text-paper/80">{t('admin.features.text')}</p>
      {!canChange && <p className="mt-4 max-w-2xl text-paper/80">{t('admin.features.readOnly')}</p>}
      {notice && <p role="alert" className="mt-10 border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      {actionData?.kind === 'saved' && <p role="status" className="mt-10 border-l-2 border-paper pl-4">{t('admin.features.saved', { key: actionData.key })}</p>}
      {actionData?.kind === 'confirm-reset' && (
        <section role="alertdialog" aria-labelledby="confirm-reset" aria-describedby="confirm-reset-text" className="mt-10 bg-paper p-8 text-ink">
          <h2 id="confirm-reset" className="font-display text-2xl">{t('admin.features.resetQuestion', { key: actionData.key })}</h2>
          <p id="confirm-reset-text" className="mt-3">{t('admin.features.resetText')}</p>
          <Form method="post" className="mt-6 flex flex-wrap gap-4">
            <input type="hidden" name="intent" value="reset" />
            <input type="hidden" name="key" value={actionData.key} />
            <input type="hidden" name="confirmed" value="yes" />
            <button type="submit" className="btn-primary" disabled={busy} aria-busy={busy}>{t('admin.features.resetConfirm')}</button>
            <Link to="." className="btn-inverse border border-ink">{t('admin.features.cancel')}</Link>
          </Form>
        </section>
      )}
      {loaderData.features?.map((feature) => <FeatureCard key={feature.key} feature={feature} canChange={canChange} actionData={actionData} />)}
    </div>
  );
}

function FeatureCard({ feature, canChange, actionData }: { feature: Feature; canChange: boolean; actionData: ActionData }) {
  const t = useT();
  const intl = useIntl();
  const busy = useSubmitting('reset');
  const percent = (n: number) => intl.formatNumber(n, { style: 'percent', maximumFractionDigits: 1 });
  const experiment = feature.experiment;
  const headingId = `feature-${feature.key}`;
  return (
    <section aria-labelledby={headingId} className="mt-10 bg-paper p-8 text-ink" data-testid={headingId}>
      <h2 id={headingId} className="font-mono text-xl break-all">{feature.key}</h2>
      <p className="mt-2 text-stone">{feature.description}</p>
      <dl className="mt-6 grid gap-x-8 gap-y-3 sm:grid-cols-[max-content_1fr]">
        <dt className="eyebrow text-stone">{t('admin.features.value')}</dt>
        <dd><code className="font-mono">{feature.value}</code></dd>
        <dt className="eyebrow text-stone">{t('admin.features.experiment')}</dt>
        <dd>
          {experiment ? (
            <>
              <ul className="flex flex-wrap gap-x-6 gap-y-1">
                {experiment.variations.map((variation, index) => (
                  <li key={variation}><code className="font-mono">{variation}</code> {percent(experiment.weights[index] ?? 0)}</li>
                ))}
              </ul>
              <p className="mt-1">{t('admin.features.coverage')}: {percent(experiment.coverage)}</p>
            </>
          ) : (
            t('admin.features.noExperiment')
          )}
        </dd>
        <dt className="eyebrow text-stone">{t('admin.features.source')}</dt>
        <dd>
          {t(feature.source === 'database' ? 'admin.features.source.database' : 'admin.features.source.file')}
          {feature.updatedAt && ` · ${intl.formatDate(feature.updatedAt, { dateStyle: 'medium', timeStyle: 'short' })}`}
        </dd>
      </dl>
      {canChange && (
        // Closed until wanted (four flags, two forms each, make a long phone page); open again when it has a message.
        <details className="mt-8 border-t border-ink/20 pt-6" open={actionData?.kind === 'form' && (actionData.formId === `set-${feature.key}` || actionData.formId === `experiment-${feature.key}`)}>
          <summary className="eyebrow cursor-pointer text-ink">{t('admin.features.change')}</summary>
          <div className="mt-6 grid gap-10 lg:grid-cols-2">
            <ValueForm feature={feature} actionData={actionData} />
            <ExperimentForm feature={feature} actionData={actionData} />
          </div>
        </details>
      )}
      {canChange && feature.source === 'database' && (
        <Form method="post" className="mt-6">
          <input type="hidden" name="intent" value="reset" />
          <input type="hidden" name="key" value={feature.key} />
          <button type="submit" className="link" disabled={busy}>{t('admin.features.reset')}</button>
        </Form>
      )}
    </section>
  );
}

function lastResultFor(actionData: ActionData, formId: string): SubmissionResult<string[]> | undefined {
  return actionData?.kind === 'form' && actionData.formId === formId ? actionData.result : undefined;
}

function ValueForm({ feature, actionData }: { feature: Feature; actionData: ActionData }) {
  const t = useT();
  const formId = `set-${feature.key}`;
  const busy = useSubmitting('set');
  const [form, fields] = useForm<{ value: string }>({ id: formId, lastResult: lastResultFor(actionData, formId), defaultValue: { value: feature.value } });
  return (
    <Form method="post" {...getFormProps(form)} noValidate aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`} className="font-display text-lg">{t('admin.features.serveTitle')}</h3>
      <input type="hidden" name="intent" value="set" />
      <input type="hidden" name="key" value={feature.key} />
      {form.errors?.[0] && <p role="alert" className="mt-2 text-sm text-alert">{t(form.errors[0])}</p>}
      <label htmlFor={fields.value.id} className="eyebrow mt-4 block text-stone">{t('admin.features.value')}</label>
      <p id={`${formId}-hint`} className="mt-1 text-sm text-stone">{t('admin.features.valueHint')}</p>
      <input
        {...getInputProps(fields.value, { type: 'text' })}
        autoComplete="off"
        spellCheck={false}
        className="field-input mt-2 font-mono"
        aria-describedby={[`${formId}-hint`, describedBy(fields.value)].filter(Boolean).join(' ')}
      />
      <FieldErrors field={fields.value} />
      <button type="submit" className="btn-primary mt-4" disabled={busy} aria-busy={busy}>{t('admin.features.set')}</button>
    </Form>
  );
}

function ExperimentForm({ feature, actionData }: { feature: Feature; actionData: ActionData }) {
  const t = useT();
  const formId = `experiment-${feature.key}`;
  const busy = useSubmitting('experiment');
  const current = feature.experiment;
  const asText = (json: string) => {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' && !value.includes(',') ? value : json;
  };
  const [form, fields] = useForm<{ variations: string; weights: string; coverage: string }>({
    id: formId,
    lastResult: lastResultFor(actionData, formId),
    defaultValue: current ? { variations: current.variations.map(asText).join(','), weights: current.weights.join(','), coverage: String(current.coverage) } : undefined,
  });
  const field = (name: 'variations' | 'weights' | 'coverage', label: string, hint: string) => (
    <div className="mt-4">
      <label htmlFor={fields[name].id} className="eyebrow block text-stone">{t(label)}</label>
      <p id={`${formId}-${name}-hint`} className="mt-1 text-sm text-stone">{t(hint)}</p>
      <input
        {...getInputProps(fields[name], { type: 'text' })}
        autoComplete="off"
        spellCheck={false}
        inputMode={name === 'variations' ? 'text' : 'decimal'}
        className="field-input mt-2 font-mono"
        aria-describedby={[`${formId}-${name}-hint`, describedBy(fields[name])].filter(Boolean).join(' ')}
      />
      <FieldErrors field={fields[name]} />
    </div>
  );
  return (
    <Form method="post" {...getFormProps(form)} noValidate aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`} className="font-display text-lg">{t('admin.features.experimentTitle')}</h3>
      <input type="hidden" name="intent" value="experiment" />
      <input type="hidden" name="key" value={feature.key} />
      {form.errors?.[0] && <p role="alert" className="mt-2 text-sm text-alert">{t(form.errors[0])}</p>}
      {field('variations', 'admin.features.variations', 'admin.features.variationsHint')}
      {field('weights', 'admin.features.weights', 'admin.features.weightsHint')}
      {field('coverage', 'admin.features.coverage', 'admin.features.coverageHint')}
      <button type="submit" className="btn-primary mt-4" disabled={busy} aria-busy={busy}>{t('admin.features.runExperiment')}</button>
    </Form>
  );
}
