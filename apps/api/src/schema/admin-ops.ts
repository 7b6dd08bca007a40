/**
 * The admin console's outbox and feature flags (issue 13, ADR 049): what `mail list|retry`,
 * `feature list|set|reset` and `experiment set` do, for the browser. Reading needs
 * acquisition.read (everyone); retrying outbox.manage, changing a feature features.manage. The
 * input is parsed by the same rules as the CLI's (@velvet/validation/admin-ops) and every change
 * is audited in its own transaction.
 */
import type { EffectiveFeature, JsonValue } from '@velvet/features/definitions';
import { isExperimentRule } from '@velvet/features/definitions';
import { loadFeatureFile } from '@velvet/features/file';
import { OUTBOX_STATUSES, featureChangeForm, outboxRetryForm } from '@velvet/validation/admin-ops';
import type { FeatureChangeInput, OutboxStatusName } from '@velvet/validation/admin-ops';
import { fieldError } from '@velvet/validation/user-errors';
import type { UserError } from '@velvet/validation/user-errors';
import type { z } from 'zod';
import type { ApiContext } from '../context.ts';
import { announceFeatureChange, featuresChannel } from '../features/feature-hub.ts';
import { readFeatureState, resetFeature, setExperiment, setFeatureValue } from '../features/overrides.ts';
import type { FeatureChange } from '../features/overrides.ts';
import { listOutboxPage, retryOutboxRows } from '../services/manage-outbox.ts';
import type { OutboxSummary } from '../services/manage-outbox.ts';
import { actorOf, requireAdmin } from './admin.ts';
import { builder } from './builder.ts';
import { UserErrorRef } from './user-errors.ts';

const OutboxStatusEnum = builder.enumType('OutboxStatus', {
  description: 'pending: queued, or waiting for its next attempt after a failure; sending: being sent now; sent; failed: given up after 10 attempts.',
  values: Object.fromEntries(OUTBOX_STATUSES.map((status) => [status.toUpperCase(), { value: status }])) as Record<Uppercase<OutboxStatusName>, { value: OutboxStatusName }>,
});

const OutboxEmailRef = builder.objectRef<OutboxSummary>('OutboxEmail');
OutboxEmailRef.implement({
  description: 'An email of the outbox, named by id: never its address.',
  fields: (t) => ({
    id: t.exposeString('id'),
    template: t.exposeString('template'),
    status: t.field({ type: OutboxStatusEnum, resolve: (r) => r.status }),
    attempts: t.exposeInt('attempts'),
    createdAt: t.exposeString('createdAt'),
    nextAttemptAt: t.exposeString('nextAttemptAt'),
    sentAt: t.string({ nullable: true, resolve: (r) => r.sentAt }),
    lastError: t.string({ nullable: true, description: 'The last failure, addresses replaced by [address].', resolve: (r) => r.lastError }),
  }),
});

const OutboxPageRef = builder.objectRef<{ rows: OutboxSummary[]; nextCursor: string | null }>('OutboxPage');
OutboxPageRef.implement({
  fields: (t) => ({
    emails: t.field({ type: [OutboxEmailRef], resolve: (p) => p.rows }),
    nextCursor: t.string({ nullable: true, description: 'Pass as `after` for the next (older) page; null on the last page.', resolve: (p) => p.nextCursor }),
  }),
});

