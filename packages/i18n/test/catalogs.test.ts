/**
 * Guards the message catalogs: every language must have exactly the English keys (in the same
 * order), every message must be valid ICU MessageFormat with the same arguments as English, plurals
 * must cover the language's categories, and nothing may be left as an English copy.
 *
 * Each test collects every problem it finds and compares the list with [], so a failure names the
 * language and the key of each offending message at once.
 */
import {
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  isTimeElement,
  parse,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { catalogs } from '../src/catalogs.ts';
import { LOCALES, type Locale } from '../src/locales.ts';

const english = catalogs.en;
const englishKeys = Object.keys(english);
const TRANSLATED = LOCALES.filter((locale) => locale !== 'en');

/**
 * Messages that may legitimately read exactly as in English. Keep this list minimal: each entry
 * names its languages, and an entry whose value no longer equals English fails the test, so the
 * list cannot silently outgrow its reasons.
 */
const SAME_AS_ENGLISH: Readonly<Record<string, readonly Locale[]>> = {
  // The same word in French.
  'admin.waitlist.admission': ['fr'],
  // "Webhooks" is the technical term in these consoles too (issue 24 §4); "Status" and "Description" are the same words.
  'admin.webhooks.nav': ['de', 'fr', 'nl', 'sv'],
  'admin.webhooks.metaTitle': ['de', 'fr', 'nl', 'sv'],
  'admin.webhooks.title': ['de', 'fr', 'nl', 'sv'],
  'admin.webhooks.col.status': ['de', 'nl', 'pl', 'sv'],
  'admin.webhooks.description': ['fr'],
  // The brand name is never translated.
  'brand.name': TRANSLATED,
  // Place names with no exonym in any of our languages.
  'stores.dornach.name': TRANSLATED,
  'stores.voesendorf.name': TRANSLATED,
  // French calls München "Munich", as English does.
  'stores.munich.name': ['fr'],
  // Italian interfaces say "Password", the loanword.
  'admin.login.password': ['it'],
  'admin.security.password': ['it'],
  // German and Dutch say "Links" too.
  'admin.codes.links.title': ['de', 'nl'],
  // "Operator" is the role's name in German, Dutch and Polish teams too.
  'admin.roles.operator': ['de', 'nl', 'pl'],
  // "Admin" and "Details" are German and Dutch words too.
  'admin.audit.actor': ['de'],
  'admin.audit.action': ['fr'],
  'admin.audit.details': ['de', 'nl'],
  'admin.nav.admins': ['de'],
  'admin.admins.status': ['de', 'nl', 'pl', 'sv'],
  // The waiting list's column: "Status" in German and Swedish too (translation review of 27 Nov).
  'admin.waitlist.status': ['de', 'nl', 'pl', 'sv'],
  // "Variant" is the Swedish word too, as in the rest of the console.
  'admin.funnel.variant': ['sv'],
  // The member look-up (ADR 048): "Name" and "Status" are German (and Dutch, Swedish) words too;
  // "Newsletter" is the loanword in German, French, Italian and Polish; Italian says "No".
  'admin.members.name': ['de'],
  'admin.members.status': ['de', 'nl', 'pl', 'sv'],
  'admin.members.newsletter': ['de', 'fr', 'it', 'pl'],
  // The same loanword on the data page of people without an account (issue 24 §2).
  'myData.held.newsletter': ['de', 'fr', 'it', 'pl'],
  'admin.members.no': ['it'],
  // "Status" and "Experiment" are the same words there (ADR 049).
  'admin.outbox.status': ['de', 'nl', 'pl', 'sv'],
  'admin.features.experiment': ['de', 'nl', 'sv'],
  // The promo countdown's unit symbols: Italian writes h and min too.
  'promo.countdown.hours': ['it'],
};

/**
 * Plural categories a language has in CLDR that our messages may leave to `other`. French and
 * Italian `many` only selects round millions ("1 000 000 de secondes"), never a count we show.
 */
const OPTIONAL_PLURAL_CATEGORIES: Partial<Record<Locale, readonly string[]>> = {
  fr: ['many'],
  it: ['many'],
};

interface Choice {
  argument: string;
  kind: 'plural' | 'selectordinal' | 'select';
  keys: string[];
}

interface Shape {
  /** Argument names, and tags written as `<name>` (their values are supplied like arguments). */
  arguments: Set<string>;
  choices: Choice[];
}

/** Walks the AST, including plural/select branches and tag children. */
function shapeOf(elements: MessageFormatElement[], shape: Shape = { arguments: new Set(), choices: [] }): Shape {
  for (const element of elements) {
    if (isArgumentElement(element) || isNumberElement(element) || isDateElement(element) || isTimeElement(element)) {
      shape.arguments.add(element.value);
    } else if (isPluralElement(element) || isSelectElement(element)) {
      shape.arguments.add(element.value);
      const kind = isSelectElement(element) ? 'select' : element.pluralType === 'ordinal' ? 'selectordinal' : 'plural';
      shape.choices.push({ argument: element.value, kind, keys: Object.keys(element.options) });
      for (const option of Object.values(element.options)) shapeOf(option.value, shape);
    } else if (isTagElement(element)) {
      shape.arguments.add(`<${element.value}>`);
      shapeOf(element.children, shape);
    }
  }
  return shape;
}

type Parsed = { ok: true; shape: Shape } | { ok: false; error: string };

function parseMessage(message: unknown): Parsed {
  if (typeof message !== 'string') return { ok: false, error: `is a ${typeof message}, not a string` };
  if (message.trim() === '') return { ok: false, error: 'is empty' };
  try {
    // `other` is checked below with a clearer message than the parser's.
    return { ok: true, shape: shapeOf(parse(message, { requiresOtherClause: false })) };
  } catch (error) {
    return { ok: false, error: `does not parse: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const format = (names: Iterable<string>) => `{${[...names].sort().join(', ')}}`;

describe('message catalogs', () => {
  it('English is not empty', () => {
    expect(englishKeys.length).toBeGreaterThan(0);
  });

  it.each(TRANSLATED)('%s has exactly the keys of en.json, in the same order', (locale) => {
    const keys = Object.keys(catalogs[locale]);
    const present = new Set(keys);
    const expected = new Set(englishKeys);
    const problems = [
      ...englishKeys.filter((key) => !present.has(key)).map((key) => `${locale} › ${key}: missing`),
      ...keys.filter((key) => !expected.has(key)).map((key) => `${locale} › ${key}: not in en.json`),
    ];
    if (problems.length === 0) {
      const at = keys.findIndex((key, index) => key !== englishKeys[index]);
      if (at !== -1) problems.push(`${locale} › ${keys[at]}: out of order (en.json has ${englishKeys[at]} here)`);
    }
    expect(problems).toEqual([]);
  });

  it.each(LOCALES)('%s messages are valid ICU MessageFormat', (locale) => {
    const problems = Object.entries(catalogs[locale]).flatMap(([key, message]) => {
      const parsed = parseMessage(message);
      return parsed.ok ? [] : [`${locale} › ${key}: ${parsed.error}`];
    });
    expect(problems).toEqual([]);
  });

  it.each(TRANSLATED)('%s messages use the same arguments as English', (locale) => {
    const catalog = catalogs[locale];
    const problems = englishKeys.flatMap((key) => {
      if (!(key in catalog)) return []; // reported by the key test
      const source = parseMessage(english[key]);
      const target = parseMessage(catalog[key]);
      if (!source.ok) return [`${locale} › ${key}: the English message ${source.error}`];
      if (!target.ok) return [`${locale} › ${key}: ${target.error}`];
      const want = format(source.shape.arguments);
      const got = format(target.shape.arguments);
      return want === got ? [] : [`${locale} › ${key}: arguments ${got}, English has ${want}`];
    });
    expect(problems).toEqual([]);
  });

  it.each(LOCALES)('%s plurals and selects have `other` and fit the language', (locale) => {
    const categories = {
      plural: new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories),
      selectordinal: new Set(new Intl.PluralRules(locale, { type: 'ordinal' }).resolvedOptions().pluralCategories),
    };
    const optional = new Set(OPTIONAL_PLURAL_CATEGORIES[locale] ?? []);
    const problems = Object.entries(catalogs[locale]).flatMap(([key, message]) => {
      const parsed = parseMessage(message);
      if (!parsed.ok) return []; // reported by the parse test
      return parsed.shape.choices.flatMap(({ argument, kind, keys }) => {
        const where = `${locale} › ${key}: {${argument}, ${kind}}`;
        const found: string[] = [];
        if (!keys.includes('other')) found.push(`${where} has no \`other\` branch`);
        if (kind === 'select') return found;
        const allowed = categories[kind];
        const unknown = keys.filter((k) => !allowed.has(k as Intl.LDMLPluralRule) && !/^=\d+$/.test(k));
        if (unknown.length > 0) found.push(`${where} uses ${unknown.join(', ')}, which ${locale} does not have`);
        const needed = [...allowed].filter((c) => c !== 'other' && !keys.includes(c) && !optional.has(c));
        if (needed.length > 0) found.push(`${where} lacks ${needed.join(', ')}`);
        return found;
      });
    });
    expect(problems).toEqual([]);
  });

  it.each(TRANSLATED)('%s messages are translated, not copied from English', (locale) => {
    const catalog = catalogs[locale];
    const problems = englishKeys.flatMap((key) => {
      if (!(key in catalog)) return [];
      const allowed = SAME_AS_ENGLISH[key]?.includes(locale) ?? false;
      const same = catalog[key] === english[key];
      if (same && !allowed) return [`${locale} › ${key}: identical to English (${JSON.stringify(english[key])})`];
      if (!same && allowed) return [`${locale} › ${key}: listed in SAME_AS_ENGLISH but translated; remove it there`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('SAME_AS_ENGLISH lists only keys that exist', () => {
    expect(Object.keys(SAME_AS_ENGLISH).filter((key) => !(key in english))).toEqual([]);
  });
});
