/**
 * The registration journeys as the club's visitors make them: each project of
 * playwright.config.ts (VISITORS) is a browser of one language in its home time zone, with a
 * bare or a regional Accept-Language, on a phone or a desktop. The site answers in the
 * visitor's language without a prefix, preselects the country of the visitor's clock, and
 * the form never posts by itself, never loses what was typed, and throws no page error
 * (support.ts fails a test on any console error).
 */
import type { Page, Request } from '@playwright/test';
import type { Visitor } from '../../playwright.config.ts';
import { createInvitation } from './support/data.ts';
import { activationLink, uniqueEmail, waitForMail } from './support/mail.ts';
import { expect, plain, test, text, waitForHydration } from './support.ts';

const NAMES = { firstName: 'Zoë', lastName: 'Łukasiewicz-Öström' };

function visitor(): Visitor {
  return test.info().project.metadata as Visitor;
}

/**
 * Every POST the page sends to a page route (form submissions and Conform's field checks),
 * not the beacons and consent records under /entrance and /error-reports.
 */
function recordFormPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST') return;
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/entrance/') || pathname.startsWith('/error-reports')) return;
    posts.push(pathname);
  });
  return posts;
}

async function fillNames(page: Page) {
  const { language } = visitor();
  await page.getByLabel(text(language, 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text(language, 'registration.firstName'), { exact: true }).fill(NAMES.firstName);
  await page.getByLabel(text(language, 'registration.lastName'), { exact: true }).fill(NAMES.lastName);
}

/** The form keeps what was typed once the page settled (no reload, no reset after hydration). */
async function expectNamesKept(page: Page) {
  const { language } = visitor();
  await expect(page.getByLabel(text(language, 'registration.gender.female'), { exact: true })).toBeChecked();
  await expect(page.getByLabel(text(language, 'registration.firstName'), { exact: true })).toHaveValue(NAMES.firstName);
  await expect(page.getByLabel(text(language, 'registration.lastName'), { exact: true })).toHaveValue(NAMES.lastName);
}

/** The activation email reached the visitor in their language, names intact; its link activates. */
async function activateFromEmail(page: Page, email: string) {
  const { language } = visitor();
  const [mail] = await waitForMail(email);
  expect(mail?.subject).toBe(text(language, 'email.activation.subject'));
  expect(mail?.text).toContain(NAMES.firstName);
  const link = activationLink(mail!);
  expect(new URL(link).pathname).toBe(`${language === 'en' ? '' : `/${language}`}/registration/activateaccount`);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(language, 'activation.welcomeTitle', { firstName: NAMES.firstName }));
  await expect(page.getByTestId('voucher-code')).toHaveText(/^[A-Z0-9-]{6,}$/);
}

