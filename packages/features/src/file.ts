/** Reads the versioned features file (servers only). */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseFeatureFile } from './definitions.ts';
import type { FeatureFile } from './definitions.ts';

/** Resolved as a package file, so the path holds from the sources and from a compiled bundle alike (ADR 026). */
const DEFAULT_FEATURES_FILE = createRequire(import.meta.url).resolve('@velvet/features/features.json');

export interface LoadedFeatureFile {
  file: FeatureFile;
  /** When the file last changed: part of the payload's version (dateUpdated). */
  modifiedAt: string;
}

export function loadFeatureFile(path: string = DEFAULT_FEATURES_FILE): LoadedFeatureFile {
  const file = parseFeatureFile(JSON.parse(readFileSync(path, 'utf8')) as unknown);
  return { file, modifiedAt: statSync(path).mtime.toISOString() };
}
