/**
 * CLI commands for feature flags and A/B tests (ADR 012):
 *   feature list [--json]
 *   feature set KEY --value JSON
 *   feature reset KEY
 *   experiment set KEY --variations V1,V2[,…] --weights W1,W2[,…] [--coverage C]
 * A change is committed with a revision bump; with REDIS_URL it is announced to every API
 * instance at once, otherwise each instance notices within its realtime interval (2 s).
 */
import { REALTIME_INTERVAL_MS } from '@velvet/features/constants';
import type { EffectiveFeature, ExperimentRule, FeatureRule, JsonValue } from '@velvet/features/definitions';
import en from '@velvet/i18n/catalogs/en.json' with { type: 'json' };
import { coverageField, experimentInputProblem, featureValueField, variationsField, weightsField } from '@velvet/validation/admin-ops';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { z } from 'zod';
import type { Env } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { FeatureChange } from '../features/overrides.ts';

/** Loaded when a feature command runs, so other commands do not pay for Redis and the schemas. */
const services = () => import('../features/overrides.ts');

export interface FeatureCommandDeps {
  withDatabase<T>(work: (db: Db, env: Env) => Promise<T>): Promise<T>;
  /** Rejected input: printed to stderr, exit code 2. */
  usageError(message: string): Error;
  formatTable(header: string[], cells: string[][]): string;
}

/**
 * The options are parsed by the console's own rules (@velvet/validation/admin-ops, ADR 049), so
 * the CLI and the browser accept and refuse the same input; a refusal prints the English text.
 */
const english = (messageId: string): string => (en as Record<string, string>)[messageId] ?? messageId;

function parsedBy<T>(schema: z.ZodType<T>): (value: string) => T {
  return (value: string) => {
    const result = schema.safeParse(value);
    if (!result.success) throw new InvalidArgumentError(english(result.error.issues[0]?.message ?? ''));
    return result.data;
  };
}

const parseJson = parsedBy(featureValueField) as (value: string) => JsonValue;
const parseVariations = parsedBy(variationsField) as (value: string) => JsonValue[];
const parseNumberList = parsedBy(weightsField);
const parseFraction = parsedBy(coverageField);

function experimentSummary(feature: EffectiveFeature): string {
  const rule = (feature.definition.rules ?? []).find((r: FeatureRule): r is ExperimentRule => 'variations' in r);
  if (!rule) return '-';
  const split = rule.variations.map((v, i) => `${typeof v === 'string' ? v : JSON.stringify(v)}:${rule.weights[i]}`).join(' ');
  return `${split} coverage:${rule.coverage}`;
}

function describe(feature: EffectiveFeature): string {
  return [
    `${feature.key}: ${JSON.stringify(feature.definition.defaultValue)} (${feature.source})`,
    `  experiment: ${experimentSummary(feature)}`,
  ].join('\n');
}

async function announce(env: Env): Promise<string> {
  try {
    const { announceFeatureChange, featuresChannel } = await import('../features/feature-hub.ts');
    const outcome = await announceFeatureChange(env.REDIS_URL, featuresChannel(env.REDIS_PREFIX));
    return outcome === 'announced'
      ? 'announced to every API instance; open pages update within seconds'
      : `running API instances pick it up within ${REALTIME_INTERVAL_MS / 1000} s; open pages update right after`;
  } catch {
    return `Redis unreachable: running API instances pick it up within ${REALTIME_INTERVAL_MS / 1000} s`;
  }
}

export function addFeatureCommands(program: Command, deps: FeatureCommandDeps): void {
  const load = async () => {
    const { loadFeatureFile } = await import('@velvet/features/file');
    try {
      return loadFeatureFile();
    } catch (error) {
      throw deps.usageError((error as Error).message);
    }
  };
  const change = async (work: (db: Db, env: Env) => Promise<FeatureChange>) => {
    const { result, note } = await deps.withDatabase(async (db, env) => {
      const result = await work(db, env);
      return { result, note: result.ok ? await announce(env) : '' };
    });
    if (!result.ok) throw deps.usageError(result.message);
    console.log(describe(result.feature));
    console.error(note);
  };

  const feature = program.command('feature').description('feature flags (the versioned features file plus database overrides)').exitOverride();
  feature
    .command('list')
    .description('every feature: default value, where it comes from (file or database), its experiment')
    .option('--json', 'print JSON (the definitions and the payload version) instead of a table', false)
    .exitOverride()
    .action(async (options: { json: boolean }) => {
      const loaded = await load();
      const { readFeatureState } = await services();
      const state = await deps.withDatabase((db) => readFeatureState(db, loaded));
      if (options.json) {
        console.log(JSON.stringify({ dateUpdated: state.payload.dateUpdated, revision: state.revision, features: state.features }, null, 2));
        return;
      }
      console.log(
        deps.formatTable(
          ['KEY', 'VALUE', 'SOURCE', 'EXPERIMENT', 'UPDATED'],
          state.features.map((f) => [f.key, JSON.stringify(f.definition.defaultValue), f.source, experimentSummary(f), f.updatedAt ?? '-']),
        ),
      );
    });
  feature
    .command('set')
    .description('serve VALUE to everyone (stops an experiment on the feature until `feature reset`)')
    .argument('<key>', 'a feature of the features file')
    .requiredOption('--value <json>', 'the value as JSON, of the type the feature has (true, 3, \'"text"\')', parseJson)
    .exitOverride()
    .action(async (key: string, options: { value: JsonValue }) => {
      const loaded = await load();
      const { setFeatureValue } = await services();
      await change((db) => setFeatureValue(db, loaded, key, options.value));
    });
  feature
    .command('reset')
    .description('drop the database override: the features file decides again')
    .argument('<key>', 'a feature of the features file')
    .exitOverride()
    .action(async (key: string) => {
      const loaded = await load();
      const { resetFeature } = await services();
      await change((db) => resetFeature(db, loaded, key));
    });

  const experiment = program.command('experiment').description('A/B tests (experiment rules of a feature)').exitOverride();
  experiment
    .command('set')
    .description('run an experiment on feature KEY (the experiment key, also the ?KEY=N forcing parameter); visitors are bucketed on acqAnonymousId')
    .argument('<key>', 'a feature of the features file')
    .requiredOption('--variations <list>', 'the variation values, e.g. control,members-first or a JSON array', parseVariations)
    .requiredOption('--weights <list>', 'one weight per variation, adding up to 1, e.g. 0.5,0.5', parseNumberList)
    .option('--coverage <fraction>', 'share of visitors in the experiment, 0-1 (default 1); the rest get the default value', parseFraction, 1)
    .exitOverride()
    .action(async (key: string, options: { variations: JsonValue[]; weights: number[]; coverage: number }) => {
      const problem = experimentInputProblem(options);
      if (problem) throw deps.usageError(`--${problem.field}: ${english(problem.messageId)}`);
      const loaded = await load();
      const { setExperiment } = await services();
      await change((db) => setExperiment(db, loaded, key, options));
    });
}
