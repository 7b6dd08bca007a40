/** The server's part of A/B tests (ADR 012): the root loader's data and the server render. */
import { filePayload } from '@velvet/features/definitions';
import { loadFeatureFile } from '@velvet/features/file';
import { renderToString } from 'react-dom/server';
import { RawIntlProvider } from 'react-intl';
import { MemoryRouter, RouterContextProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { CONSENT_COOKIE, CONSENT_REVISION } from '../app/lib/consent/consent-shared.ts';
import { requestInfoContext, type RequestInfo } from '../app/lib/page/context.ts';
import type { ExperimentsData } from '../app/lib/experiments/experiments-shared.ts';
import { experimentsData, featureValues, testingDisabled, variationOf } from '../app/lib/experiments/experiments.server.ts';
import { applyPageCaching } from '../app/lib/page/page-caching.server.ts';
import { ExperimentsProvider, Features, featureSnapshot, useAbTestsLoading, useFeatureIsOn, useFeatureValue } from '../app/lib/experiments/experiments.tsx';
import { testRequestExtras } from './support/request-info.ts';
import { OnboardingFlow } from '../app/components/onboarding-flow.tsx';
import { getIntl } from '../app/lib/i18n/intl.ts';
import { clientMessages } from '../app/lib/i18n/messages.server.ts';

const { file, modifiedAt } = loadFeatureFile();
const payload = filePayload(file, modifiedAt);
const ID = '3f2c8f5e-8d1e-4c3b-9a57-1f0e2d3c4b5a';

function context(): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(requestInfoContext, {
    contentSecurityPolicy: () => '', correlationId: 'c', clientIp: '203.0.113.9', apiUrl: 'http://127.0.0.1:9', publicApiUrl: 'http://127.0.0.1:9',
    publicUrl: 'https://club.example', environment: 'test', gtmContainerId: undefined, trustedCountryHeader: 'cf-ipcountry',
    secureCookies: true, appSecret: 'x'.repeat(32), formMinFillSeconds: 0, appSchemePrefix: 'velvetrope://',
    consent: { enabled: true, settingsId: 's', appVersion: '1', gtmScriptUrl: 'https://tags.example/gtm.js' },
    ...testRequestExtras({ features: { clientKey: 'sdk-velvet-rope', payload: () => Promise.resolve(payload) } }),
  } satisfies RequestInfo);
  return provider;
}

function consent(analytics: boolean): string {
  const value = { categories: analytics ? ['necessary', 'analytics'] : ['necessary'], revision: CONSENT_REVISION, consentId: 'c-1' };
  return `${CONSENT_COOKIE}=${encodeURIComponent(JSON.stringify(value))}`;
}

describe('the root loader’s experiments data', () => {
  it('hashes on a bucket: the cache’s, else the kept id’s first byte (with analytics consent only), else one drawn per response', async () => {
    const withConsent = await experimentsData(new Request('https://club.example/', { headers: { cookie: `acq_anonymous_id=${ID}; ${consent(true)}`, 'cf-ipcountry': 'AT' } }), context());
    expect(withConsent).toMatchObject({ clientKey: 'sdk-velvet-rope', payload, enabled: true, bucketSource: 'cookie', attributes: { acqAnonymousId: ID.slice(0, 2), applicationCountry: 'AT' } });
    // The page never carries the id itself.
    expect(JSON.stringify(withConsent)).not.toContain(ID);

    const fromCache = await experimentsData(new Request('https://club.example/', { headers: { cookie: `acq_anonymous_id=${ID}; ${consent(true)}`, 'x-experiment-bucket': 'A7' } }), context());
    expect(fromCache).toMatchObject({ bucketSource: 'cache', attributes: { acqAnonymousId: 'a7' } });

    for (const headers of [{ cookie: `acq_anonymous_id=${ID}; ${consent(false)}` } as Record<string, string>, { cookie: `acq_anonymous_id=${ID}` }, { cookie: `acq_anonymous_id=not-a-uuid; ${consent(true)}` }, { 'x-experiment-bucket': 'zz' }]) {
      const data = await experimentsData(new Request('https://club.example/', { headers }), context());
      expect(data.bucketSource).toBe('drawn');
      expect(data.attributes.acqAnonymousId).toMatch(/^[0-9a-f]{2}$/);
    }
    const drawn = await Promise.all(Array.from({ length: 40 }, () => experimentsData(new Request('https://club.example/'), context())));
    expect(new Set(drawn.map((d) => d.attributes.acqAnonymousId)).size).toBeGreaterThan(20);
    expect(drawn[0]!.attributes.applicationCountry).toBe('DE');
  });

  it('turns testing off with disablegb=true only', () => {
    expect(testingDisabled(new URL('https://club.example/?disablegb=true'))).toBe(true);
    expect(testingDisabled(new URL('https://club.example/?disablegb=TRUE'))).toBe(true);
    expect(testingDisabled(new URL('https://club.example/?disablegb=false'))).toBe(false);
    expect(testingDisabled(new URL('https://club.example/'))).toBe(false);
  });
});

