import { useIntl } from 'react-intl';
import { useRouteLoaderData } from 'react-router';
import type { RootData } from './root-data.ts';
import { localizedPath } from '../i18n/i18n.ts';

export function useRootData(): RootData {
  const data = useRouteLoaderData('root') as RootData | undefined;
  if (!data) throw new Error('Root data is not available');
  return data;
}

/**
 * The brand name with a no-break space: "Velvet Rope" is one word to the eye and is never split
 * over two lines, in a headline or in an inviter's name (issue 22 row 7). Applied to what a page
 * shows, not in the catalogs, so email subjects and the API's texts keep an ordinary space.
 */
function keepBrandTogether(text: string): string {
  return text.replace(/Velvet Rope/g, 'Velvet\u00a0Rope');
}

/** `t('key', values)`: the current language's message. */
export function useT() {
  const intl = useIntl();
  return (id: string, values?: Record<string, string | number | Date>) => keepBrandTogether(intl.formatMessage({ id }, values));
}

/**
 * Messages a part shows only later: once the page's script runs, or in answer to the visitor
 * ("Sending…", "Did you mean …?"). The server's render notes them (they are looked up, not
 * formatted), so the page brings them (ADR 038): they never wait for the language's whole
 * catalog, which may come late or not at all, and its arrival renders nothing again.
 */
export function useLaterMessages(...ids: string[]): void {
  const { messages } = useIntl();
  if (typeof window === 'undefined') for (const id of ids) Object.hasOwn(messages, id);
}

/** Builds paths in the language prefix the visitor is on. */
export function useLocalPath() {
  const { prefix } = useRootData();
  return (rest: string, search = '') => localizedPath(prefix, rest, search);
}
