/**
 * One address per page (issue 20 §3): React Router matches paths whatever their capitals, so
 * `/REGISTRATION/DENY` would be the deny page at a second address. The root middleware sends
 * such a request to the page's own spelling with a 301, as it does for `/DE`.
 */
import { LANDING_SLUGS, SCREENS } from '../../screens.ts';
import { lowercasePrefix, splitLocalePath } from './i18n.ts';

/** Every page's own address without its prefix, by its spelling in lower case (`registration/activateaccounterror` → `…Error`). */
const PAGE_PATHS = new Map<string, string>(
  [...SCREENS.filter((s) => !s.path.includes(':')).map((s) => s.path), ...LANDING_SLUGS].map((path) => [path.toLowerCase(), path]),
);

/**
 * The page's one address when `pathname` names it in other capitals: `/REGISTRATION/DENY` →
 * `/registration/deny`, `/DE/About-Us` → `/de/about-us`, `/registration/ACTIVATEACCOUNTERROR` →
 * `/registration/activateaccountError`; null when it is that address already. An address no page
 * has keeps its own spelling but for a language prefix (its 404 names the path as typed), and so
 * does a client navigation's `.data` request.
 */
export function canonicalPath(pathname: string): string | null {
  const prefixed = lowercasePrefix(pathname) ?? pathname;
  if (pathname.endsWith('.data')) return prefixed === pathname ? null : prefixed;
  const { prefix, rest } = splitLocalePath(prefixed);
  const page = PAGE_PATHS.get(rest.replace(/^\//, '').toLowerCase());
  const canonical = page === undefined ? prefixed : `${prefix ? `/${prefix}` : ''}/${page}`;
  return canonical === pathname ? null : canonical;
}