const hex = (index: number) => index.toString(16).padStart(2, '0');
const ALL_BUCKETS = Array.from({ length: 256 }, (_, index) => hex(index));

/** The buckets a page names (64 hex digits, a bit a bucket). */
function bucketsIn(bits: string): string[] {
  return ALL_BUCKETS.filter((_, index) => (Number.parseInt(bits.slice(2 * (index >> 3), 2 * (index >> 3) + 2), 16) >> (index & 7)) & 1);
}

describe('pages a shared cache keeps once per variation (ADR 053)', () => {
  const asked = (bucket: string, headers: Record<string, string> = {}, path = '/') =>
    new Request(`https://club.example${path}`, { headers: { 'x-experiment-bucket': bucket, ...headers } });
  const settings = { features: { clientKey: 'sdk-velvet-rope' }, payload, publicUrl: 'https://club.example', trustedCountryHeader: 'cf-ipcountry' };
  const variationAt = (bucket: string, path = '/') => variationOf(asked(bucket, {}, path), new URL(path, 'https://club.example'), settings);
  const banner = (bucket: string) =>
    featureValues(payload, { clientKey: 'k', enabled: true, url: 'https://club.example/', attributes: { acqAnonymousId: bucket, applicationCountry: 'DE' } }).values['top-banner-copy'];

  it('names one variation for all the buckets that get the same page, and none without a bucket', () => {
    const byName = new Map<string | undefined, string[]>();
    for (const bucket of ALL_BUCKETS) byName.set(variationAt(bucket), [...(byName.get(variationAt(bucket)) ?? []), bucket]);
    // The versioned features' 50/50 test: two pages, each with one banner.
    expect(byName.size).toBe(2);
    for (const buckets of byName.values()) expect(new Set(buckets.map(banner)).size).toBe(1);
    // Testing off: everyone sees control, one page.
    expect(new Set(ALL_BUCKETS.map((bucket) => variationAt(bucket, '/?disablegb=true'))).size).toBe(1);
    // A forced variation is the same page for every bucket too.
    expect(new Set(ALL_BUCKETS.map((bucket) => variationAt(bucket, '/?top-banner-copy=1'))).size).toBe(1);
    expect(variationOf(new Request('https://club.example/'), new URL('https://club.example/'), settings)).toBeUndefined();
  });

  it('renders a page for the variation the cache named: the same for each of its buckets, naming them all and no one', async () => {
    const name = variationAt('3f')!;
    const data = await experimentsData(asked('3f', { 'x-experiment-variation': name }), context());
    expect(data).toMatchObject({ bucketSource: 'variation', attributes: { applicationCountry: 'DE' } });
    expect(data.attributes).not.toHaveProperty('acqAnonymousId');
    const members = bucketsIn(data.buckets!);
    expect(members).toContain('3f');
    expect(members).toEqual(ALL_BUCKETS.filter((bucket) => variationAt(bucket) === name));
    const another = members.find((bucket) => bucket !== '3f')!;
    expect(await experimentsData(asked(another, { 'x-experiment-variation': name }), context())).toEqual(data);
    // The other variation's page names the other buckets.
    const outsider = ALL_BUCKETS.find((bucket) => !members.includes(bucket))!;
    const other = await experimentsData(asked(outsider, { 'x-experiment-variation': variationAt(outsider)! }), context());
    expect(bucketsIn(other.buckets!)).toEqual(ALL_BUCKETS.filter((bucket) => !members.includes(bucket)));
  });

  it('makes the page the visitor’s own when the variation named is no longer the bucket’s (the payload changed in between)', async () => {
    const outsider = ALL_BUCKETS.find((bucket) => variationAt(bucket) !== variationAt('3f'))!;
    const request = asked('3f', { 'x-experiment-variation': variationAt(outsider)! });
    const data = await experimentsData(request, context());
    expect(data).toMatchObject({ bucketSource: 'drawn', attributes: { acqAnonymousId: '3f' } });
    expect(data.buckets).toBeUndefined();
    const headers = new Headers();
    const facts = { request, status: 200, headers, leafRouteId: 'de:landing', answeredForm: false, calledApi: false, trustedCountryHeader: 'cf-ipcountry' };
    expect(applyPageCaching({ ...facts, experiments: data })).toBe(false);
    expect(headers.get('cache-control')).toBe('private, no-store');
    // The page of the variation named is kept, varying on the variation rather than the bucket.
    const kept = new Headers();
    const right = asked('3f', { 'x-experiment-variation': variationAt('3f')! });
    expect(applyPageCaching({ ...facts, request: right, headers: kept, experiments: await experimentsData(right, context()) })).toBe(true);
    expect(kept.get('vary')?.split(', ')).toEqual(expect.arrayContaining(['Cookie', 'x-experiment-variation', 'cf-ipcountry']));
    expect(kept.get('vary')).not.toContain('x-experiment-bucket');
  });
});

