/**
 * Friction a person never notices, a script always does (issue 12 §2, ADR 041), as Chromium
 * meets it: the registration form sends the start its page fetched and a proof of work its page
 * solved, with nothing to see or do; a form whose honeypot was filled reads "check your inbox"
 * like any, and nothing is sent.
 */
import { GUARD_FIELDS } from '@velvet/validation/sign-up-guard-fields';
import { expect, plain, test, text } from './support.ts';
import { quarantine, registerThroughForm } from './support/data.ts';
import { uniqueEmail, waitForMail } from './support/mail.ts';

test('the registration form sends the start its page fetched and a proof of work its page solved, without a puzzle, and registers', async ({ page, invitation }) => {
  const email = uniqueEmail('proof');
  const posted: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/registration/formstarted')) posted.push(request.postData() ?? '');
  });
  await page.goto(`/registration/formstarted?rc=${invitation.code}`);
  await page.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text('en', 'registration.firstName'), { exact: true }).fill('Alva');
  await page.getByLabel(text('en', 'registration.lastName'), { exact: true }).fill('Lind');
  await page.getByLabel(text('en', 'registration.email')).fill(email);
  await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
  await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
  await expect(page).toHaveURL(/\/registration\/formfinished$/);
  expect(posted).toHaveLength(1);
  // The form's start, fetched by the page after hydration (never in its HTML, which a shared cache keeps).
  expect(new URLSearchParams(posted[0]).get(GUARD_FIELDS.startedAt)).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{43}$/);
  const proof = new URLSearchParams(posted[0]).get(GUARD_FIELDS.proofOfWork) ?? '';
  // ALTCHA's challenge and solution, encoded: base64url of a few hundred characters.
  expect(proof).toMatch(/^[A-Za-z0-9_-]{200,}$/);
  const [mail] = await waitForMail(email);
  expect(mail?.subject).toBe(text('en', 'email.activation.subject'));
});

test('a filled honeypot reads "check your inbox" like any registration, and nothing is registered or sent', async ({ page, invitation }) => {
  const email = uniqueEmail('honeypot');
  await page.goto(`/registration/formstarted?rc=${invitation.code}`);
  // What a form-filling script does: every field it finds, the hidden one too.
  await page.locator(`input[name="${GUARD_FIELDS.honeypot}"]`).fill('https://cheap-watches.example', { force: true });
  await page.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text('en', 'registration.firstName'), { exact: true }).fill('Bot');
  await page.getByLabel(text('en', 'registration.lastName'), { exact: true }).fill('Filler');
  await page.getByLabel(text('en', 'registration.email')).fill(email);
  await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
  await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
  await expect(page).toHaveURL(/\/registration\/formfinished$/);
  await expect(page.getByText(text('en', 'formFinished.email', { email }))).toBeVisible();
  // Nothing was registered: the address's owner registers afresh ("check your inbox", not
  // "awaits activation"), and the one email that arrives is theirs.
  await page.context().clearCookies();
  const person = await registerThroughForm(page, invitation.code, { email });
  expect(new URL(person.location, 'http://localhost').pathname).toBe('/registration/formfinished');
  expect(await waitForMail(email)).toHaveLength(1);
});

test('the honeypot is out of sight, out of the tab order and hidden from assistive technology', async ({ page, invitation }) => {
  await page.goto(`/registration/formstarted?rc=${invitation.code}`);
  const honeypot = page.locator(`input[name="${GUARD_FIELDS.honeypot}"]`);
  await expect(honeypot).toHaveAttribute('tabindex', '-1');
  await expect(honeypot).not.toBeInViewport();
  await expect(page.getByRole('textbox', { name: text('en', 'form.honeypot') })).toHaveCount(0);
});

