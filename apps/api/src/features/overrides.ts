/**
 * Feature flags and experiments as operators change them (CLI `feature …`, `experiment set`;
 * ADR 012). The versioned file defines every feature; the database may override a
 * feature's whole definition. Every change bumps the single revision row in the same
 * transaction, so each API instance notices it with one primary-key read.
 */
import {
  experimentRule,
  isExperimentRule,
  mergeOverrides,
  parseFeatureDefinition,
  sameKind,
  toPayload,
  valueKind,
} from '@velvet/features/definitions';
import type { EffectiveFeature, FeatureDefinition, FeaturePayload, JsonValue } from '@velvet/features/definitions';
import type { LoadedFeatureFile } from '@velvet/features/file';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

export interface FeatureState {
  features: EffectiveFeature[];
  revision: number;
  payload: FeaturePayload;
}

export type FeatureChange =
  | { ok: true; feature: EffectiveFeature }
  | { ok: false; reason: 'unknown-feature' | 'invalid'; message: string };

/** Overrides the API can no longer read (a hand-edited row) are skipped, never served. */
async function readOverrides(db: Db | Transaction<Database>) {
  const rows = await db.selectFrom('feature_overrides').select(['key', 'definition', 'updated_at']).execute();
  const overrides = new Map<string, { definition: FeatureDefinition; updatedAt: string }>();
  for (const row of rows) {
    let parsed: FeatureDefinition | null;
    try {
      parsed = parseFeatureDefinition(JSON.parse(row.definition) as unknown);
    } catch {
      parsed = null;
    }
    if (parsed) overrides.set(row.key, { definition: parsed, updatedAt: row.updated_at });
  }
  return overrides;
}

export async function readRevision(db: Db): Promise<{ revision: number; updatedAt: string }> {
  const row = await db.selectFrom('feature_revision').select(['revision', 'updated_at']).where('id', '=', 1).executeTakeFirst();
  return row ? { revision: Number(row.revision), updatedAt: row.updated_at } : { revision: 0, updatedAt: new Date(0).toISOString() };
}

/** The features in force and the payload the endpoint serves (dateUpdated: the later of the file's and the database's last change). */
export async function readFeatureState(db: Db, loaded: LoadedFeatureFile): Promise<FeatureState> {
  const [overrides, { revision, updatedAt }] = await Promise.all([readOverrides(db), readRevision(db)]);
  const features = mergeOverrides(loaded.file, overrides);
  const dateUpdated = updatedAt > loaded.modifiedAt ? updatedAt : loaded.modifiedAt;
  return { features, revision, payload: toPayload(features, dateUpdated) };
}

/** Bumps the revision; its time is strictly later than the last one, so every change is a new payload version. */
async function bumpRevision(trx: Transaction<Database>, now: Date): Promise<string> {
  const current = await trx.selectFrom('feature_revision').select(['revision', 'updated_at']).where('id', '=', 1).executeTakeFirstOrThrow();
  const next = new Date(Math.max(now.getTime(), new Date(current.updated_at).getTime() + 1)).toISOString();
  await trx
    .updateTable('feature_revision')
    .set({ revision: Number(current.revision) + 1, updated_at: next })
    .where('id', '=', 1)
    .where('revision', '=', current.revision)
    .executeTakeFirstOrThrow();
  return next;
}

function fileEntry(loaded: LoadedFeatureFile, key: string) {
  return Object.hasOwn(loaded.file.features, key) ? loaded.file.features[key] : undefined;
}

function unknownFeature(loaded: LoadedFeatureFile, key: string): FeatureChange {
  return { ok: false, reason: 'unknown-feature', message: `unknown feature ${key} (features: ${Object.keys(loaded.file.features).join(', ')})` };
}

async function writeOverride(db: Db, loaded: LoadedFeatureFile, key: string, definition: FeatureDefinition, now: Date): Promise<FeatureChange> {
  const parsed = parseFeatureDefinition(definition);
  if (!parsed) return { ok: false, reason: 'invalid', message: `not a valid definition for ${key}` };
  const updatedAt = await db.transaction().execute(async (trx) => {
    const stamp = await bumpRevision(trx, now);
    await trx
      .insertInto('feature_overrides')
      .values({ key, definition: JSON.stringify(parsed), updated_at: stamp })
      .onConflict((oc) => oc.column('key').doUpdateSet({ definition: JSON.stringify(parsed), updated_at: stamp }))
      .execute();
    return stamp;
  });
  return { ok: true, feature: { key, description: fileEntry(loaded, key)?.description ?? '', definition: parsed, source: 'database', updatedAt } };
}

/** `feature set KEY --value JSON`: everyone gets this value (an experiment on the feature stops). */
export async function setFeatureValue(db: Db, loaded: LoadedFeatureFile, key: string, value: JsonValue, now = new Date()): Promise<FeatureChange> {
  const entry = fileEntry(loaded, key);
  if (!entry) return unknownFeature(loaded, key);
  if (!sameKind(value, entry.defaultValue)) {
    return { ok: false, reason: 'invalid', message: `${key} takes a ${valueKind(entry.defaultValue)} value, not ${JSON.stringify(value)}` };
  }
  return writeOverride(db, loaded, key, { defaultValue: value }, now);
}

/**
 * `experiment set KEY --variations … --weights … [--coverage]`: the feature runs this
 * experiment (key = the feature's key, hashed on acqAnonymousId); visitors outside the
 * coverage get the feature's current default value.
 */
export async function setExperiment(
  db: Db,
  loaded: LoadedFeatureFile,
  key: string,
  input: { variations: JsonValue[]; weights: number[]; coverage: number },
  now = new Date(),
): Promise<FeatureChange> {
  const entry = fileEntry(loaded, key);
  if (!entry) return unknownFeature(loaded, key);
  const overrides = await readOverrides(db);
  const current = overrides.get(key)?.definition ?? entry;
  const mismatch = input.variations.find((v) => !sameKind(v, current.defaultValue));
  if (mismatch !== undefined) {
    return { ok: false, reason: 'invalid', message: `${key} takes ${valueKind(current.defaultValue)} values, not ${JSON.stringify(mismatch)}` };
  }
  const previous = [...(entry.rules ?? [])].find(isExperimentRule);
  let rule;
  try {
    rule = experimentRule({ key, variations: input.variations, weights: input.weights, coverage: input.coverage, ...(previous?.name ? { name: previous.name } : {}) });
  } catch (error) {
    return { ok: false, reason: 'invalid', message: (error as Error).message };
  }
  return writeOverride(db, loaded, key, { defaultValue: current.defaultValue, rules: [rule] }, now);
}

/** `feature reset KEY`: back to the versioned file's definition. */
export async function resetFeature(db: Db, loaded: LoadedFeatureFile, key: string, now = new Date()): Promise<FeatureChange & { removed?: boolean }> {
  const entry = fileEntry(loaded, key);
  if (!entry) return unknownFeature(loaded, key);
  const removed = await db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('feature_overrides').where('key', '=', key).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await bumpRevision(trx, now);
    return true;
  });
  const { description, ...definition } = entry;
  return { ok: true, removed, feature: { key, description, definition, source: 'file', updatedAt: null } };
}
