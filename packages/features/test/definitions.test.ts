import { GrowthBook } from '@growthbook/growthbook';
import { describe, expect, it } from 'vitest';
import { BUCKETS_BY_HASH_VERSION, HASH_ATTRIBUTE } from '../src/constants.ts';
import {
  experimentProblem,
  experimentRule,
  filePayload,
  forcedVariationLink,
  isFeatureKey,
  isFeaturePayload,
  listExperiments,
  mergeOverrides,
  parseFeatureDefinition,
  parseFeatureFile,
  toPayload,
} from '../src/definitions.ts';
import { loadFeatureFile } from '../src/file.ts';

const { file } = loadFeatureFile();
const payload = filePayload(file, '2026-11-22T00:00:00.000Z');

function growthbook(id: string, options: { url?: string; enabled?: boolean } = {}) {
  return new GrowthBook({ attributes: { [HASH_ATTRIBUTE]: id, applicationCountry: 'DE' }, url: options.url ?? 'https://club.example/', enabled: options.enabled ?? true }).initSync({ payload });
}

describe('the versioned features file', () => {
  it('defines the demo flag and the demo experiment', () => {
    expect(Object.keys(file.features).sort()).toEqual(['onboarding-variant', 'promo-banner', 'show-onboarding', 'top-banner-copy']);
    expect(payload.features['show-onboarding']).toEqual({ defaultValue: true });
    expect(JSON.stringify(payload)).not.toContain('description');
    expect(isFeaturePayload(payload)).toBe(true);
    expect(listExperiments(payload)).toEqual([
      {
        key: 'onboarding-variant',
        feature: 'onboarding-variant',
        name: 'Onboarding flow: full or short',
        coverage: 0,
        variations: [
          { index: 0, name: 'full', value: 'full', weight: 0.5 },
          { index: 1, name: 'short', value: 'short', weight: 0.5 },
        ],
      },
      {
        key: 'top-banner-copy',
        feature: 'top-banner-copy',
        name: 'Top banner copy',
        coverage: 1,
        variations: [
          { index: 0, name: 'control', value: 'control', weight: 0.5 },
          { index: 1, name: 'members-first', value: 'members-first', weight: 0.5 },
        ],
      },
    ]);
  });

  it('refuses a broken file with every problem named', () => {
    expect(() =>
      parseFeatureFile({
        features: {
          rc: { description: 'x', defaultValue: 1 },
          'ok-key': { description: 'y', defaultValue: 'a', rules: [{ key: 'ok-key', variations: ['a', 2], weights: [0.5, 0.5], coverage: 1 }] },
          'no-description': { defaultValue: true },
        },
      }),
    ).toThrow(/features\.rc: Invalid key[\s\S]*same type[\s\S]*no-description\.description/);
  });
});

describe('bucketing (GrowthBook SDK with our payload)', () => {
  it('is deterministic per anonymous id and splits about 50/50 into 10000 buckets', () => {
    const rule = listExperiments(payload).find((experiment) => experiment.key === 'top-banner-copy')!;
    expect(payload.features['top-banner-copy']!.rules![0]).toMatchObject({ hashVersion: 2 });
    expect(BUCKETS_BY_HASH_VERSION[2]).toBe(10_000);
    expect(rule.key).toBe('top-banner-copy');
    const counts = { control: 0, 'members-first': 0 } as Record<string, number>;
    for (let i = 0; i < 4000; i++) {
      const id = `visitor-${i}`;
      const value = growthbook(id).getFeatureValue('top-banner-copy', 'control');
      expect(growthbook(id).getFeatureValue('top-banner-copy', 'control')).toBe(value);
      counts[value] = (counts[value] ?? 0) + 1;
    }
    expect(counts.control).toBeGreaterThan(1800);
    expect(counts['members-first']).toBeGreaterThan(1800);
  });

  it('reports the assignment to the tracking callback once, with the variation key', () => {
    const calls: [string, string][] = [];
    const gb = new GrowthBook({
      attributes: { [HASH_ATTRIBUTE]: 'visitor-7' },
      trackingCallback: (experiment, result) => void calls.push([experiment.key, result.key]),
    }).initSync({ payload });
    gb.getFeatureValue('top-banner-copy', 'control');
    gb.getFeatureValue('top-banner-copy', 'control');
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe('top-banner-copy');
    expect(['0', '1']).toContain(calls[0]![1]);
  });

  it('forces a variation through the query string and shows control when testing is off', () => {
    const link = forcedVariationLink('https://club.example/de?rc=ABC', 'top-banner-copy', 1);
    expect(link).toBe('https://club.example/de?rc=ABC&top-banner-copy=1');
    for (let i = 0; i < 50; i++) {
      expect(growthbook(`v${i}`, { url: link }).getFeatureValue('top-banner-copy', 'x')).toBe('members-first');
      expect(growthbook(`v${i}`, { url: 'https://club.example/?top-banner-copy=0' }).getFeatureValue('top-banner-copy', 'x')).toBe('control');
      expect(growthbook(`v${i}`, { url: link, enabled: false }).getFeatureValue('top-banner-copy', 'x')).toBe('control');
    }
  });
});

