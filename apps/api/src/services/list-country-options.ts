import { COUNTRIES } from '@velvet/i18n/locales';
import type { Country } from '@velvet/i18n/locales';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

export interface CountryOption {
  isoCode: Country;
  termsPkString: string;
  dataPolicyPkString: string;
}

interface LegalDocument {
  country: string;
  kind: string;
  pk_string: string;
  published_at: string;
}

/**
 * The legal documents as last read, by database: every code check and registration needs them,
 * and they change a few times a year (ADR 035). `revision` is `legal_documents_revision`'s,
 * which triggers bump in the transaction of any change to the table, whoever makes it (a
 * migration, an operator's SQL, another instance): every call reads it — one row by primary
 * key — and reloads the documents when it moved. `options` is what they give for instants in
 * [from, until): the publication before and after the instant it was computed for.
 */
interface LegalCache {
  revision: number;
  documents: LegalDocument[];
  options?: { from: number; until: number; list: CountryOption[] };
}
const cacheByDb = new WeakMap<Db, LegalCache>();

/**
 * The revision of the legal documents as a column of another statement, for a caller that reads
 * a row anyway and then lists the options (`listCountryOptions(db, now, revision)`).
 */
export function legalRevision(eb: ExpressionBuilder<Database, never>) {
  return eb.selectFrom('legal_documents_revision').select('revision').where('id', '=', 1);
}

/**
 * Every served country with the current version (newest published, not in the future)
 * of its terms and data policy, in the order of COUNTRIES. A country missing either
 * document is left out rather than offered without a consent text.
 */
export async function listCountryOptions(db: Db, now: Date = new Date(), knownRevision?: number): Promise<CountryOption[]> {
  // The code check reads the revision in its own statement (legalRevision below): one less.
  const revision =
    knownRevision ?? Number((await db.selectFrom('legal_documents_revision').select('revision').where('id', '=', 1).executeTakeFirst())?.revision ?? -1);
  let cache = cacheByDb.get(db);
  if (!cache || cache.revision !== revision) {
    const documents = await db.selectFrom('legal_documents').select(['country', 'kind', 'pk_string', 'published_at']).execute();
    cache = { revision, documents };
    cacheByDb.set(db, cache);
  }
  const at = now.getTime();
  if (!cache.options || at < cache.options.from || at >= cache.options.until) cache.options = optionsAt(cache.documents, at);
  return cache.options.list;
}

/** The options at instant `at`, and the interval around it in which no publication changes them. */
function optionsAt(documents: LegalDocument[], at: number): NonNullable<LegalCache['options']> {
  let from = -Infinity;
  let until = Infinity;
  const current = new Map<string, { pk: string; published: number }>();
  for (const row of documents) {
    const published = Date.parse(row.published_at);
    if (published > at) {
      until = Math.min(until, published);
      continue;
    }
    from = Math.max(from, published);
    const key = `${row.country}:${row.kind}`;
    const best = current.get(key);
    // Newest publication first; on the same instant the greater version id (as the query ordered them before).
    if (!best || published > best.published || (published === best.published && row.pk_string > best.pk)) {
      current.set(key, { pk: row.pk_string, published });
    }
  }
  const list = COUNTRIES.flatMap((isoCode) => {
    const termsPkString = current.get(`${isoCode}:terms`)?.pk;
    const dataPolicyPkString = current.get(`${isoCode}:data_policy`)?.pk;
    return termsPkString && dataPolicyPkString ? [Object.freeze({ isoCode, termsPkString, dataPolicyPkString })] : [];
  });
  // Shared by every caller until the next publication or change: nobody may alter it.
  return { from, until, list: Object.freeze(list) as CountryOption[] };
}
