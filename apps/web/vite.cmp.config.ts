/**
 * The consent script's own build (ADR 011): one classic script (IIFE) and one stylesheet,
 * written to build/cmp and served by the web server at /entrance/cmp/{js,css}/cmp_min.*.
 * Its texts are the `cmp.*` messages of the seven catalogs, turned into the consent
 * manager's translation objects here, at build time.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { LOCALES } from '@velvet/i18n/locales';
import { EXTERNAL_LINKS } from './app/lib/external-links.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const VIRTUAL = 'virtual:acq-cmp-translations';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A catalog message as HTML: text escaped, `<privacy>…</privacy>` as a link to the privacy policy. */
function html(message: string): string {
  return message
    .split(/(<privacy>.*?<\/privacy>)/)
    .map((part) => {
      const link = /^<privacy>(.*)<\/privacy>$/.exec(part);
      return link ? `<a href="${EXTERNAL_LINKS.privacy}" rel="noopener">${escapeHtml(link[1] ?? '')}</a>` : escapeHtml(part);
    })
    .join('');
}

/** A text's sentences, each in a span of its own (cmp.css shows them as blocks). */
function sentences(text: string): string {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => `<span>${sentence}</span>`)
    .join(' ');
}

function translationsFor(locale: string) {
  const catalog = JSON.parse(readFileSync(path.join(here, `../../packages/i18n/catalogs/${locale}.json`), 'utf8')) as Record<string, string>;
  const t = (key: string) => {
    const message = catalog[key];
    if (message === undefined) throw new Error(`${locale}: missing ${key}`);
    return html(message);
  };
  return {
    consentModal: {
      label: t('cmp.consent.label'),
      title: t('cmp.consent.title'),
      // Two blocks: easier to read, and neither outgrows the page's hero text as the largest paint on phones;
      // the lead's sentences in blocks of their own so that no one of them outgrows the heading of a
      // form page either (ADR 037).
      description: `<span class="cm__desc-lead">${sentences(t('cmp.consent.description'))}</span><span class="cm__desc-more">${t('cmp.consent.more')}</span>`,
      acceptAllBtn: t('cmp.acceptAll'),
      acceptNecessaryBtn: t('cmp.rejectAll'),
      showPreferencesBtn: t('cmp.consent.preferences'),
    },
    preferencesModal: {
      title: t('cmp.preferences.title'),
      acceptAllBtn: t('cmp.acceptAll'),
      acceptNecessaryBtn: t('cmp.rejectAll'),
      savePreferencesBtn: t('cmp.preferences.save'),
      closeIconLabel: t('cmp.preferences.close'),
      sections: [
        { description: t('cmp.preferences.intro') },
        { title: t('cmp.necessary.title'), description: t('cmp.necessary.description'), linkedCategory: 'necessary' },
        { title: t('cmp.analytics.title'), description: t('cmp.analytics.description'), linkedCategory: 'analytics' },
        { title: t('cmp.marketing.title'), description: t('cmp.marketing.description'), linkedCategory: 'marketing' },
        { title: t('cmp.more.title'), description: t('cmp.more.description') },
      ],
    },
  };
}

function cmpTranslations(): Plugin {
  return {
    name: 'acq-cmp-translations',
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : null),
    load(id) {
      if (id !== `\0${VIRTUAL}`) return null;
      const all = Object.fromEntries(LOCALES.map((locale) => [locale, translationsFor(locale)]));
      return `export default ${JSON.stringify(all)};`;
    },
  };
}

export default defineConfig({
  plugins: [cmpTranslations()],
  publicDir: false,
  build: {
    outDir: path.join(here, 'build/cmp'),
    emptyOutDir: true,
    copyPublicDir: false,
    target: 'es2020',
    minify: true,
    lib: {
      entry: path.join(here, 'cmp/cmp.ts'),
      formats: ['iife'],
      name: 'AcqCmpBundle',
      fileName: () => 'js/cmp_min.js',
      cssFileName: 'css/cmp_min',
    },
  },
});
