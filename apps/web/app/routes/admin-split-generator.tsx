/**
 * The split generator (spec §2, ADR 012): an admin picks a running A/B test and one of its
 * variations and gets a link that forces it through GrowthBook's URL forcing
 * (`?top-banner-copy=1`), honoured by the server's render and the browser alike. Visitors
 * who open such a link see the variation but are not counted in the test. A GET form: it
 * works without JavaScript, and the link can be reloaded.
 */
import { forcedVariationLink, listExperiments } from '@velvet/features/definitions';
import type { ExperimentSummary } from '@velvet/features/definitions';
import { useState } from 'react';
import { Form } from 'react-router';
import type { Route } from './+types/admin-split-generator';
import { AdminBar } from '../components/admin-bar.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { requestInfoContext } from '../lib/page/context.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { useT } from '../lib/page/use-root.ts';

const MAX_PATH = 300;

/** A path of this site (never another origin), or null. */
export function sitePath(value: string, publicUrl: string): string | null {
  if (!value.startsWith('/') || value.startsWith('//') || value.length > MAX_PATH || /[\s\\]/.test(value)) return null;
  const url = URL.parse(value, publicUrl);
  return url && url.origin === new URL(publicUrl).origin ? url.pathname + url.search : null;
}

type Outcome =
  | { link: string; experiment: string; variation: number; notice: null }
  | { link: null; experiment: string | null; variation: number | null; notice: 'admin.splitGenerator.invalid' | 'admin.splitGenerator.pathInvalid' | null };

function outcome(url: URL, experiments: ExperimentSummary[], publicUrl: string): Outcome & { path: string } {
  const key = url.searchParams.get('experiment');
  const rawVariation = url.searchParams.get('variation');
  const path = url.searchParams.get('path') ?? '/';
  if (key === null && rawVariation === null) return { link: null, experiment: null, variation: null, notice: null, path };
  const experiment = experiments.find((e) => e.key === key);
  const variation = rawVariation !== null && /^\d{1,2}$/.test(rawVariation) ? Number(rawVariation) : NaN;
  if (!experiment || !(variation >= 0 && variation < experiment.variations.length)) {
    return { link: null, experiment: experiment?.key ?? null, variation: null, notice: 'admin.splitGenerator.invalid', path };
  }
  const target = sitePath(path, publicUrl);
  if (!target) return { link: null, experiment: experiment.key, variation, notice: 'admin.splitGenerator.pathInvalid', path };
  return { link: forcedVariationLink(new URL(target, publicUrl).toString(), experiment.key, variation), experiment: experiment.key, variation, notice: null, path };
}

export async function loader(args: Route.LoaderArgs) {
  const { email, session } = await requireAdmin(args);
  const info = args.context.get(requestInfoContext);
  const experiments = listExperiments(await info.features.payload());
  return { email, permissions: session.permissions, experiments, ...outcome(new URL(args.request.url), experiments, info.publicUrl) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.adminSplitGenerator.title', noIndex: true });

export default function SplitGenerator({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { experiments, link, notice } = loaderData;
  const [selected, setSelected] = useState(loaderData.experiment ?? experiments[0]?.key ?? '');
  /** Bumped by each submission: the copy button's status starts over. */
  const [copyKey, setCopyKey] = useState(0);
  const experiment = experiments.find((e) => e.key === selected) ?? experiments[0];
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.splitGenerator.title')} lead={t('admin.splitGenerator.text')} />
      {!experiment ? (
        <p role="status" className="mt-10 bg-paper p-8 text-ink">{t('admin.splitGenerator.none')}</p>
      ) : (
        <Form method="get" className="mt-10 space-y-6 bg-paper p-8 text-ink" onSubmit={() => setCopyKey((key) => key + 1)}>
          {notice && <p role="alert" className="border-l-2 border-alert pl-4 text-sm">{t(notice)}</p>}
          <div>
            <label htmlFor="split-experiment" className="eyebrow block text-stone">{t('admin.splitGenerator.experiment')}</label>
            <select id="split-experiment" name="experiment" className="field-input mt-2" value={experiment.key} onChange={(event) => setSelected(event.target.value)}>
              {experiments.map((e) => (
                <option key={e.key} value={e.key}>{`${e.name} (${e.key})`}</option>
              ))}
            </select>
            <p className="mt-2 text-sm text-stone">{t('admin.splitGenerator.coverage', { coverage: experiment.coverage })}</p>
          </div>
          <fieldset>
            <legend className="eyebrow text-stone">{t('admin.splitGenerator.variation')}</legend>
            <div className="mt-3 space-y-2">
              {experiment.variations.map((v) => (
                <label key={`${experiment.key}:${v.index}`} className="flex items-center gap-3">
                  <input
                    type="radio"
                    name="variation"
                    value={v.index}
                    defaultChecked={loaderData.experiment === experiment.key ? loaderData.variation === v.index : v.index === 0}
                    className="size-4 accent-ink"
                  />
                  <span>
                    <span className="font-medium">{`${v.index} · ${v.name}`}</span>{' '}
                    <span className="text-sm text-stone">{t('admin.splitGenerator.share', { share: v.weight })}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <label htmlFor="split-path" className="eyebrow block text-stone">{t('admin.splitGenerator.path')}</label>
            <input id="split-path" name="path" type="text" defaultValue={loaderData.path} maxLength={MAX_PATH} className="field-input mt-2 font-mono" autoComplete="off" />
          </div>
          <button type="submit" className="btn-primary w-full">{t('admin.splitGenerator.submit')}</button>
        </Form>
      )}
      {link && (
        <section aria-labelledby="split-link-title" className="mt-10 border border-paper/40 p-8">
          <h2 id="split-link-title" className="eyebrow text-paper/70">{t('admin.splitGenerator.result')}</h2>
          <p className="mt-4 font-mono text-sm break-all" data-testid="split-link">{link}</p>
          <CopyButton key={copyKey} value={link} />
        </section>
      )}
    </div>
  );
}
