/**
 * The registration form after a submit with mistakes (issue 22, "the form with errors"), as a
 * German and a Polish visitor on a 390-px phone and a French one at 1440: the browser takes the
 * visitor to the first field with an error (focused and on screen, not left at the submit
 * button far below), every message is written under its field in the visitor's language, the
 * fields already filled keep their values, and axe finds nothing.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locale } from '@velvet/i18n/locales';
import { uniqueEmail } from './support/mail.ts';
import { animationsSettled, expect, test, text, waitForHydration } from './support.ts';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };
/** The alert colour (app.css --color-alert). */
const ALERT = 'rgb(155, 28, 28)';
const VISITORS = [
  { locale: 'de', device: PHONE, timezoneId: 'Europe/Berlin' },
  { locale: 'pl', device: PHONE, timezoneId: 'Europe/Warsaw' },
  { locale: 'fr', device: DESKTOP, timezoneId: 'Europe/Paris' },
] as const satisfies readonly { locale: Locale; device: object; timezoneId: string }[];

for (const { locale, device, timezoneId } of VISITORS) {
  test.describe(`the registration form with errors (${locale}, ${device.viewport.width} px)`, () => {
    test.use({ ...device, locale, timezoneId });

    test('takes the visitor to the first mistake, says each one under its field and keeps what was typed', async ({ page, invitation }) => {
      await page.goto(`/${locale}?rc=${invitation.code}`);
      await waitForHydration(page);
      await page.getByRole('link', { name: text(locale, 'signup.email') }).click();
      const submit = page.getByRole('button', { name: text(locale, 'registration.submit') });
      // The visitor scrolls down to the button and sends the empty form.
      await submit.scrollIntoViewIfNeeded();
      await submit.click();

      const first = page.getByRole('radio', { name: text(locale, 'registration.gender.female'), exact: true });
      await expect(first).toBeFocused();
      await expect(first).toBeInViewport({ ratio: 1 });
      for (const id of ['validation.gender', 'validation.firstName', 'validation.lastName', 'validation.email', 'validation.terms']) {
        await expect(page.getByText(text(locale, id), { exact: true }), id).toBeVisible();
      }
      // Every field in error is marked where the eye is, the boxes and rounds too, not only the text fields.
      await expect(page.getByRole('textbox', { name: text(locale, 'registration.firstName'), exact: true })).toHaveCSS('border-color', ALERT);
      await expect(page.locator('input[name="termsAccepted"]')).toHaveCSS('outline-color', ALERT);
      await expect(page.getByRole('radio', { name: text(locale, 'registration.gender.male'), exact: true })).toHaveCSS('outline-color', ALERT);
      await expect(page.locator('input[name="newsletter"]')).not.toHaveCSS('outline-color', ALERT);
      await animationsSettled(page);
      await page.screenshot({ path: test.info().outputPath(`form-errors-${locale}-empty.png`) });
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      expect(axe.violations.map((v) => v.id)).toEqual([]);

      // Everything but the terms: the next submit goes to the terms box, the rest stays as typed.
      await first.check();
      await page.getByRole('textbox', { name: text(locale, 'registration.firstName'), exact: true }).fill('Zofia');
      await page.getByRole('textbox', { name: text(locale, 'registration.lastName'), exact: true }).fill('Nowak');
      const email = uniqueEmail('form-errors');
      await page.getByRole('textbox', { name: text(locale, 'registration.email'), exact: true }).fill(email);
      await submit.click();
      // The terms box, whose name is the sentence with its two links.
      const terms = page.locator('input[name="termsAccepted"]');
      await expect(terms).toBeFocused();
      await expect(terms).toBeInViewport({ ratio: 1 });
      await expect(page.getByText(text(locale, 'validation.terms'), { exact: true })).toBeVisible();
      await expect(page.getByText(text(locale, 'validation.firstName'), { exact: true })).toHaveCount(0);
      await expect(page.getByRole('textbox', { name: text(locale, 'registration.email'), exact: true })).toHaveValue(email);
      await expect(page.getByRole('textbox', { name: text(locale, 'registration.firstName'), exact: true })).not.toHaveCSS('border-color', ALERT);
      await page.screenshot({ path: test.info().outputPath(`form-errors-${locale}.png`) });
    });
  });
}
