/**
 * Feature definitions in GrowthBook's payload format (ADR 012): the versioned file, the
 * database overrides and the payload the features endpoint serves. Pure: runs on the
 * servers and in the browser.
 */
import { z } from 'zod';
import { DEFAULT_HASH_VERSION, HASH_ATTRIBUTE } from './constants.ts';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An experiment rule: who is bucketed (coverage), into which variation (weights). */
export interface ExperimentRule {
  key: string;
  name?: string | undefined;
  variations: JsonValue[];
  weights: number[];
  coverage: number;
  hashAttribute: string;
  hashVersion: 1 | 2;
  seed?: string | undefined;
  meta?: { key: string; name: string }[] | undefined;
}

/** A forced value for everyone (targeting conditions are not used yet, so the schema refuses them). */
interface ForceRule {
  force: JsonValue;
}

export type FeatureRule = ExperimentRule | ForceRule;

export interface FeatureDefinition {
  defaultValue: JsonValue;
  rules?: FeatureRule[] | undefined;
}

/** What GET /api/features/:clientKey answers (GrowthBook's FeatureApiResponse, unencrypted). */
export interface FeaturePayload {
  features: Record<string, FeatureDefinition>;
  dateUpdated: string;
}

interface FeatureFileEntry extends FeatureDefinition {
  description: string;
}

export interface FeatureFile {
  features: Record<string, FeatureFileEntry>;
}

/**
 * Feature keys are also experiment keys, and GrowthBook forces an experiment's variation
 * through a query parameter of the same name (`?top-banner-copy=1`): no key may be one of
 * the query parameters the product itself reads.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set([
  'rc', 'token', 'lang', 'disablegb', 'slug', 'acqparams', 'redirecturl', 'redirectto', 'validitytimestamp',
  'activationid', 'reason', 'social', 'code', 'email', 'flow', 'step', 'experiment', 'variation', 'path',
]);

const FEATURE_KEY_PATTERN = /^[a-z][a-z0-9-]{1,62}[a-z0-9]$/;

export function isFeatureKey(key: string): boolean {
  return FEATURE_KEY_PATTERN.test(key) && !RESERVED_KEYS.has(key.toLowerCase());
}

const featureKey = z.string().refine(isFeatureKey, 'must be 3–64 lower-case letters, digits and dashes, and not a query parameter the product reads');

const experimentRuleSchema = z
  .object({
    key: featureKey,
    name: z.string().max(200).optional(),
    variations: z.array(z.json()).min(2).max(10),
    weights: z.array(z.number().min(0).max(1)),
    coverage: z.number().min(0).max(1),
    hashAttribute: z.string().min(1).default(HASH_ATTRIBUTE),
    hashVersion: z.union([z.literal(1), z.literal(2)]).default(DEFAULT_HASH_VERSION),
    seed: z.string().min(1).max(200).optional(),
    meta: z.array(z.object({ key: z.string().min(1).max(64), name: z.string().max(200) }).strict()).optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    const problem = experimentProblem(rule.variations as JsonValue[], rule.weights, rule.coverage);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    if (rule.meta && rule.meta.length !== rule.variations.length) {
      ctx.addIssue({ code: 'custom', path: ['meta'], message: 'must name every variation' });
    }
  });

const forceRuleSchema = z.object({ force: z.json() }).strict();

const ruleSchema = z.union([experimentRuleSchema, forceRuleSchema]);

function sameKindRules(definition: { defaultValue: unknown; rules?: unknown[] | undefined }, ctx: z.RefinementCtx) {
  for (const [index, rule] of ((definition.rules ?? []) as FeatureRule[]).entries()) {
    const values = isExperimentRule(rule) ? rule.variations : [rule.force];
    if (values.some((value) => !sameKind(value, definition.defaultValue as JsonValue))) {
      ctx.addIssue({ code: 'custom', path: ['rules', index], message: `values must have the default value's type (${valueKind(definition.defaultValue as JsonValue)})` });
    }
  }
}

const definitionShape = { defaultValue: z.json(), rules: z.array(ruleSchema).max(20).optional() };

const featureDefinitionSchema = z.object(definitionShape).strict().superRefine(sameKindRules);

const fileEntrySchema = z
  .object({ description: z.string().min(1).max(500), ...definitionShape })
  .strict()
  .superRefine(sameKindRules);

const fileSchema = z
  .object({
    $comment: z.string().optional(),
    features: z.record(featureKey, fileEntrySchema),
  })
  .strict();

/** Parses the versioned file; throws an Error naming every problem. */
export function parseFeatureFile(json: unknown): FeatureFile {
  const result = fileSchema.safeParse(json);
  if (!result.success) {
    throw new Error(`Invalid features file:\n${result.error.issues.map((i) => `  - ${i.path.join('.') || '(file)'}: ${i.message}`).join('\n')}`);
  }
  return { features: result.data.features as Record<string, FeatureFileEntry> };
}

/** Parses one stored override (the database holds JSON text); null when it does not parse. */
export function parseFeatureDefinition(json: unknown): FeatureDefinition | null {
  const result = featureDefinitionSchema.safeParse(json);
  return result.success ? (result.data as FeatureDefinition) : null;
}