const RetryPayloadRef = builder.objectRef<{ retried: string[]; userErrors: UserError[] }>('OutboxRetryPayload');
RetryPayloadRef.implement({
  fields: (t) => ({
    retried: t.stringList({ description: 'The ids made due now; empty when userErrors say why not (then nothing changed).', resolve: (r) => r.retried }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const json = (value: JsonValue) => JSON.stringify(value);

const ExperimentRef = builder.objectRef<{ name: string | null; variations: JsonValue[]; weights: number[]; coverage: number }>('FeatureExperiment');
ExperimentRef.implement({
  fields: (t) => ({
    name: t.string({ nullable: true, resolve: (e) => e.name }),
    variations: t.stringList({ description: 'Each variation as JSON.', resolve: (e) => e.variations.map(json) }),
    weights: t.floatList({ resolve: (e) => e.weights }),
    coverage: t.float({ description: 'Share of visitors in the experiment, 0–1.', resolve: (e) => e.coverage }),
  }),
});

const FeatureRef = builder.objectRef<EffectiveFeature>('AdminFeature');
FeatureRef.implement({
  description: 'A feature flag as it is in force: the features file, or the database override that wins over it.',
  fields: (t) => ({
    key: t.exposeString('key'),
    description: t.exposeString('description'),
    value: t.string({ description: 'The value everyone outside an experiment gets, as JSON.', resolve: (f) => json(f.definition.defaultValue) }),
    source: t.string({ description: 'file or database.', resolve: (f) => f.source }),
    updatedAt: t.string({ nullable: true, resolve: (f) => f.updatedAt }),
    experiment: t.field({
      type: ExperimentRef,
      nullable: true,
      resolve: (f) => {
        const rule = (f.definition.rules ?? []).find(isExperimentRule);
        return rule ? { name: rule.name ?? null, variations: rule.variations, weights: rule.weights, coverage: rule.coverage } : null;
      },
    }),
  }),
});

const FeaturePayloadRef = builder.objectRef<{ feature: EffectiveFeature | null; userErrors: UserError[] }>('AdminFeaturePayload');
FeaturePayloadRef.implement({
  description: 'The feature as it is now in force, or userErrors (then nothing changed). Running pages get the change within seconds.',
  fields: (t) => ({
    feature: t.field({ type: FeatureRef, nullable: true, resolve: (r) => r.feature }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

/** Zod's refusals as INVALID_FIELD user errors, one per field. */
function refusals(error: z.ZodError): UserError[] {
  const seen = new Set<string>();
  return error.issues.flatMap((issue) => {
    const field = String(issue.path[0] ?? 'key');
    if (seen.has(field)) return [];
    seen.add(field);
    return [fieldError(field, issue.message)];
  });
}

async function changeFeature(ctx: ApiContext, raw: Record<string, unknown>) {
  const session = await requireAdmin(ctx, 'features.manage');
  const parsed = featureChangeForm.safeParse(raw);
  if (!parsed.success) return { feature: null, userErrors: refusals(parsed.error) };
  const input: FeatureChangeInput = parsed.data;
  const loaded = loadFeatureFile();
  const actor = actorOf(ctx, session);
  const change: FeatureChange =
    input.intent === 'set'
      ? await setFeatureValue(ctx.db, loaded, input.key, input.value, ctx.now, actor)
      : input.intent === 'reset'
        ? await resetFeature(ctx.db, loaded, input.key, ctx.now, actor)
        : await setExperiment(ctx.db, loaded, input.key, input, ctx.now, actor);
  if (!change.ok) {
    return { feature: null, userErrors: [change.reason === 'unknown-feature' ? { code: 'FEATURE_NOT_FOUND' as const, field: 'key', messageId: change.messageId } : fieldError(change.field, change.messageId)] };
  }
  // As the CLI does: with Redis every instance reloads at once; without, each within its 2-second check.
  await announceFeatureChange(ctx.env.REDIS_URL, featuresChannel(ctx.env.REDIS_PREFIX)).catch((error: unknown) =>
    ctx.logger.warn({ err: error }, 'features: the change could not be announced; instances pick it up on their next check'),
  );
  return { feature: change.feature, userErrors: [] };
}

builder.queryField('adminOutbox', (t) =>
  t.field({
    type: OutboxPageRef,
    description: 'The outbox, newest first, 50 a page at most, optionally of one status (permission acquisition.read).',
    args: {
      status: t.arg({ type: OutboxStatusEnum, required: false }),
      first: t.arg.int({ required: false, description: '1–50, default 50.' }),
      after: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      const first = Math.min(Math.max(args.first ?? 50, 1), 50);
      return listOutboxPage(ctx.db, { status: args.status ?? null, first, after: args.after });
    },
  }),
);

builder.queryField('adminFeatures', (t) =>
  t.field({
    type: [FeatureRef],
    description: 'Every feature flag and experiment as it is in force (permission acquisition.read).',
    resolve: async (_root, _args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      return (await readFeatureState(ctx.db, loadFeatureFile())).features;
    },
  }),
);

builder.mutationField('adminRetryOutbox', (t) =>
  t.field({
    type: RetryPayloadRef,
    description: 'Sends failed (or waiting) emails again now, all or none (permission outbox.manage). OUTBOX_NOT_FOUND, OUTBOX_NOT_RETRYABLE, INVALID_FIELD.',
    args: { ids: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const session = await requireAdmin(ctx, 'outbox.manage');
      const parsed = outboxRetryForm.safeParse({ ids: args.ids });
      if (!parsed.success) return { retried: [], userErrors: [fieldError('ids', parsed.error.issues[0]?.message ?? 'admin.outbox.error.none')] };
      const outcome = await retryOutboxRows(ctx.db, actorOf(ctx, session), parsed.data.ids, ctx.now);
      if (outcome.retried.length > 0) ctx.outboxSignal.notify();
      return outcome;
    },
  }),
);

builder.mutationField('adminSetFeature', (t) =>
  t.field({
    type: FeaturePayloadRef,
    description: 'Serves `value` (JSON of the feature\'s type) to everyone; an experiment on it stops (features.manage). As `feature set`.',
    args: { key: t.arg.string({ required: true }), value: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => changeFeature(ctx, { intent: 'set', ...args }),
  }),
);

builder.mutationField('adminResetFeature', (t) =>
  t.field({
    type: FeaturePayloadRef,
    description: 'Drops the database override: the features file decides again (features.manage). As `feature reset`.',
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => changeFeature(ctx, { intent: 'reset', ...args }),
  }),
);

builder.mutationField('adminSetExperiment', (t) =>
  t.field({
    type: FeaturePayloadRef,
    description: 'Runs an experiment on the feature (features.manage). As `experiment set`: variations `a,b` or a JSON array, weights `0.5,0.5`, coverage 0–1 (empty: 1).',
    args: {
      key: t.arg.string({ required: true }),
      variations: t.arg.string({ required: true }),
      weights: t.arg.string({ required: true }),
      coverage: t.arg.string({ required: false }),
    },
    resolve: (_root, args, ctx) => changeFeature(ctx, { intent: 'experiment', ...args, coverage: args.coverage ?? undefined }),
  }),
);
