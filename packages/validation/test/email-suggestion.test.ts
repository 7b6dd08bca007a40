import { describe, expect, it } from 'vitest';
import { MAIL_PROVIDERS } from '../src/email-providers.ts';
import { isSlipOf, suggestEmail } from '../src/email-suggestion.ts';

/** A small seeded generator (mulberry32): the same corpus on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The corpus's own keyboards, written out here rather than taken from the module under test:
 * QWERTY and QWERTZ rows, a key's neighbours being the keys either side and the touching ones
 * above and below.
 */
const ROWS = [
  ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm,.'],
  ['1234567890', 'qwertzuiop', 'asdfghjkl', 'yxcvbnm,.-'],
];
function neighbours(key: string): string[] {
  const found: string[] = [];
  for (const rows of ROWS) {
    rows.forEach((row, r) => {
      const i = row.indexOf(key);
      if (i < 0) return;
      found.push(...[row[i - 1], row[i + 1], rows[r - 1]?.[i], rows[r - 1]?.[i + 1], rows[r + 1]?.[i - 1], rows[r + 1]?.[i]].filter((k): k is string => !!k));
    });
  }
  return found.filter((k) => /[a-z0-9.-]/.test(k));
}

const FIRST = ['anna', 'lukas', 'marie', 'jan', 'sofia', 'pierre', 'giulia', 'sven', 'agnieszka', 'pieter', 'lena', 'marco', 'eva', 'tomasz', 'ingrid', 'camille'];
const LAST = ['schmidt', 'mueller', 'dupont', 'rossi', 'jansen', 'kowalski', 'lindqvist', 'novak', 'bauer', 'moreau', 'bianchi', 'de.vries', 'nowak', 'berg'];
function localPart(next: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)] as T;
  const style = Math.floor(next() * 4);
  if (style === 0) return `${pick(FIRST)}.${pick(LAST)}`;
  if (style === 1) return `${pick(FIRST)}${Math.floor(next() * 90) + 10}`;
  if (style === 2) return `${pick(FIRST)[0]}${pick(LAST)}`;
  return `${pick(FIRST)}_${pick(LAST)}`;
}

const KNOWN = new Set(MAIL_PROVIDERS);

/** One slip in a provider's domain: a key left out, a neighbouring key added or put instead, two keys swapped. */
function typoOf(domain: string, next: () => number): string | null {
  const i = Math.floor(next() * domain.length);
  const neighbourOf = (key: string) => {
    const near = neighbours(key);
    return near.length ? near[Math.floor(next() * near.length)]! : null;
  };
  switch (Math.floor(next() * 4)) {
    case 0:
      return domain.slice(0, i) + domain.slice(i + 1);
    case 1: {
      // The extra key, beside the key it was struck with, lands before or after it.
      const key = neighbourOf(domain[i]!);
      const at = i + (next() < 0.5 ? 0 : 1);
      return key === null ? null : domain.slice(0, at) + key + domain.slice(at);
    }
    case 2: {
      const key = neighbourOf(domain[i]!);
      return key === null ? null : domain.slice(0, i) + key + domain.slice(i + 1);
    }
    default:
      return i + 1 < domain.length ? domain.slice(0, i) + domain[i + 1] + domain[i] + domain.slice(i + 2) : null;
  }
}

/** 500 addresses, each with one slip in its provider's domain (never one that is itself a provider's). */
function typoCorpus(): { typed: string; intended: string }[] {
  const next = random(24_3);
  const corpus = new Map<string, string>();
  while (corpus.size < 500) {
    const intended = MAIL_PROVIDERS[Math.floor(next() * MAIL_PROVIDERS.length)]!;
    const typo = typoOf(intended, next);
    if (!typo || typo === intended || KNOWN.has(typo) || !typo.includes('.')) continue;
    const local = localPart(next);
    corpus.set(`${local}@${typo}`, `${local}@${intended}`);
  }
  return [...corpus].map(([typed, intended]) => ({ typed, intended }));
}

/**
 * Domains people really have that are no provider's: firms, practices, universities, towns and
 * family names of our countries, with a share that sits close to a provider (wep.de beside
 * web.de, web.ee, post.ch beside post.cz, gmc.de, orange.pl beside orange.fr, aol.at beside aon.at).
 */
