import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { LOCALES } from '@velvet/i18n/locales';
import { createInvitation, registerThroughForm } from './support/data.ts';
import { expect, test, text } from './support.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

// A first visit: the consent banner is open on every page (ADR 011), except activateaccount paths.
test.use({ consent: 'none' });

// {code} stands for the test's own invitation.
for (const path of [
  '/',
  '/?rc={code}',
  '/about-us',
  '/stores',
  '/error/404',
  '/de/registration/deny',
  '/fr/membership-interest',
  '/registration/formstarted?rc={code}',
  '/pl/registration/formstarted?rc={code}&slug=lean',
  '/registration/formfinished',
  '/registration/activateaccountError?error=invalid',
  '/it/registration/registrationformemailpendingcomplete',
  '/admin/login',
]) {
  test(`no axe violations on ${path}`, async ({ page }) => {
    const code = path.includes('{code}') || path.includes('complete') || path.includes('formfinished') ? (await createInvitation()).code : '';
    // The outcome pages show after this visit's own registration (pending: the second one).
    if (path.endsWith('formfinished')) await registerThroughForm(page, code);
    if (path.endsWith('pendingcomplete')) await registerThroughForm(page, code, { email: (await registerThroughForm(page, code)).email });
    await page.goto(path.replace('{code}', code));
    const locale = LOCALES.find((l) => path.startsWith(`/${l}/`)) ?? 'en';
    const banner = page.getByRole('dialog', { name: text(locale, 'cmp.consent.label') });
    if (path.includes('activateaccount')) await expect(page.locator('#cc-main')).toHaveCount(0);
    else await expect(banner).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

test('the code form can be used with the keyboard alone', async ({ page, invitation }) => {
  await page.goto('/');
  // The banner takes the focus when it opens: answer it first.
  await page.getByRole('dialog', { name: text('en', 'cmp.consent.label') }).getByRole('button', { name: text('en', 'cmp.acceptAll') }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // A fresh page, as on the next visit: the first Tab reaches the skip link.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.getByLabel('Access code').focus();
  await page.keyboard.type(invitation.code);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`rc=${invitation.code}`));
});

for (const locale of ['en', 'de'] as const) {
  test(`the consent banner and the preference centre have no axe violations (${locale})`, async ({ page }) => {
    await page.goto(locale === 'en' ? '/' : '/de');
    const banner = page.getByRole('dialog', { name: text(locale, 'cmp.consent.label') });
    await expect(banner).toBeVisible();
    expect(await new AxeBuilder({ page }).include('#cc-main').withTags(TAGS).analyze().then((r) => r.violations.map((v) => v.id))).toEqual([]);
    await banner.getByRole('button', { name: text(locale, 'cmp.consent.preferences') }).click();
    const centre = page.getByRole('dialog', { name: text(locale, 'cmp.preferences.title') });
    await expect(centre).toBeVisible();
    await expect.poll(() => centre.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    expect(await violations(page)).toEqual([]);
    // Escape closes it again, back to the banner.
    await page.keyboard.press('Escape');
    await expect(centre).toBeHidden();
    await expect(banner).toBeVisible();
  });
}

test('the consent banner can be answered with the keyboard alone', async ({ page }) => {
  await page.goto('/about-us');
  const banner = page.getByRole('dialog', { name: text('en', 'cmp.consent.label') });
  await expect(banner).toBeVisible();
  const accept = banner.getByRole('button', { name: text('en', 'cmp.acceptAll') });
  for (let i = 0; i < 60 && !(await accept.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(accept).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(banner).toBeHidden();
});

test('a focused primary button shows a ring the page can see', async ({ page, invitation }) => {
  await page.goto(`/registration/formstarted?rc=${invitation.code}`);
  const register = page.getByRole('button', { name: text('en', 'registration.submit') });
  // Focus and read in one task, so hydration cannot move the focus in between; with no pointer
  // used yet, a focused button matches :focus-visible as after a Tab.
  const ring = await register.evaluate((button) => {
    button.focus();
    // The button's colour transition also eases the ring in: read where it comes to rest.
    for (const animation of button.getAnimations()) animation.finish();
    const style = getComputedStyle(button);
    return {
      focusVisible: button.matches(':focus-visible'),
      style: style.outlineStyle,
      width: style.outlineWidth,
      color: style.outlineColor,
      text: style.color,
      page: getComputedStyle(document.body).backgroundColor,
    };
  });
  expect(ring.focusVisible).toBe(true);
  expect(ring.style).toBe('solid');
  expect(ring.width).toBe('2px');
  // Not the button's white text colour on the white page: the ink colour.
  expect(ring.color).not.toBe(ring.text);
  expect(ring.color).not.toBe(ring.page);
});
