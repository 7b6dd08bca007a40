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
import type { AuditAction } from '@velvet/validation/admin';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';

export interface FeatureState {
  features: EffectiveFeature[];
  revision: number;
  payload: FeaturePayload;
}

/** A refusal says why in English (the CLI) and as a message id with the field it concerns (the console, ADR 049). */
export type FeatureChange =
  | { ok: true; feature: EffectiveFeature }
  | { ok: false; reason: 'unknown-feature' | 'invalid'; message: string; field: 'key' | 'value' | 'variations'; messageId: string };

/** Who changed it, for the audit log (the console); the CLI records nothing. */
type Audit = AuditActor | null;

/** The definition in force for `key` (the database's override, or the file's), read in `trx`. */
async function definitionInForce(trx: Transaction<Database>, loaded: LoadedFeatureFile, key: string): Promise<FeatureDefinition | null> {
  const row = await trx.selectFrom('feature_overrides').select(['definition']).where('key', '=', key).executeTakeFirst();
  let parsed: FeatureDefinition | null;
  try {
    parsed = row ? parseFeatureDefinition(JSON.parse(row.definition) as unknown) : null;
  } catch {
    parsed = null;
  }
  if (parsed) return parsed;
  const entry = fileEntry(loaded, key);
  if (!entry) return null;
  const { description: _description, ...definition } = entry;
  return definition;
}

async function audit(trx: Transaction<Database>, actor: Audit, action: AuditAction, key: string, before: FeatureDefinition | null, after: FeatureDefinition, now: Date) {
  if (actor) await recordAudit(trx, actor, { action, target: key, details: { before, after } }, now);
}

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
  return {
    ok: false,
    reason: 'unknown-feature',
    message: `unknown feature ${key} (features: ${Object.keys(loaded.file.features).join(', ')})`,
    field: 'key',
    messageId: 'admin.features.error.unknown',
  };
}

function wrongKind(message: string, field: 'value' | 'variations'): FeatureChange {
  return { ok: false, reason: 'invalid', message, field, messageId: 'admin.features.error.kind' };
}

async function writeOverride(
  db: Db,
  loaded: LoadedFeatureFile,
  key: string,
  definition: FeatureDefinition,
  now: Date,
  change: { actor: Audit; action: AuditAction },
): Promise<FeatureChange> {
  const parsed = parseFeatureDefinition(definition);
  if (!parsed) return { ok: false, reason: 'invalid', message: `not a valid definition for ${key}`, field: 'value', messageId: 'admin.features.error.json' };
  const updatedAt = await db.transaction().execute(async (trx) => {
    const before = await definitionInForce(trx, loaded, key);
    const stamp = await bumpRevision(trx, now);
    await trx
      .insertInto('feature_overrides')
      .values({ key, definition: JSON.stringify(parsed), updated_at: stamp })
      .onConflict((oc) => oc.column('key').doUpdateSet({ definition: JSON.stringify(parsed), updated_at: stamp }))
      .execute();
    await audit(trx, change.actor, change.action, key, before, parsed, now);
    return stamp;
  });
  return { ok: true, feature: { key, description: fileEntry(loaded, key)?.description ?? '', definition: parsed, source: 'database', updatedAt } };
}

/** `feature set KEY --value JSON`: everyone gets this value (an experiment on the feature stops). */
export async function setFeatureValue(db: Db, loaded: LoadedFeatureFile, key: string, value: JsonValue, now = new Date(), actor: Audit = null): Promise<FeatureChange> {
  const entry = fileEntry(loaded, key);
  if (!entry) return unknownFeature(loaded, key);
  if (!sameKind(value, entry.defaultValue)) {
    return wrongKind(`${key} takes a ${valueKind(entry.defaultValue)} value, not ${JSON.stringify(value)}`, 'value');
  }
  return writeOverride(db, loaded, key, { defaultValue: value }, now, { actor, action: 'feature.set' });
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
  actor: Audit = null,
): Promise<FeatureChange> {
  const entry = fileEntry(loaded, key);
  if (!entry) return unknownFeature(loaded, key);
  const overrides = await readOverrides(db);
  const current = overrides.get(key)?.definition ?? entry;
  const mismatch = input.variations.find((v) => !sameKind(v, current.defaultValue));
  if (mismatch !== undefined) {
    return wrongKind(`${key} takes ${valueKind(current.defaultValue)} values, not ${JSON.stringify(mismatch)}`, 'variations');
  }
  const previous = [...(entry.rules ?? [])].find(isExperimentRule);
  let rule;
  try {
    rule = experimentRule({ key, variations: input.variations, weights: input.weights, coverage: input.coverage, ...(previous?.name ? { name: previous.name } : {}) });
  } catch (error) {
    return { ok: false, reason: 'invalid', message: (error as Error).message, field: 'variations', messageId: 'admin.features.error.variations' };
  }
  return writeOverride(db, loaded, key, { defaultValue: current.defaultValue, rules: [rule] }, now, { actor, action: 'experiment.set' });
}

/** `feature reset KEY`: back to the versioned file's definition. */
export async function resetFeature(db: Db, loaded: LoadedFeatureFile, key: string, now = new Date(), actor: Audit = null): Promise<FeatureChange & { removed?: boolean }> {
  const entry = fileEntry(loaded, key);
  if (!entry) return unknownFeature(loaded, key);
  const { description, ...definition } = entry;
  const removed = await db.transaction().execute(async (trx) => {
    const before = await definitionInForce(trx, loaded, key);
    const result = await trx.deleteFrom('feature_overrides').where('key', '=', key).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await bumpRevision(trx, now);
    await audit(trx, actor, 'feature.reset', key, before, definition, now);
    return true;
  });
  return { ok: true, removed, feature: { key, description, definition, source: 'file', updatedAt: null } };
}