const OWN_DOMAINS = [
  'firma-mueller.de', 'mueller-partner.de', 'schreinerei-weber.de', 'baeckerei-schmitt.de', 'kanzlei-fischer.de', 'praxis-dr-meier.de',
  'hausarzt-koch.de', 'familie-schulz.net', 'tu-berlin.de', 'uni-hamburg.de', 'lmu.de', 'fu-berlin.de', 'rwth-aachen.de', 'kit.edu',
  'siemens.com', 'bosch.com', 'sap.com', 'zalando.de', 'otto.de', 'dm.de', 'rewe.de', 'stadt-koeln.de', 'muenchen.de', 'wep.de', 'gmc.de',
  'web.ee', 'uni-wien.ac.at', 'univie.ac.at', 'tuwien.ac.at', 'oebb.at', 'wien.gv.at', 'raiffeisen.at', 'aol.at', 'ethz.ch', 'uzh.ch',
  'epfl.ch', 'migros.ch', 'sbb.ch', 'admin.ch', 'post.ch', 'sorbonne-universite.fr', 'univ-lyon1.fr', 'sciencespo.fr', 'hec.edu',
  'cabinet-martin.fr', 'boulangerie-dupont.fr', 'paris.fr', 'lvmh.com', 'hermes.com', 'loreal.com', 'dupont.email', 'unimi.it', 'polimi.it',
  'uniroma1.it', 'studio-rossi.it', 'ferrari.com', 'gucci.com', 'comune.milano.it', 'bianchi-srl.it', 'rossi.name', 'uva.nl',
  'student.uva.nl', 'tudelft.nl', 'rug.nl', 'bol.com', 'ahold.com', 'utrecht.nl', 'bakkerij-jansen.nl', 'jansen.family', 'uw.edu.pl',
  'pw.edu.pl', 'agh.edu.pl', 'allegro.pl', 'orlen.pl', 'kancelaria-nowak.pl', 'firma-kowalski.pl', 'um.warszawa.pl', 'orange.pl', 'nowak.me',
  'kth.se', 'su.se', 'lu.se', 'ikea.com', 'hm.com', 'volvo.com', 'spotify.com', 'stockholm.se', 'ericsson.com', 'lindqvist.se', 'ucd.ie',
  'tcd.ie', 'ku.dk', 'helsinki.fi', 'aalto.fi', 'cuni.cz', 'muni.cz', 'elte.hu', 'ub.edu', 'uc3m.es', 'ulisboa.pt', 'uoa.gr', 'ox.ac.uk',
  'ucl.ac.uk', 'kuleuven.be', 'ugent.be', 'uni.lu', 'atelier-lena.com', 'studio-nord.design', 'my-domain.eu', 'berg.io', 'design-lab.studio',
  'velvetrope.example', 'schneider-gmbh.de', 'mode-haus.at', 'couture-paris.fr', 'moda-milano.it', 'stoffen.nl', 'szwalnia.pl', 'sy-ateljen.se',
  'architekten-wolf.de', 'zahnarzt-berger.at', 'notaire-bernard.fr', 'avvocato-greco.it', 'huisarts-bakker.nl', 'apteka-zdrowie.pl',
  'tandlakare-ek.se', 'weingut-huber.at', 'hotel-alpenblick.ch', 'gite-provence.fr', 'agriturismo-toscana.it', 'fietsenwinkel.nl',
  'pracownia-ceramiki.pl', 'snickeri-berg.se', 'physio-nord.de', 'bureau-lefebvre.be', 'online-shop24.de', 'mail-service.eu', 'webdesign-klein.de',
];

/** Small firms' domains as they are named everywhere: a trade and a family name, under a country's top level. */
const TRADES = ['atelier', 'studio', 'praxis', 'kanzlei', 'weingut', 'agentur', 'bureau', 'cabinet', 'pracownia', 'firma', 'salon', 'boutique', 'galerie', 'schneiderei', 'sartoria'];
const FAMILIES = ['weber', 'schulz', 'lefevre', 'conti', 'visser', 'wisniewski', 'holm', 'horvat', 'novotny', 'keller', 'fontaine', 'romano', 'smit', 'zielinski', 'nyberg', 'lehmann'];
const TOP_LEVELS = ['de', 'at', 'ch', 'fr', 'be', 'it', 'nl', 'pl', 'se', 'dk', 'cz', 'es', 'pt', 'eu', 'com'];

