import { useIntl } from 'react-intl';
import { useRouteLoaderData } from 'react-router';
import type { RootData } from './root-data.ts';
import { localizedPath } from '../i18n/i18n.ts';

export function useRootData(): RootData {
  const data = useRouteLoaderData('root') as RootData | undefined;
  if (!data) throw new Error('Root data is not available');
  return data;
}

/** `t('key', values)`: the current language's message. */
export function useT() {
  const intl = useIntl();
  return (id: string, values?: Record<string, string | number | Date>) => intl.formatMessage({ id }, values);
}

/** Builds paths in the language prefix the visitor is on. */
export function useLocalPath() {
  const { prefix } = useRootData();
  return (rest: string, search = '') => localizedPath(prefix, rest, search);
}