export type ValueKind = 'boolean' | 'number' | 'string' | 'json';

export function valueKind(value: JsonValue): ValueKind {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  return 'json';
}

export function sameKind(a: JsonValue, b: JsonValue): boolean {
  return valueKind(a) === valueKind(b);
}

/** Why these variations, weights and coverage make no experiment; null when they do. */
export function experimentProblem(variations: JsonValue[], weights: number[], coverage: number): string | null {
  if (variations.length < 2 || variations.length > 10) return 'an experiment has 2 to 10 variations';
  if (weights.length !== variations.length) return `give one weight per variation (${variations.length})`;
  if (weights.some((w) => !Number.isFinite(w) || w < 0 || w > 1)) return 'weights are numbers from 0 to 1';
  const sum = weights.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 0.001) return `weights must add up to 1 (they add up to ${Number(sum.toFixed(4))})`;
  if (!Number.isFinite(coverage) || coverage < 0 || coverage > 1) return 'coverage is a number from 0 to 1';
  const kinds = new Set(variations.map(valueKind));
  if (kinds.size > 1) return 'all variations must have the same type';
  const unique = new Set(variations.map((v) => JSON.stringify(v)));
  if (unique.size !== variations.length) return 'variations must differ';
  return null;
}

export function isExperimentRule(rule: FeatureRule): rule is ExperimentRule {
  return 'variations' in rule;
}

/** An experiment rule in our conventions: hashed on the anonymous id with hash version 2. */
export function experimentRule(input: { key: string; variations: JsonValue[]; weights: number[]; coverage: number; name?: string }): ExperimentRule {
  const problem = experimentProblem(input.variations, input.weights, input.coverage);
  if (problem) throw new Error(problem);
  return {
    key: input.key,
    ...(input.name ? { name: input.name } : {}),
    variations: input.variations,
    weights: input.weights,
    coverage: input.coverage,
    hashAttribute: HASH_ATTRIBUTE,
    hashVersion: DEFAULT_HASH_VERSION,
    meta: input.variations.map((value, index) => ({ key: String(index), name: typeof value === 'string' ? value : JSON.stringify(value) })),
  };
}

export interface EffectiveFeature {
  key: string;
  description: string;
  definition: FeatureDefinition;
  source: 'file' | 'database';
  updatedAt: string | null;
}

/** The file's features with the database's overrides applied (overrides of unknown keys are ignored). */
export function mergeOverrides(
  file: FeatureFile,
  overrides: ReadonlyMap<string, { definition: FeatureDefinition; updatedAt: string }>,
): EffectiveFeature[] {
  return Object.entries(file.features).map(([key, { description, ...fromFile }]) => {
    const override = overrides.get(key);
    return override
      ? { key, description, definition: override.definition, source: 'database' as const, updatedAt: override.updatedAt }
      : { key, description, definition: fromFile, source: 'file' as const, updatedAt: null };
  });
}

export function toPayload(features: EffectiveFeature[], dateUpdated: string): FeaturePayload {
  return {
    features: Object.fromEntries(features.map(({ key, definition }) => [key, definition])),
    dateUpdated,
  };
}

/** The file alone as a payload: what the web server serves before the API has answered. */
export function filePayload(file: FeatureFile, dateUpdated: string): FeaturePayload {
  return toPayload(mergeOverrides(file, new Map()), dateUpdated);
}

export interface ExperimentSummary {
  /** The experiment key, also the query parameter that forces a variation. */
  key: string;
  feature: string;
  name: string;
  coverage: number;
  variations: { index: number; name: string; value: JsonValue; weight: number }[];
}

/** The experiments running in a payload (the admin split generator lists them). */
export function listExperiments(payload: FeaturePayload): ExperimentSummary[] {
  const experiments: ExperimentSummary[] = [];
  for (const [feature, definition] of Object.entries(payload.features)) {
    for (const rule of definition.rules ?? []) {
      if (!isExperimentRule(rule)) continue;
      experiments.push({
        key: rule.key,
        feature,
        name: rule.name ?? rule.key,
        coverage: rule.coverage,
        variations: rule.variations.map((value, index) => ({
          index,
          name: rule.meta?.[index]?.name ?? (typeof value === 'string' ? value : JSON.stringify(value)),
          value,
          weight: rule.weights[index] ?? 0,
        })),
      });
    }
  }
  return experiments;
}

/** A link that forces `variation` of `experiment` through GrowthBook's URL forcing. */
export function forcedVariationLink(base: string, experiment: string, variation: number): string {
  const url = new URL(base);
  url.searchParams.set(experiment, String(variation));
  return url.toString();
}

/** Whether a payload is well-formed enough to hand to the SDK (the web server checks what the API sends). */
export function isFeaturePayload(value: unknown): value is FeaturePayload {
  if (typeof value !== 'object' || value === null) return false;
  const { features, dateUpdated } = value as Record<string, unknown>;
  if (typeof dateUpdated !== 'string' || typeof features !== 'object' || features === null) return false;
  return Object.values(features).every((definition) => parseFeatureDefinition(definition) !== null);
}