test.describe('a visitor from the club’s markets', () => {
  test('types the code by hand, registers in one step and activates', async ({ page }) => {
    const { language, country } = visitor();
    const invitation = await createInvitation({ inviter: 'Zoë' });
    const email = uniqueEmail(`one-step-${language}`);
    const posts = recordFormPosts(page);

    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await waitForHydration(page);
    await page.getByLabel(text(language, 'landing.code.label')).fill(invitation.code.toLowerCase());
    await page.getByRole('button', { name: text(language, 'landing.code.submit'), exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(language, 'variant.default.headline', { inviterName: 'Zoë' }));

    await page.getByRole('link', { name: text(language, 'signup.email') }).click();
    await expect(page).toHaveURL(/\/registration\/formstarted\?/);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await waitForHydration(page);
    posts.length = 0;
    await expect(page.getByLabel(text(language, 'registration.country'))).toHaveValue(country);
    await fillNames(page);
    await page.getByLabel(text(language, 'registration.email')).fill(email);
    await page.getByRole('checkbox', { name: plain(language, 'registration.terms') }).check();
    await page.waitForLoadState('networkidle');
    await expectNamesKept(page);
    expect(posts, 'the form posted by itself').toEqual([]);

    await page.getByRole('button', { name: text(language, 'registration.submit') }).click();
    await expect(page).toHaveURL(/\/registration\/formfinished$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(language, 'formFinished.title'));
    expect(posts).toHaveLength(1);
    await activateFromEmail(page, email);
  });

  test('registers in the lean two steps', async ({ page }) => {
    const { language, country } = visitor();
    const invitation = await createInvitation();
    const email = uniqueEmail(`lean-${language}`);
    const posts = recordFormPosts(page);

    await page.goto(`/lean?rc=${invitation.code}`);
    await page.getByRole('link', { name: text(language, 'signup.email') }).click();
    await expect(page.getByText(text(language, 'registration.step', { current: '1', total: '2' }))).toBeVisible();
    await waitForHydration(page);
    posts.length = 0;
    await expect(page.getByLabel(text(language, 'registration.country'))).toHaveValue(country);
    await page.getByLabel(text(language, 'registration.email')).fill(email);
    await page.getByRole('checkbox', { name: plain(language, 'registration.terms') }).check();
    await page.waitForLoadState('networkidle');
    await expect(page.getByLabel(text(language, 'registration.email'))).toHaveValue(email);
    expect(posts, 'step 1 posted by itself').toEqual([]);
    await page.getByRole('button', { name: text(language, 'registration.continue') }).click();

    await expect(page.getByText(text(language, 'registration.step', { current: '2', total: '2' }))).toBeVisible();
    // Step 2 is the spec's own text variant of the registration page (spec §3 "leanRegistration step 2").
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(language, 'variant.leanRegistration.step2.headline'));
    await waitForHydration(page);
    posts.length = 0;
    await fillNames(page);
    await page.waitForLoadState('networkidle');
    await expectNamesKept(page);
    expect(posts, 'step 2 posted by itself').toEqual([]);
    await page.getByRole('button', { name: text(language, 'registration.submit') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(language, 'formFinished.title'));
    await activateFromEmail(page, email);
  });

  test('registers in the pop-up of the viral campaign', async ({ page }) => {
    const { language, country } = visitor();
    const invitation = await createInvitation({ customization: 'viral' });
    const email = uniqueEmail(`popup-${language}`);
    const posts = recordFormPosts(page);

    await page.goto(`/viral?rc=${invitation.code}`);
    await waitForHydration(page);
    await page.getByRole('link', { name: text(language, 'signup.email') }).click();
    const dialog = page.getByRole('dialog', { name: text(language, 'registration.title') });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel(text(language, 'registration.country'))).toHaveValue(country);
    await dialog.getByLabel(text(language, 'registration.gender.female'), { exact: true }).check();
    await dialog.getByLabel(text(language, 'registration.firstName'), { exact: true }).fill(NAMES.firstName);
    await dialog.getByLabel(text(language, 'registration.lastName'), { exact: true }).fill(NAMES.lastName);
    await dialog.getByLabel(text(language, 'registration.email')).fill(email);
    await dialog.getByRole('checkbox', { name: plain(language, 'registration.terms') }).check();
    await page.waitForLoadState('networkidle');
    await expect(dialog.getByLabel(text(language, 'registration.lastName'), { exact: true })).toHaveValue(NAMES.lastName);
    expect(posts, 'the pop-up form posted by itself').toEqual([]);

    await dialog.getByRole('button', { name: text(language, 'registration.submit') }).click();
    await expect(page.getByRole('dialog', { name: text(language, 'formFinished.popupTitle') })).toBeVisible();
    expect(posts).toHaveLength(1);
    await activateFromEmail(page, email);
  });

  test('signs up with the social provider and completes the second step', async ({ page }) => {
    const { language, country } = visitor();
    const invitation = await createInvitation();
    const login = `verified+${language}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
    const posts = recordFormPosts(page);

    await page.goto(`/?rc=${invitation.code}`);
    await page.getByRole('link', { name: text(language, 'signup.google') }).click();
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password will do');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(language, 'socialSecondStep.title'));
    await waitForHydration(page);
    posts.length = 0;
    await expect(page.getByLabel(text(language, 'registration.country'))).toHaveValue(country);
    await fillNames(page);
    await page.getByRole('checkbox', { name: text(language, 'socialSecondStep.preference.WOMEN'), exact: true }).check();
    await page.getByRole('checkbox', { name: plain(language, 'registration.terms') }).check();
    await page.waitForLoadState('networkidle');
    await expectNamesKept(page);
    expect(posts, 'the second step posted by itself').toEqual([]);

    await page.getByRole('button', { name: text(language, 'socialSecondStep.submit') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(language, 'activation.welcomeTitle', { firstName: NAMES.firstName }));
    expect(posts).toHaveLength(1);
  });
});
