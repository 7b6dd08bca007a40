/**
 * The mechanical rules of the style guides (docs/i18n/<lang>.md, issue 21 §3): what a native copy
 * editor fixes by rule, caught before a reviewer has to. French spaces before `: ; ? !` and inside
 * « »; German visitors addressed as Sie, never du; Polish Ty and Twój capitalised and names never in
 * a case slot; each guide's glossary — its forbidden variants — in its catalog; no English left.
 *
 * Each test collects every offending message and compares the list with [], so a failure names the
 * language and the key of each at once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogs } from '../src/catalogs.ts';
import { LOCALES, type Locale } from '../src/locales.ts';

const TRANSLATED = LOCALES.filter((locale): locale is Exclude<Locale, 'en'> => locale !== 'en');
const guides = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/i18n');

/** The message's text a reader sees: ICU arguments and tags replaced by a neutral word. */
function prose(message: string): string {
  return message.replace(/<\/?[a-zA-Z]+>/g, '').replace(/\{[^{}]*\}/g, 'X');
}

/** Every message of a catalog whose prose matches, as "key: message". */
function offending(locale: Locale, test: (text: string, key: string) => boolean): string[] {
  return Object.entries(catalogs[locale]).flatMap(([key, message]) => (test(prose(message), key) ? [`${key}: ${message}`] : []));
}

describe('French typography', () => {
  it('puts a no-break space before : ; ? ! (not an ordinary space, not none)', () => {
    expect(
      offending('fr', (text) => {
        // Times (10:30) and addresses (https://) are not punctuation.
        const bare = text.replace(/\d:\d/g, '').replace(/[a-z]+:\/\//gi, '');
        return /[^\u00a0\u202f][:;?!]/.test(bare.replace(/^[:;?!]/, ''));
      }),
    ).toEqual([]);
  });
  it('sets « and » with a no-break space inside', () => {
    expect(offending('fr', (text) => /«[^\u00a0\u202f]|[^\u00a0\u202f]»/.test(text))).toEqual([]);
  });
});

describe('apostrophes', () => {
  it.each(['fr', 'it'] as const)('%s writes the typographic ’, never the straight one', (locale) => {
    // ICU quotes a literal brace with ' (none of ours needs one): any straight apostrophe is typography.
    expect(offending(locale, (text) => text.includes("'"))).toEqual([]);
  });
});

describe('German register (docs/i18n/de.md): Sie for visitors and in the console', () => {
  it('never says du, dich, dir or dein-', () => {
    expect(offending('de', (text) => /\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines)\b/i.test(text))).toEqual([]);
  });
});

describe('Polish (docs/i18n/pl.md)', () => {
  it('writes Ty and Twój, the forms of address, with a capital', () => {
    // "ci" is also a plural pronoun ("ci członkowie"); the dative is always written "Ci" here.
    const lower = /(?<![\p{L}])(ty|ciebie|cię|tobie|tobą|twój|twoja|twoje|twojego|twojej|twojemu|twoim|twoją|twoich|twoimi)(?![\p{L}])/u;
    expect(offending('pl', (text) => lower.test(text))).toEqual([]);
  });
  it('never puts a name in a case slot: a name stands where the nominative is sure', () => {
    // What may stand before a name in its sentence (docs/i18n/pl.md, "Names in sentences"): nothing
    // (the subject opens it), a colon or dash, a bracket or quotation mark, a greeting, or one of
    // the verbs of inviting with the name as their subject after them ("Zaprasza Cię {inviterName}").
    const ALLOWED_BEFORE = [/^$/, /[:—–] $/, /[(„]$/, /^(Witaj|Witamy|Dzień dobry|Cześć), $/, /(zaprasza|wysyła|poleca|przesyła) (Cię|Ci) $/i];
    expect(
      Object.entries(catalogs.pl).flatMap(([key, message]) =>
        [...message.matchAll(/\{(inviterName|firstName|name)\}/g)].some((match) => {
          const sentence = message.slice(0, match.index).split(/[.!?] /).at(-1) ?? '';
          return !ALLOWED_BEFORE.some((pattern) => pattern.test(sentence));
        })
          ? [`${key}: ${message}`]
          : [],
      ),
    ).toEqual([]);
  });
});

/** The glossary table of a guide: `term (en) | <lang> | forbidden variants`, its third column split on commas. */
function forbiddenVariants(locale: Locale): string[] {
  const guide = readFileSync(path.join(guides, `${locale}.md`), 'utf8');
  const lines = guide.split('\n');
  const header = lines.findIndex((line) => /^\|\s*term \(en\)\s*\|/i.test(line));
  if (header < 0) throw new Error(`docs/i18n/${locale}.md has no glossary table (| term (en) | ${locale} | forbidden variants |)`);
  const rows: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((cell) => cell.trim());
    rows.push(...(cells[3] ?? '').split(',').map((variant) => variant.replace(/[*_`]/g, '').trim()));
  }
  return rows.filter((variant) => variant !== '' && variant !== '—' && variant !== '-');
}

describe('each guide’s glossary', () => {
  it.each(TRANSLATED)('%s: no forbidden variant in the catalog', (locale) => {
    const variants = forbiddenVariants(locale);
    expect(variants.length).toBeGreaterThan(0);
    const found = variants.flatMap((variant) => {
      const word = new RegExp(`(?<![\\p{L}])${variant.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'iu');
      return offending(locale, (text) => word.test(text)).map((hit) => `${variant} → ${hit}`);
    });
    expect(found).toEqual([]);
  });
});

/**
 * English words no translation of ours should contain. Loanwords a language uses (Dutch and
 * Italian "account", the brand, "Newsletter", "Admin") are not in this list; each guide names them.
 */
const ENGLISH = ['the', 'and', 'your', 'you', 'please', 'click', 'here', 'sign up', 'sign in', 'welcome', 'email address', 'thank you', 'sorry', 'shop now', 'waiting list'];

describe('no English left in a translation', () => {
  it.each(TRANSLATED)('%s', (locale) => {
    const found = ENGLISH.flatMap((word) => {
      const pattern = new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, 'iu');
      return offending(locale, (text) => pattern.test(text)).map((hit) => `${word} → ${hit}`);
    });
    expect(found).toEqual([]);
  });
});
