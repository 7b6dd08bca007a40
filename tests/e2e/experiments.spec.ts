/**
 * Feature flags and A/B tests (ADR 012) as visitors and operators meet them: the server
 * renders the assigned variation (no flicker, also without JavaScript), ?disablegb=true
 * shows control, a forced-variation link from the admin split generator shows its
 * variation, a change made with the CLI reaches an open page through the stream, and the
 * assignment is pushed as assign_experiment.
 */
import { randomUUID } from 'node:crypto';
import { GrowthBook } from '@growthbook/growthbook';
import { filePayload } from '@velvet/features/definitions';
import { loadFeatureFile } from '@velvet/features/file';
import { E2E } from '../../playwright.config.ts';
import { cli } from './support/cli.ts';
import { request, type Page } from '@playwright/test';
import { QUIET_DAY, TEST_NOW_HEADER, expect, test, text, waitForHydration } from './support.ts';

const KEY = 'sdk-velvet-rope';
const CONTROL = text('en', 'banner.top');
const MEMBERS_FIRST = text('en', 'banner.topMembersFirst');
const { file, modifiedAt } = loadFeatureFile();
const payload = filePayload(file, modifiedAt);

/** An anonymous id the experiment assigns to `variation` (GrowthBook's own bucketing on the id's first byte, as on the server; ADR 053). */
function anonymousIdFor(variation: 'control' | 'members-first'): string {
  for (;;) {
    const id = randomUUID();
    const gb = new GrowthBook({ attributes: { acqAnonymousId: id.slice(0, 2) } }).initSync({ payload: payload as never });
    if (gb.getFeatureValue('top-banner-copy', 'control') === variation) return id;
  }
}

function anonymousCookie(id: string) {
  return { name: 'acq_anonymous_id', value: id, url: E2E.base, sameSite: 'Lax' as const };
}

/** The banner's text in the server's HTML, before any script ran. */
function bannerIn(html: string): string | undefined {
  return /data-testid="top-banner"[^>]*>([^<]*)</.exec(html)?.[1];
}

/** The events the page pushed to the data layer, in order (the tag manager's gtm.* and cmp_data left out). */
function pushedEvents(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    ((window as unknown as { dataLayer?: { event?: unknown }[] }).dataLayer ?? [])
      .map((e) => (typeof e?.event === 'string' ? e.event : ''))
      .filter((name) => name !== '' && name !== 'cmp_data' && !name.startsWith('gtm.')),
  );
}

/**
 * The visitor's first keystroke in the code field tracks `landing` and `code_entered`. Events
 * reach the data layer in the order they are tracked, and GrowthBook tracks an assignment while
 * the page renders, before it can take a keystroke (the first test below shows the order). So
 * once `code_entered` is there, an assignment the page made is there before it: the events up
 * to then tell whether one was made, without waiting for time to pass.
 */
async function eventsUntilFirstKeystroke(page: Page): Promise<string[]> {
  await waitForHydration(page);
  await page.getByLabel(text('en', 'landing.code.label')).fill('A');
  await expect.poll(() => pushedEvents(page)).toContain('code_entered');
  return pushedEvents(page);
}

test.describe.configure({ mode: 'default' });

// The banner's copies are compared on a day of no promotion: every page here is rendered for
// the fixtures' quiet calendar day (ADR 021), so no season takes the banner's place.
test.afterAll(async () => {
  await cli(['feature', 'reset', 'show-onboarding']);
});

test('the features endpoint and stream answer under our own host, in GrowthBook format', async ({ request }) => {
  const response = await request.get(`/api/features/${KEY}`);
  expect(response.status()).toBe(200);
  expect(response.headers()['x-sse-support']).toBe('enabled');
  const body = (await response.json()) as { features: Record<string, unknown>; dateUpdated: string };
  expect(Object.keys(body.features).sort()).toEqual(['onboarding-variant', 'promo-banner', 'show-onboarding', 'top-banner-copy']);
  expect(body.dateUpdated).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect((await request.get('/api/features/sdk-wrong')).status()).toBe(404);
});

test('the server renders the assigned variation, and ?disablegb=true shows control with nothing tracked', async ({ page, context, request }) => {
  const id = anonymousIdFor('members-first');
  // The stored id counts only with analytics consent (the fixture's accepted choice).
  const html = await (await request.get('/', { headers: { cookie: `acq_anonymous_id=${id}; ${(await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ')}` } })).text();
  expect(bannerIn(html)).toBe(MEMBERS_FIRST);

  await context.addCookies([anonymousCookie(id)]);
  await page.goto('/');
  await expect(page.getByTestId('top-banner')).toHaveText(MEMBERS_FIRST);

  await page.goto('/?disablegb=true');
  await expect(page.getByTestId('top-banner')).toHaveText(CONTROL);
  const disabledHtml = await (await request.get('/?disablegb=true', { headers: { cookie: `acq_anonymous_id=${id}` } })).text();
  expect(bannerIn(disabledHtml)).toBe(CONTROL);
  expect(await eventsUntilFirstKeystroke(page)).not.toContain('assign_experiment');
});

