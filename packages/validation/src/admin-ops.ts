/**
 * The outbox and the feature flags as operators change them (issue 13, ADR 049): one set of
 * rules for the admin console (the API and its forms) and the CLI (`mail retry`, `feature set`,
 * `experiment set`). Every message is an i18n id; the CLI prints the English text of it.
 *
 * The text a person types is what is parsed, in the same way everywhere: a value as JSON; the
 * variations as `a,b` or a JSON array; the weights as `0.5,0.5`; the coverage as a fraction.
 * What depends on the features file (does the key exist, does the value have the feature's
 * type) is checked by the API's use case (apps/api/src/features/overrides.ts).
 */
import { z } from 'zod';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const FEATURE_MESSAGE_IDS = {
  key: 'admin.features.error.key',
  json: 'admin.features.error.json',
  variations: 'admin.features.error.variations',
  variationCount: 'admin.features.error.variationCount',
  variationTypes: 'admin.features.error.variationTypes',
  variationsDiffer: 'admin.features.error.variationsDiffer',
  weights: 'admin.features.error.weights',
  weightCount: 'admin.features.error.weightCount',
  weightSum: 'admin.features.error.weightSum',
  coverage: 'admin.features.error.coverage',
} as const;
const ID = FEATURE_MESSAGE_IDS;

/** The most text any of these fields takes (a JSON value of a flag is small). */
const MAX_TEXT = 4000;

/** A feature key's shape (the features file decides which exist). */
const featureKeyField = z
  .string({ error: ID.key })
  .trim()
  .regex(/^[a-z][a-z0-9-]{1,62}[a-z0-9]$/, { error: ID.key });

function parseJson(text: string): { ok: true; value: Json } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch {
    return { ok: false };
  }
}

/** `true`, `42`, `"text"`, `{"a":1}`: JSON text. */
export const featureValueField = z
  .string({ error: ID.json })
  .trim()
  .min(1, { error: ID.json })
  .max(MAX_TEXT, { error: ID.json })
  .transform((text, ctx): Json => {
    const parsed = parseJson(text);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: ID.json });
    return z.NEVER;
  });

/** `control,members-first` or a JSON array; an item that parses as JSON is taken as JSON (true, 3), anything else as text. */
export const variationsField = z
  .string({ error: ID.variations })
  .trim()
  .min(1, { error: ID.variations })
  .max(MAX_TEXT, { error: ID.variations })
  .transform((text, ctx): Json[] => {
    if (text.startsWith('[')) {
      const parsed = parseJson(text);
      if (parsed.ok && Array.isArray(parsed.value)) return parsed.value;
      ctx.addIssue({ code: 'custom', message: ID.variations });
      return z.NEVER;
    }
    return text.split(',').map((item) => {
      const parsed = parseJson(item.trim());
      return parsed.ok ? parsed.value : item.trim();
    });
  });

/** `0.5,0.5`: numbers from 0 to 1. */
export const weightsField = z
  .string({ error: ID.weights })
  .trim()
  .max(MAX_TEXT, { error: ID.weights })
  .transform((text, ctx): number[] => {
    const numbers = text.split(',').map((item) => (item.trim() === '' ? NaN : Number(item.trim())));
    if (numbers.every((n) => Number.isFinite(n) && n >= 0 && n <= 1)) return numbers;
    ctx.addIssue({ code: 'custom', message: ID.weights });
    return z.NEVER;
  });

/** A share of visitors from 0 to 1; empty means everyone (1), as the CLI's default. */
export const coverageField = z
  .string({ error: ID.coverage })
  .trim()
  .max(32, { error: ID.coverage })
  .optional()
  .transform((text, ctx): number => {
    if (text === undefined || text === '') return 1;
    const n = Number(text);
    if (Number.isFinite(n) && n >= 0 && n <= 1) return n;
    ctx.addIssue({ code: 'custom', message: ID.coverage });
    return z.NEVER;
  });

const kindOf = (value: Json) => (value === null || typeof value === 'object' ? 'json' : typeof value);

/** Why these make no experiment (a message id and the field it concerns); null when they make one. */
export function experimentInputProblem(input: { variations: Json[]; weights: number[] }): { field: 'variations' | 'weights'; messageId: string } | null {
  const { variations, weights } = input;
  if (variations.length < 2 || variations.length > 10) return { field: 'variations', messageId: ID.variationCount };
  if (new Set(variations.map(kindOf)).size > 1) return { field: 'variations', messageId: ID.variationTypes };
  if (new Set(variations.map((v) => JSON.stringify(v))).size !== variations.length) return { field: 'variations', messageId: ID.variationsDiffer };
  if (weights.length !== variations.length) return { field: 'weights', messageId: ID.weightCount };
  if (Math.abs(weights.reduce((a, b) => a + b, 0) - 1) > 0.001) return { field: 'weights', messageId: ID.weightSum };
  return null;
}

/** The three changes an operator makes to a feature; `intent` names the one. */
export const featureChangeForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('set'), key: featureKeyField, value: featureValueField }),
  z.object({ intent: z.literal('reset'), key: featureKeyField }),
  z
    .object({ intent: z.literal('experiment'), key: featureKeyField, variations: variationsField, weights: weightsField, coverage: coverageField })
    .superRefine((value, ctx) => {
      const problem = experimentInputProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.messageId });
    }),
]);
export type FeatureChangeInput = z.infer<typeof featureChangeForm>;

/** What the outbox rows are named by (never an address). */
const OUTBOX_RETRY_MAX = 100;
export const outboxRetryForm = z.object({
  ids: z
    .array(z.string().trim().regex(/^[A-Za-z0-9-]{1,64}$/, { error: 'admin.outbox.error.id' }), { error: 'admin.outbox.error.none' })
    .min(1, { error: 'admin.outbox.error.none' })
    .max(OUTBOX_RETRY_MAX, { error: 'admin.outbox.error.tooMany' }),
});

/** The outbox's states (the database's), in the order the console offers them as a filter. */
export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type OutboxStatusName = (typeof OUTBOX_STATUSES)[number];