/**
 * 500 addresses as people type them right: 300 at 300 different domains of their own (each
 * domain once, so no domain weighs more than another), 200 at the providers.
 */
function correctCorpus(): string[] {
  const next = random(24_4);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)] as T;
  const domains = new Set(OWN_DOMAINS);
  while (domains.size < 300) domains.add(`${pick(TRADES)}-${pick(FAMILIES)}.${pick(TOP_LEVELS)}`);
  const corpus = [...domains].map((domain) => `${localPart(next)}@${domain}`);
  while (corpus.length < 500) corpus.push(`${localPart(next)}@${pick([...MAIL_PROVIDERS])}`);
  return corpus;
}

describe('email suggestion (issue 24 §3)', () => {
  it('suggests the provider for at least 95 % of 500 one-slip typos, the intended one for nearly all', () => {
    const corpus = typoCorpus();
    expect(corpus).toHaveLength(500);
    const answered = corpus.map(({ typed, intended }) => ({ typed, intended, suggestion: suggestEmail(typed) }));
    const suggested = answered.filter((a) => a.suggestion !== null);
    const right = answered.filter((a) => a.suggestion === a.intended);
    process.stdout.write(
      `typos: a suggestion for ${suggested.length}/500 (${(suggested.length / 5).toFixed(1)} %), the intended address for ${right.length}/500 (${(right.length / 5).toFixed(1)} %)\n`,
    );
    expect(suggested.length / corpus.length).toBeGreaterThanOrEqual(0.95);
    expect(right.length / corpus.length).toBeGreaterThanOrEqual(0.9);
  });

  it('suggests something for at most 0.5 % of 500 correct addresses', () => {
    const corpus = correctCorpus();
    expect(corpus).toHaveLength(500);
    expect(new Set(corpus.map((a) => a.slice(a.indexOf('@') + 1)).filter((d) => !MAIL_PROVIDERS.includes(d))).size).toBeGreaterThanOrEqual(295);
    const suggested = corpus.filter((address) => suggestEmail(address) !== null);
    process.stdout.write(`correct addresses: a suggestion for ${suggested.length}/500 (${(suggested.length / 5).toFixed(1)} %)${suggested.length ? `: ${suggested.join(', ')}` : ''}\n`);
    expect(suggested.length / corpus.length).toBeLessThanOrEqual(0.005);
  });

  it('answers the examples of the issue, keeps the local part and leaves correct addresses alone', () => {
    expect(suggestEmail('anna@gmx.ed')).toBe('anna@gmx.de');
    expect(suggestEmail(' Anna.Schmidt@GMAIL.CON ')).toBe('anna.schmidt@gmail.com');
    expect(suggestEmail('jan@gmial.com')).toBe('jan@gmail.com');
    expect(suggestEmail('marie@orange.cmo')).toBe('marie@orange.com');
    expect(suggestEmail('marie@hotmial.fr')).toBe('marie@hotmail.fr');
    expect(suggestEmail('lena@firma-mueller.con')).toBe('lena@firma-mueller.com');
    expect(suggestEmail('piotr@wp.pll')).toBe('piotr@wp.pl');
    for (const address of ['anna@gmx.de', 'anna@gmx.com', 'anna@o2.pl', 'sven@live.se', 'anna@t-online.de', 'anna@wep.de', 'anna@uni-wien.ac.at'])
      expect(suggestEmail(address), address).toBeNull();
    for (const notAnAddress of ['', 'anna', '@gmx.ed', 'anna@']) expect(suggestEmail(notAnAddress)).toBeNull();
  });

  it('counts as a slip only what fingers do: a neighbouring key, not any letter', () => {
    expect(isSlipOf('wev.de', 'web.de')).toBe(true);
    expect(isSlipOf('wep.de', 'web.de')).toBe(false);
    expect(isSlipOf('gmaail.com', 'gmail.com')).toBe(true);
    expect(isSlipOf('gmqil.com', 'gmail.com')).toBe(true);
    expect(isSlipOf('gmzil.com', 'gmail.com')).toBe(true);
    expect(isSlipOf('gmil.com', 'gmail.com')).toBe(true);
    expect(isSlipOf('gmail.com', 'gmail.com')).toBe(false);
  });
});