test('an assignment is pushed as assign_experiment with the experiment, the variation and the anonymous id', async ({ page, context }) => {
  const id = anonymousIdFor('members-first');
  await context.addCookies([anonymousCookie(id)]);
  await page.goto('/');
  await expect(page.getByTestId('top-banner')).toHaveText(MEMBERS_FIRST);
  await expect
    .poll(() => page.evaluate(() => ((window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? []).filter((e) => e.event === 'assign_experiment')))
    .toEqual([{ event: 'assign_experiment', experiment_id: 'top-banner-copy', variation_id: '1', acq_anonymous_id: id }]);
  // The assignment comes before anything the visitor does: what the tests of no assignment rely on.
  const events = await eventsUntilFirstKeystroke(page);
  expect(events.indexOf('assign_experiment')).toBeGreaterThanOrEqual(0);
  expect(events.indexOf('assign_experiment')).toBeLessThan(events.indexOf('landing'));
});

test('before consent nothing is stored; with analytics consent the page keeps its anonymous id, so the assignment sticks', async ({ browser, page, context }) => {
  const fresh = await browser.newContext({ extraHTTPHeaders: { [TEST_NOW_HEADER]: QUIET_DAY } });
  const first = await fresh.newPage();
  await first.goto('/');
  await expect(first.getByTestId('top-banner')).toBeVisible();
  expect((await fresh.cookies()).find((c) => c.name === 'acq_anonymous_id')).toBeUndefined();
  expect(await first.evaluate(() => Object.keys(localStorage))).toEqual([]);
  await fresh.close();

  // The fixture's visitor accepted cookies: the id the page was rendered with is kept.
  await page.goto('/');
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'acq_anonymous_id')?.value).toMatch(/^[0-9a-f-]{36}$/);
  const kept = (await context.cookies()).find((c) => c.name === 'acq_anonymous_id')!;
  expect(kept).toMatchObject({ path: '/', sameSite: 'Lax' });
  const banner = await page.getByTestId('top-banner').textContent();
  for (let i = 0; i < 3; i++) {
    await page.reload();
    await expect(page.getByTestId('top-banner')).toHaveText(banner ?? '');
  }
  expect((await context.cookies()).find((c) => c.name === 'acq_anonymous_id')?.value).toBe(kept.value);
});

test('a forced-variation link shows its variation server-rendered, whatever the visitor’s own assignment', async ({ page, context, request }) => {
  const id = anonymousIdFor('control');
  const html = await (await request.get('/?top-banner-copy=1', { headers: { cookie: `acq_anonymous_id=${id}` } })).text();
  expect(bannerIn(html)).toBe(MEMBERS_FIRST);
  expect(bannerIn(await (await request.get('/de?top-banner-copy=0')).text())).toBe(text('de', 'banner.top'));

  await context.addCookies([anonymousCookie(id)]);
  await page.goto('/?top-banner-copy=1');
  await expect(page.getByTestId('top-banner')).toHaveText(MEMBERS_FIRST);
  // Forced visitors are not counted in the test.
  expect(await eventsUntilFirstKeystroke(page)).not.toContain('assign_experiment');
});

test.describe('a page a shared cache keeps once per variation (ADR 053)', () => {
  // As nginx asks: the bucket it drew, and the variation the origin named for it at the address.
  const bucket = anonymousIdFor('members-first').slice(0, 2);
  test.use({ extraHTTPHeaders: { 'x-experiment-bucket': bucket } });

  /** What the page's GrowthBook puts an anonymous id in (as the server evaluates it). */
  const variationOfId = (id: string) => new GrowthBook({ attributes: { acqAnonymousId: id.slice(0, 2) } }).initSync({ payload: payload as never }).getFeatureValue('top-banner-copy', 'control');

  test('names no bucket: the browser takes one of the variation’s, tracks its assignment under it and keeps it with consent', async ({ page, context, request }) => {
    const asked = await request.get('/__experiments/variation', { headers: { 'x-original-uri': '/' } });
    expect(asked.headers()['cache-control']).toMatch(/^public, /);
    const variation = asked.headers()['x-experiment-variation'];
    expect(variation).toMatch(/^[\w-]{16}$/);
    // (The page's own headers take the place of the context's: the quiet calendar day again.)
    await page.setExtraHTTPHeaders({ 'x-experiment-bucket': bucket, 'x-experiment-variation': variation!, [TEST_NOW_HEADER]: QUIET_DAY });
    await page.goto('/');
    // What the page says: the variation's buckets (this one among them), not the bucket it was rendered for.
    const rendered = await page.evaluate(
      () =>
        (window as unknown as { __reactRouterDataRouter: { state: { loaderData: { root: { experiments: Record<string, unknown> } } } } }).__reactRouterDataRouter.state
          .loaderData.root.experiments,
    );
    expect(rendered).toMatchObject({ bucketSource: 'variation', attributes: { applicationCountry: expect.any(String) } });
    expect(rendered.attributes).not.toHaveProperty('acqAnonymousId');
    const buckets = BigInt(`0x${Buffer.from(String(rendered.buckets), 'hex').reverse().toString('hex')}`);
    expect((buckets >> BigInt(Number.parseInt(bucket, 16))) & 1n).toBe(1n);
    await expect(page.getByTestId('top-banner')).toHaveText(MEMBERS_FIRST);
    const assignments = () =>
      page.evaluate(() => ((window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? []).filter((e) => e.event === 'assign_experiment'));
    await expect.poll(assignments).toHaveLength(1);
    const [tracked] = (await assignments()) as { variation_id: string; acq_anonymous_id: string }[];
    expect(tracked!.variation_id).toBe('1');
    // Whichever bucket the browser took, GrowthBook puts it where the page was rendered: the SDK
    // starts from it without changing the banner, and the visitor comes back to this variation.
    expect(variationOfId(tracked!.acq_anonymous_id)).toBe('members-first');
    await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'acq_anonymous_id')?.value).toBe(tracked!.acq_anonymous_id);
    await expect(page.getByTestId('top-banner')).toHaveText(MEMBERS_FIRST);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the forced variation and disablegb still decide what the server sends', async ({ page }) => {
    await page.goto('/?top-banner-copy=1');
    await expect(page.getByTestId('top-banner')).toHaveText(MEMBERS_FIRST);
    await page.goto('/?top-banner-copy=1&disablegb=true');
    await expect(page.getByTestId('top-banner')).toHaveText(CONTROL);
  });
});

