/**
 * Page <head> data: translated title and description, canonical link and hreflang
 * alternates for all eight variants (x-default is the unprefixed path).
 */
import { isRouteErrorResponse, type MetaDescriptor } from 'react-router';
import { LOCALES } from '@velvet/i18n/locales';
import { getIntl } from '../i18n/intl.ts';
import { messagesOf, missingUntilLoaded, notePageMessages } from '../i18n/messages.ts';
import { localizedPath, splitLocalePath } from '../i18n/i18n.ts';
import type { RootData } from './root-data.ts';

interface MetaInput {
  matches: readonly ({ id: string; loaderData?: unknown } | undefined)[];
  location: { pathname: string };
  error?: unknown;
}

export interface PageMetaOptions {
  title: string;
  description?: string;
  values?: Record<string, string | number>;
  /** Keep the page out of search engines (admin, tokens, errors). */
  noIndex?: boolean;
}

function rootDataFrom(matches: MetaInput['matches']): RootData | undefined {
  return matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
}

export function pageMeta({ matches, location, error }: MetaInput, options: PageMetaOptions): MetaDescriptor[] {
  const root = rootDataFrom(matches);
  if (!root) return [{ title: 'Velvet Rope' }];
  if (error) {
    const notFound = isRouteErrorResponse(error) && error.status === 404;
    return pageMeta({ matches, location }, { title: notFound ? 'meta.notFound.title' : 'meta.error.title', noIndex: true });
  }
  if (typeof window === 'undefined') notePageMessages(root, [options.title, options.description]);
  const intl = getIntl(root.locale, messagesOf(root.locale), missingUntilLoaded(root.locale));
  const title = intl.formatMessage({ id: options.title }, options.values);
  const meta: MetaDescriptor[] = [{ title }, { property: 'og:title', content: title }];
  if (options.description) {
    const description = intl.formatMessage({ id: options.description }, options.values);
    meta.push({ name: 'description', content: description }, { property: 'og:description', content: description });
  }
  meta.push({ property: 'og:locale', content: root.locale });
  if (options.noIndex) {
    meta.push({ name: 'robots', content: 'noindex, nofollow' });
    return meta;
  }
  const { rest } = splitLocalePath(location.pathname);
  meta.push({ tagName: 'link', rel: 'canonical', href: `${root.publicUrl}${localizedPath(root.locale, rest)}` });
  for (const locale of LOCALES) {
    meta.push({ tagName: 'link', rel: 'alternate', hrefLang: locale, href: `${root.publicUrl}${localizedPath(locale, rest)}` });
  }
  meta.push({ tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: `${root.publicUrl}${localizedPath('', rest)}` });
  return meta;
}