describe('the bucket the browser takes on a page shared by a variation', () => {
  async function take(data: Pick<ExperimentsData, 'attributes' | 'buckets'>, cookie = ''): Promise<string> {
    vi.resetModules();
    vi.stubGlobal('document', { cookie });
    const { bucketOf } = await import('../app/lib/experiments/experiment-assignments.ts');
    const bucket = bucketOf(data);
    // One per page load: asked again, the same.
    expect(bucketOf(data)).toBe(bucket);
    vi.unstubAllGlobals();
    return bucket;
  }
  const half = '0f'.repeat(32); // buckets whose low nibble is 0–3 (bits 0–3 of each byte)
  const inHalf = (bucket: string) => (Number.parseInt(bucket, 16) & 7) < 4;

  it('takes the page’s own bucket when it names one', async () => {
    expect(await take({ attributes: { acqAnonymousId: 'a7', applicationCountry: 'DE' } })).toBe('a7');
  });

  it('else keeps the visitor’s kept id when it is one of the variation’s, else draws one of them, each as likely', async () => {
    const attributes = { applicationCountry: 'DE' };
    expect(await take({ attributes, buckets: half }, `acq_anonymous_id=${'02'}${ID.slice(2)}`)).toBe('02');
    const drawn: string[] = [];
    for (let i = 0; i < 60; i++) drawn.push(await take({ attributes, buckets: half }, i % 2 ? `acq_anonymous_id=${'0c'}${ID.slice(2)}` : ''));
    expect(drawn.every(inHalf)).toBe(true);
    expect(new Set(drawn).size).toBeGreaterThan(20);
  });
});

function Probe() {
  const copy = useFeatureValue('top-banner-copy', 'none');
  const onboarding = useFeatureIsOn('show-onboarding');
  const loading = useAbTestsLoading();
  return <p>{`${copy}|${onboarding}|${loading}`}</p>;
}

/** The page as the server renders it: the root loader's values for this visitor and address, then the provider. */
function render(inputs: Omit<ExperimentsData, 'values' | 'assignments'>, url: string): string {
  const evaluated = featureValues(inputs.payload, { ...inputs, url: `https://club.example${url}` });
  return renderToString(
    <MemoryRouter initialEntries={[url]}>
      <ExperimentsProvider data={{ ...inputs, ...evaluated }}>
        <Probe />
      </ExperimentsProvider>
    </MemoryRouter>,
  );
}

