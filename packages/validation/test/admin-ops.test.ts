/** The rules the console and the CLI share for the outbox and the flags (ADR 049). */
import { describe, expect, it } from 'vitest';
import { featureChangeForm, outboxRetryForm } from '../src/admin-ops.ts';

const messages = (input: unknown) => {
  const result = featureChangeForm.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('feature changes', () => {
  it('reads what a person types as the CLI does', () => {
    expect(featureChangeForm.parse({ intent: 'set', key: ' promo-banner ', value: ' false ' })).toEqual({ intent: 'set', key: 'promo-banner', value: false });
    expect(featureChangeForm.parse({ intent: 'set', key: 'top-banner-copy', value: '"members-first"' })).toMatchObject({ value: 'members-first' });
    expect(featureChangeForm.parse({ intent: 'experiment', key: 'top-banner-copy', variations: 'control, members-first', weights: '0.5,0.5' })).toEqual({
      intent: 'experiment',
      key: 'top-banner-copy',
      variations: ['control', 'members-first'],
      weights: [0.5, 0.5],
      coverage: 1,
    });
    expect(featureChangeForm.parse({ intent: 'experiment', key: 'show-onboarding', variations: '[true, false]', weights: '0.9,0.1', coverage: '0.25' })).toMatchObject({
      variations: [true, false],
      coverage: 0.25,
    });
  });

  it.each([
    [{ intent: 'set', key: 'promo-banner', value: 'yes' }, 'value: admin.features.error.json'],
    [{ intent: 'set', key: 'Promo Banner', value: 'true' }, 'key: admin.features.error.key'],
    [{ intent: 'experiment', key: 'top-banner-copy', variations: 'a,b', weights: '0.5,0.6' }, 'weights: admin.features.error.weightSum'],
    [{ intent: 'experiment', key: 'top-banner-copy', variations: 'a,b', weights: '1' }, 'weights: admin.features.error.weightCount'],
    [{ intent: 'experiment', key: 'top-banner-copy', variations: 'a,b', weights: '-0.5,1.5' }, 'weights: admin.features.error.weights'],
    [{ intent: 'experiment', key: 'top-banner-copy', variations: 'a,b', weights: '0.5,0.5', coverage: '1.5' }, 'coverage: admin.features.error.coverage'],
    [{ intent: 'experiment', key: 'top-banner-copy', variations: 'a,3', weights: '0.5,0.5' }, 'variations: admin.features.error.variationTypes'],
    [{ intent: 'experiment', key: 'top-banner-copy', variations: '[1, 2', weights: '0.5,0.5' }, 'variations: admin.features.error.variations'],
    [{ intent: 'experiment', key: 'top-banner-copy', variations: Array.from({ length: 11 }, (_, i) => `v${i}`).join(','), weights: '0.1' }, 'variations: admin.features.error.variationCount'],
  ])('refuses %j with one message', (input, expected) => {
    expect(messages(input)).toEqual([expected]);
  });
});

describe('outbox retries', () => {
  it('takes 1 to 100 ids of the outbox, never anything else', () => {
    expect(outboxRetryForm.parse({ ids: [' 3f0c-1 '] })).toEqual({ ids: ['3f0c-1'] });
    expect(outboxRetryForm.safeParse({ ids: [] }).error?.issues[0]?.message).toBe('admin.outbox.error.none');
    expect(outboxRetryForm.safeParse({ ids: ['a@b.example'] }).error?.issues[0]?.message).toBe('admin.outbox.error.id');
    expect(outboxRetryForm.safeParse({ ids: Array.from({ length: 101 }, () => 'a') }).error?.issues[0]?.message).toBe('admin.outbox.error.tooMany');
  });
});