describe('the onboarding variant (prepared, not running)', () => {
  it('shows everyone the full flow and tracks nobody until an operator raises the coverage', () => {
    const calls: string[] = [];
    for (let i = 0; i < 500; i++) {
      const gb = new GrowthBook({ attributes: { [HASH_ATTRIBUTE]: `visitor-${i}` }, trackingCallback: (experiment) => void calls.push(experiment.key) }).initSync({ payload });
      expect(gb.getFeatureValue('onboarding-variant', 'x')).toBe('full');
    }
    expect(calls).toEqual([]);
  });

  it('previews the short variant through a forced link, untracked', () => {
    const calls: string[] = [];
    const url = forcedVariationLink('https://club.example/de?rc=ABC', 'onboarding-variant', 1);
    const gb = new GrowthBook({ attributes: { [HASH_ATTRIBUTE]: 'visitor-1' }, url, trackingCallback: (experiment) => void calls.push(experiment.key) }).initSync({ payload });
    expect(gb.getFeatureValue('onboarding-variant', 'x')).toBe('short');
    expect(calls).toEqual([]);
  });
});

describe('overrides and experiments', () => {
  it('lets a database override win over the file, and ignores unknown keys', () => {
    const merged = mergeOverrides(
      file,
      new Map([
        ['show-onboarding', { definition: { defaultValue: false }, updatedAt: '2026-11-22T10:00:00.000Z' }],
        ['gone', { definition: { defaultValue: 1 }, updatedAt: '2026-11-22T10:00:00.000Z' }],
      ]),
    );
    expect(merged.find((f) => f.key === 'show-onboarding')).toMatchObject({ source: 'database', definition: { defaultValue: false } });
    expect(merged.map((f) => f.key)).not.toContain('gone');
    expect(toPayload(merged, 'v2').features['show-onboarding']).toEqual({ defaultValue: false });
  });

  it('builds experiment rules in our conventions and names what is wrong', () => {
    const rule = experimentRule({ key: 'top-banner-copy', variations: ['control', 'members-first'], weights: [0.2, 0.8], coverage: 0.5 });
    expect(rule).toMatchObject({ hashAttribute: 'acqAnonymousId', hashVersion: 2, meta: [{ key: '0', name: 'control' }, { key: '1', name: 'members-first' }] });
    expect(parseFeatureDefinition({ defaultValue: 'control', rules: [rule] })).not.toBeNull();
    expect(parseFeatureDefinition({ defaultValue: true, rules: [rule] })).toBeNull();
    expect(experimentProblem(['a'], [1], 1)).toMatch(/2 to 10/);
    expect(experimentProblem(['a', 'b'], [0.5], 1)).toMatch(/one weight per variation/);
    expect(experimentProblem(['a', 'b'], [0.5, 0.6], 1)).toMatch(/add up to 1/);
    expect(experimentProblem(['a', 'b'], [0.5, 0.5], 1.5)).toMatch(/coverage/);
    expect(experimentProblem(['a', 1], [0.5, 0.5], 1)).toMatch(/same type/);
    expect(experimentProblem(['a', 'a'], [0.5, 0.5], 1)).toMatch(/differ/);
  });

  it('keeps feature keys apart from the query parameters the product reads', () => {
    expect(isFeatureKey('top-banner-copy')).toBe(true);
    for (const key of ['rc', 'token', 'lang', 'disablegb', 'Top', 'a', '-x-', 'x'.repeat(65)]) expect(isFeatureKey(key)).toBe(false);
  });
});
