/** Reads the versioned features file (servers only). */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFeatureFile } from './definitions.ts';
import type { FeatureFile } from './definitions.ts';

export const DEFAULT_FEATURES_FILE = fileURLToPath(new URL('../features.json', import.meta.url));

export interface LoadedFeatureFile {
  file: FeatureFile;
  /** When the file last changed: part of the payload's version (dateUpdated). */
  modifiedAt: string;
}

export function loadFeatureFile(path: string = DEFAULT_FEATURES_FILE): LoadedFeatureFile {
  const file = parseFeatureFile(JSON.parse(readFileSync(path, 'utf8')) as unknown);
  return { file, modifiedAt: statSync(path).mtime.toISOString() };
}
