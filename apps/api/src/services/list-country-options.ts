import { COUNTRIES } from '@velvet/i18n/locales';
import type { Country } from '@velvet/i18n/locales';
import type { Db } from '../db/connect.ts';

export interface CountryOption {
  isoCode: Country;
  termsPkString: string;
  dataPolicyPkString: string;
}

/**
 * Every served country with the current version (newest published, not in the future)
 * of its terms and data policy, in the order of COUNTRIES. A country missing either
 * document is left out rather than offered without a consent text.
 */
export async function listCountryOptions(db: Db, now: Date = new Date()): Promise<CountryOption[]> {
  const rows = await db
    .selectFrom('legal_documents')
    .select(['country', 'kind', 'pk_string', 'published_at'])
    .where('published_at', '<=', now.toISOString())
    .orderBy('published_at', 'desc')
    .orderBy('pk_string', 'desc')
    .execute();
  const current = new Map<string, string>();
  for (const row of rows) {
    const key = `${row.country}:${row.kind}`;
    if (!current.has(key)) current.set(key, row.pk_string);
  }
  return COUNTRIES.flatMap((isoCode) => {
    const termsPkString = current.get(`${isoCode}:terms`);
    const dataPolicyPkString = current.get(`${isoCode}:data_policy`);
    return termsPkString && dataPolicyPkString ? [{ isoCode, termsPkString, dataPolicyPkString }] : [];
  });
}