describe('the server render', () => {
  const base: Omit<ExperimentsData, 'values' | 'assignments'> = { clientKey: 'k', payload, attributes: { acqAnonymousId: ID.slice(0, 2), applicationCountry: 'DE' }, enabled: true, bucketSource: 'drawn' };

  it('renders the assigned variation, the forced one, and control with testing off; the loading flag is already cleared', () => {
    const assigned = render(base, '/');
    expect(assigned).toMatch(/<p>(control|members-first)\|true\|false<\/p>/);
    expect(render(base, '/?top-banner-copy=1')).toContain('<p>members-first|true|false</p>');
    expect(render(base, '/?top-banner-copy=0')).toContain('<p>control|true|false</p>');
    expect(render({ ...base, enabled: false }, '/?top-banner-copy=1')).toContain('<p>control|true|false</p>');
    // The same inputs always give the same answer (the browser hydrates with them).
    expect(render(base, '/')).toBe(assigned);
  });

  it('notes the experiment a feature puts the visitor in, as GrowthBook would track it; none when forced or with testing off', () => {
    const assigned = featureValues(payload, { ...base, url: 'https://club.example/' });
    expect(assigned.assignments['top-banner-copy']).toEqual({ experimentId: 'top-banner-copy', variationId: expect.any(String) });
    expect(featureValues(payload, { ...base, url: 'https://club.example/?top-banner-copy=1' }).assignments).toEqual({});
    expect(featureValues(payload, { ...base, enabled: false, url: 'https://club.example/' }).assignments).toEqual({});
  });

  it('falls back outside the provider (error pages)', () => {
    expect(renderToString(<MemoryRouter><Probe /></MemoryRouter>)).toContain('<p>none|false|true</p>');
  });
});

describe('content that depends on an A/B test reads the A/B-tests-loading flag (spec §4)', () => {
  const base: Omit<ExperimentsData, 'values' | 'assignments'> = { clientKey: 'k', payload, attributes: { acqAnonymousId: ID.slice(0, 2), applicationCountry: 'DE' }, enabled: true, bucketSource: 'drawn' };
  const onboarding = (page: React.ReactNode) =>
    renderToString(<RawIntlProvider value={getIntl('en', clientMessages('en'))}>{page}</RawIntlProvider>);

  it('shows the variation the server put the visitor in: the tests are loaded from the first render', () => {
    const forced = { ...base, ...featureValues(payload, { ...base, url: 'https://club.example/?onboarding-variant=1' }) };
    const html = onboarding(
      <MemoryRouter initialEntries={['/?onboarding-variant=1']}>
        <ExperimentsProvider data={forced}>
          <OnboardingFlow />
        </ExperimentsProvider>
      </MemoryRouter>,
    );
    expect(html).toContain('data-variant="short"');
  });

  it('shows no variation while the A/B tests have not loaded (outside the provider they never do), not the fallback as if it were one', () => {
    const html = onboarding(
      <MemoryRouter>
        <OnboardingFlow />
      </MemoryRouter>,
    );
    expect(html).not.toContain('data-variant');
    expect(html).toBe('');
  });
});

describe('the SDK taking over in the browser', () => {
  const data = { values: { 'show-onboarding': true, 'hero-variant': 'b' }, assignments: {}, attributes: { acqAnonymousId: 'ab' } } as unknown as ExperimentsData;
  const sdk = (values: Record<string, unknown>) => {
    let renderer: (() => void) | undefined;
    return {
      getFeatureValue: (key: string, fallback: never) => (key in values ? values[key] : fallback) as never,
      setRenderer: (r: () => void) => (renderer = r),
      streamed: () => renderer?.(),
    };
  };

  it('renders nothing again when the SDK answers what the page read from the server', () => {
    const features = new Features(data);
    const read = () => [featureSnapshot(features, 'show-onboarding', false), featureSnapshot(features, 'hero-variant', 'a')];
    const before = read();
    expect(before).toEqual(['true', '"b"']);
    const notified = vi.fn();
    features.subscribe(notified);
    const source = sdk({ 'show-onboarding': true, 'hero-variant': 'b' });
    features.attach(source);
    // The parts are told, ask again, get what they showed: React keeps them as they are.
    expect(notified).toHaveBeenCalledTimes(1);
    expect(read()).toEqual(before);
    // From now on the SDK answers; the stream tells the parts again.
    source.streamed();
    expect(notified).toHaveBeenCalledTimes(2);
  });

  it('renders again what reads a value that differs (a page a cache kept while the payload changed), and only that', () => {
    const features = new Features(data);
    const onboarding = featureSnapshot(features, 'show-onboarding', false);
    const unknown = featureSnapshot(features, 'not-in-payload', 'fallback');
    features.attach(sdk({ 'show-onboarding': true, 'not-in-payload': 'now known' }));
    expect(featureSnapshot(features, 'show-onboarding', false)).toBe(onboarding);
    expect(featureSnapshot(features, 'not-in-payload', 'fallback')).not.toBe(unknown);
    expect(features.value('not-in-payload', 'fallback')).toBe('now known');
  });
});