// The flag these tests change is everyone's: they run one after the other, never side by side.
test.describe('a feature changed with the CLI', () => {
  test.describe.configure({ mode: 'serial' });

  test('reaches an open page through the stream, without a reload', async ({ page }) => {
    await page.goto('/');
    const howItWorks = page.getByRole('heading', { level: 2, name: text('en', 'onboarding.title') });
    await expect(howItWorks).toBeVisible();
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    expect((await cli(['feature', 'set', 'show-onboarding', '--value', 'false'])).code).toBe(0);
    await expect(howItWorks).toBeHidden({ timeout: 15_000 });
    expect((await cli(['feature', 'reset', 'show-onboarding'])).code).toBe(0);
    await expect(howItWorks).toBeVisible({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  test('reaches the next anonymous visitor: a new page load gets the changed page', async () => {
    const visitor = await request.newContext({ baseURL: E2E.base, extraHTTPHeaders: {} });
    const heading = text('en', 'onboarding.title');
    const page = async () => (await visitor.get('/')).text();
    expect(await page()).toContain(heading);

    expect((await cli(['feature', 'set', 'show-onboarding', '--value', 'false'])).code).toBe(0);
    await expect.poll(async () => (await page()).includes(heading), { timeout: 15_000 }).toBe(false);

    expect((await cli(['feature', 'reset', 'show-onboarding'])).code).toBe(0);
    await expect.poll(async () => (await page()).includes(heading), { timeout: 15_000 }).toBe(true);
    await visitor.dispose();
  });
});

test('the admin split generator makes a link that forces the chosen variation', async ({ page, context }) => {
  await page.goto('/admin/splitgenerator');
  await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fsplitgenerator$/);
  await page.getByLabel(text('en', 'admin.login.email')).fill(E2E.admin.email);
  await page.getByLabel(text('en', 'admin.login.password')).fill(E2E.admin.password);
  await page.getByRole('button', { name: text('en', 'admin.login.submit') }).click();
  await expect(page).toHaveURL(/\/admin\/splitgenerator$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'admin.splitGenerator.title'));

  await page.getByLabel(text('en', 'admin.splitGenerator.experiment')).selectOption('top-banner-copy');
  await page.getByRole('radio', { name: /^1 · members-first/ }).check();
  await page.getByLabel(text('en', 'admin.splitGenerator.path')).fill('/de');
  await page.getByRole('button', { name: text('en', 'admin.splitGenerator.submit') }).click();
  const link = page.getByTestId('split-link');
  await expect(link).toHaveText(`${E2E.base}/de?top-banner-copy=1`);

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: text('en', 'admin.linkGenerator.copy') }).click();
  await expect(page.getByRole('status').filter({ hasText: text('en', 'admin.linkGenerator.copied') })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`${E2E.base}/de?top-banner-copy=1`);

  await page.getByLabel(text('en', 'admin.splitGenerator.path')).fill('https://evil.example/');
  await page.getByRole('button', { name: text('en', 'admin.splitGenerator.submit') }).click();
  await expect(page.getByRole('alert')).toHaveText(text('en', 'admin.splitGenerator.pathInvalid'));

  await context.addCookies([anonymousCookie(anonymousIdFor('control'))]);
  await page.goto(copied);
  await expect(page.getByTestId('top-banner')).toHaveText(text('de', 'banner.topMembersFirst'));
});
