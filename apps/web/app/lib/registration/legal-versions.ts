/**
 * The legal-document versions a registration form rendered, posted back with it: one hidden
 * `legalVersions` field per offered country (`DE terms-DE-2026-01 data-policy-DE-2026-01`), so
 * the versions of the country the visitor chose arrive even when it was changed without
 * JavaScript. The API compares them with the versions in force and refuses outdated ones
 * (validation.legalVersion): the visitor agreed to what the page showed, nothing else.
 */
export const LEGAL_VERSIONS_FIELD = 'legalVersions';

export interface LegalVersions {
  isoCode: string;
  termsPkString: string;
  dataPolicyPkString: string;
}

export function legalVersionsValue(option: LegalVersions): string {
  return `${option.isoCode} ${option.termsPkString} ${option.dataPolicyPkString}`;
}

/** The versions the form showed for `country`, or null when it offered no such country. */
export function postedLegalVersions(formData: FormData, country: string): LegalVersions | null {
  for (const entry of formData.getAll(LEGAL_VERSIONS_FIELD)) {
    if (typeof entry !== 'string') continue;
    const [isoCode, termsPkString, dataPolicyPkString, ...rest] = entry.split(' ');
    if (isoCode === country && termsPkString && dataPolicyPkString && rest.length === 0) return { isoCode, termsPkString, dataPolicyPkString };
  }
  return null;
}