test('a disposable address is refused in the visitor\'s language, on every form that takes an address', async ({ page, invitation }) => {
  await page.goto('/de/membership-interest/apply');
  await page.getByLabel(text('de', 'membershipInterestApply.email')).fill(`lena.${Date.now()}@mailinator.com`);
  await page.getByRole('button', { name: text('de', 'membershipInterestApply.submit') }).click();
  await expect(page.getByText(text('de', 'validation.disposableEmail'), { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/de\/membership-interest\/apply$/);

  await page.goto(`/sv/registration/formstarted?rc=${invitation.code}`);
  await page.getByLabel(text('sv', 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text('sv', 'registration.firstName'), { exact: true }).fill('Elsa');
  await page.getByLabel(text('sv', 'registration.lastName'), { exact: true }).fill('Holm');
  await page.getByLabel(text('sv', 'registration.email')).fill(`elsa.${Date.now()}@yopmail.com`);
  await page.getByRole('checkbox', { name: plain('sv', 'registration.terms') }).check();
  await page.getByRole('button', { name: text('sv', 'registration.submit') }).click();
  await expect(page.getByText(text('sv', 'validation.disposableEmail'), { exact: true })).toBeVisible();
  await expect(page.getByLabel(text('sv', 'registration.email'))).toHaveAttribute('aria-invalid', 'true');
});

test('a code leaked to a coupon site: held registrations see a kind page that leads on, the inviter gets a fresh private link that works', async ({ page, browser, invitation }) => {
  // A visitor from a coupon forum is turned away; the same from ten client networks (a code passed
  // around in public) counts against the code: one network counts once, however often (ADR 054).
  await page.goto(`/?rc=${invitation.code}`, { referer: 'https://www.mydealz.de/gutscheine/velvet-rope' });
  await expect(page).toHaveURL(/\/registration\/deny\?reason=referrer/);
  await page.context().clearCookies();
  await quarantine(invitation.code);

  // A person with the code, in Italian: held for review, and led on to membership interest with the address.
  const email = uniqueEmail('held');
  await page.goto(`/it/registration/formstarted?rc=${invitation.code}`);
  await page.getByLabel(text('it', 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text('it', 'registration.firstName'), { exact: true }).fill('Giulia');
  await page.getByLabel(text('it', 'registration.lastName'), { exact: true }).fill('Conti');
  await page.getByLabel(text('it', 'registration.email')).fill(email);
  await page.getByRole('checkbox', { name: plain('it', 'registration.terms') }).check();
  await page.getByRole('button', { name: text('it', 'registration.submit') }).click();
  await expect(page).toHaveURL(/\/it\/registration\/formfinished$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('it', 'formFinished.review.title'));
  await page.getByRole('link', { name: text('it', 'formFinished.review.apply') }).click();
  await expect(page).toHaveURL(/\/it\/membership-interest\/apply$/);
  await expect(page.getByLabel(text('it', 'membershipInterestApply.email'))).toHaveValue(email);

  // The inviter's email: the fresh private link registers as before.
  const [mail] = await waitForMail(invitation.inviterEmail);
  expect(mail?.subject).toBe(text('en', 'email.privateLink.subject'));
  const link = /href="([^"]*\?rc=[^"]+validityTimestamp=[^"]+)"/.exec(mail!.html)?.[1]?.replace(/&amp;/g, '&');
  expect(link).toContain(`rc=${invitation.code}`);
  const friend = await browser.newContext();
  const friendPage = await friend.newPage();
  const friendEmail = uniqueEmail('private-link');
  await friendPage.goto(link!);
  await friendPage.getByRole('link', { name: text('en', 'signup.email') }).click();
  await friendPage.getByLabel(text('en', 'registration.gender.male'), { exact: true }).check();
  await friendPage.getByLabel(text('en', 'registration.firstName'), { exact: true }).fill('Marco');
  await friendPage.getByLabel(text('en', 'registration.lastName'), { exact: true }).fill('Rossi');
  await friendPage.getByLabel(text('en', 'registration.email')).fill(friendEmail);
  await friendPage.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
  await friendPage.getByRole('button', { name: text('en', 'registration.submit') }).click();
  await expect(friendPage.getByRole('heading', { level: 1 })).toHaveText(text('en', 'formFinished.title'));
  expect(await waitForMail(friendEmail)).toHaveLength(1);
  await friend.close();
});
