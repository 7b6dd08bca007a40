/**
 * Test data, made the way the club's people make it: invitation codes, registration links
 * and lobby links through the admin CLI (support/cli.ts), members through the public API
 * (register, then the emailed activation link). Every test makes its own; none reads the
 * demo seed (the e2e product runs with SEED_DEMO=false).
 */
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import type { Locale } from '@velvet/i18n/locales';
import { E2E } from '../../../playwright.config.ts';
import { GUARD_FIELDS, type ProofOfWorkForm } from '@velvet/validation/sign-up-guard-fields';
import { CHALLENGE, solveProofOfWork } from '../../../apps/api/test/support/proof-of-work.ts';
import { FORM_START_PATH, type FormStartAnswer } from '../../../apps/web/app/lib/forms/form-start.ts';
import { cli } from './cli.ts';
import { activationLink, uniqueEmail, waitForMail } from './mail.ts';

export interface Invitation {
  /** The access code (upper-case). */
  code: string;
  /** The inviter's first name, as headlines show it. */
  inviter: string;
  /** The inviter's generated address (for `member block`). */
  inviterEmail: string;
  balance: number;
}

export interface InvitationOptions {
  inviter?: string;
  balance?: number;
  /** An ISO 8601 date; a past one makes an expired invitation. */
  expires?: string;
  customization?: string;
  slug?: string;
  /** Only usable through a signed link (`registrationLink`). */
  linkOnly?: boolean;
}

async function run(args: string[]): Promise<string> {
  const result = await cli(args);
  if (result.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout.trim();
}

/** A unique code of the club's format, readable in a trace: E2E-<label>-<random>. */
function uniqueCode(label: string): string {
  const tag = label.toUpperCase().replace(/[^A-Z0-9]+/g, '').slice(0, 12) || 'CODE';
  return `E2E-${tag}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

/** The vip campaign's invitation: Anna's code, 15 % with a minimum order value, meant for /vip. */
export const VIP: InvitationOptions = { inviter: 'Anna', customization: 'social-15-percent-mov', slug: 'vip' };

/** A new inviter with a code (`code create`); by default Sophie with 5 invitations. */
export async function createInvitation(options: InvitationOptions = {}): Promise<Invitation> {
  const inviter = options.inviter ?? 'Sophie';
  const args = ['code', 'create', '--json', '--inviter', inviter, '--balance', String(options.balance ?? 5), '--code', uniqueCode(options.slug ?? options.customization ?? inviter)];
  if (options.expires) args.push('--expires', options.expires);
  if (options.customization) args.push('--customization', options.customization);
  if (options.slug) args.push('--slug', options.slug);
  if (options.linkOnly) args.push('--requires-timestamp');
  const created = JSON.parse(await run(args)) as { code: string; inviterEmail: string; balance: number };
  return { code: created.code, inviter, inviterEmail: created.inviterEmail, balance: created.balance };
}

/**
 * Visits of the code from a coupon site, enough for the leak watch to quarantine it (ADR 043):
 * from ten client networks (the API trusts one proxy hop, the web server's), 1 point each —
 * one network's visits count once however many (ADR 054).
 */
export async function quarantine(code: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await graphql(
      'query ($code: String!, $referrer: String) { registrationCodeDetails(registrationCode: $code, referrer: $referrer) { errors } }',
      { code, referrer: 'https://www.mydealz.de/gutscheine/velvet-rope' },
      { 'x-forwarded-for': `198.51.${100 + i}.7` },
    );
  }
}

/** The inviter's account is blocked (`member block`): their code is an invalid invitation. */
export async function blockInviter(invitation: Invitation): Promise<void> {
  await run(['member', 'block', '--email', invitation.inviterEmail]);
}

/** A lobby (waiting-list) link for an address (`token lobby`). */
export async function lobbyLink(email: string): Promise<string> {
  return run(['token', 'lobby', '--email', email]);
}

/**
 * A proof of work for one submission of `form` (ADR 041), fetched and solved as the browser does
 * it (ALTCHA's solver, Node's PBKDF2 here); null when the API asks none.
 */
export async function proofOfWork(form: ProofOfWorkForm, invitation: { registrationCode?: string; validityTimestamp?: string } = {}): Promise<string | null> {
  const { proofOfWorkChallenge } = await graphql<{ proofOfWorkChallenge: { challenge: string | null } }>(CHALLENGE, { form, ...invitation });
  return proofOfWorkChallenge.challenge ? solveProofOfWork(proofOfWorkChallenge.challenge) : null;
}

/** The public API, as the web server calls it. */
export async function graphql<T>(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${E2E.api}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: T; errors?: unknown[] };
  expect(body.errors, 'GraphQL errors').toBeUndefined();
  return body.data;
}

interface CountryOption {
  isoCode: string;
  termsPkString: string;
  dataPolicyPkString: string;
}

export interface Registrant {
  email: string;
  firstName: string;
  lastName: string;
  language: Locale;
}

/**
 * Registers an address on `code` through the API, as the one-step form does: the member is
 * pending and the activation email is on its way (or, on a quarantined code, PENDING_REVIEW:
 * the registration is held).
 */
export async function registerPending(
  code: string,
  person: Partial<Registrant> & { newsletter?: boolean } = {},
  outcome: 'FORM_FINISHED' | 'PENDING_REVIEW' = 'FORM_FINISHED',
): Promise<Registrant> {
  const registrant: Registrant = {
    email: person.email ?? uniqueEmail('registrant'),
    firstName: person.firstName ?? 'Zoë',
    lastName: person.lastName ?? 'Łukasiewicz-Öström',
    language: person.language ?? 'en',
  };
  const { registrationCodeDetails } = await graphql<{ registrationCodeDetails: { countryOptions: CountryOption[] } }>(
    'query ($code: String!) { registrationCodeDetails(registrationCode: $code) { countryOptions { isoCode termsPkString dataPolicyPkString } } }',
    { code },
  );
  const de = registrationCodeDetails.countryOptions.find((c) => c.isoCode === 'DE');
  if (!de) throw new Error(`code ${code} offers no DE: is it valid?`);
  const { register } = await graphql<{ register: { outcome: string | null } }>(
    'mutation ($input: RegisterInput!) { register(input: $input) { outcome } }',
    {
      input: {
        registrationCode: code,
        email: registrant.email,
        gender: 'FEMALE',
        firstName: registrant.firstName,
        lastName: registrant.lastName,
        country: 'DE',
        newsletter: person.newsletter ?? false,
        termsAccepted: true,
        termsPkString: de.termsPkString,
        dataPolicyPkString: de.dataPolicyPkString,
        language: registrant.language,
        flow: 'DEFAULT',
        proofOfWork: await proofOfWork('REGISTRATION'),
      },
    },
  );
  expect(register.outcome).toBe(outcome);
  return registrant;
}

/** An active member: registered on `code` and activated through the emailed link. */
export async function activeMember(code: string, person: Partial<Registrant> = {}): Promise<Registrant> {
  const registrant = await registerPending(code, person);
  const [mail] = await waitForMail(registrant.email);
  const activationId = new URL(activationLink(mail!)).searchParams.get('activationId');
  const { activateAccount } = await graphql<{ activateAccount: { outcome: string } }>(
    'mutation ($id: String!) { activateAccount(activationId: $id) { outcome } }',
    { id: activationId },
  );
  expect(activateAccount.outcome).toBe('ACTIVATED');
  return registrant;
}

/**
 * Registers through the web app's own one-step form, posted as the page's browser posts it (its
 * fields, the form's start and the proof of work its script fetched and solved), in the page's
 * browser context: the page then holds this visit's registration flow (the outcome pages show
 * only after one). Returns the page the product sent the visitor to.
 */
export async function registerThroughForm(
  page: Page,
  code: string,
  person: Partial<Registrant> & { prefix?: string } = {},
): Promise<{ email: string; location: string }> {
  const email = person.email ?? uniqueEmail('form');
  const form = `${person.prefix ?? ''}/registration/formstarted?rc=${encodeURIComponent(code)}`;
  // The legal versions the form rendered for Germany go back with it, as a browser posts its hidden fields.
  const rendered = await (await page.request.get(form)).text();
  const legalVersions = /name="legalVersions" value="(DE [^"]+)"/.exec(rendered)?.[1];
  if (!legalVersions) throw new Error(`the form for ${code} offers no DE: is the code valid?`);
  // The form's start, fetched as the page's script fetches it (never in the HTML), and the proof
  // of work it would have solved (ADR 041). The e2e servers have no minimum fill time.
  const { start } = (await (await page.request.get(FORM_START_PATH)).json()) as FormStartAnswer;
  const response = await page.request.post(form, {
    headers: { origin: E2E.base },
    form: {
      intent: 'one-step',
      gender: 'FEMALE',
      firstName: person.firstName ?? 'Zoë',
      lastName: person.lastName ?? 'Łukasiewicz-Öström',
      email,
      country: 'DE',
      termsAccepted: 'on',
      legalVersions,
      [GUARD_FIELDS.startedAt]: start,
      [GUARD_FIELDS.proofOfWork]: (await proofOfWork('REGISTRATION')) ?? '',
    },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return { email, location: response.headers().location ?? '' };
}

/** An admin of `role` (`admin create`), with their password. */
export async function newAdmin(role: string): Promise<{ email: string; password: string }> {
  const email = `${role}-${randomBytes(4).toString('hex')}@velvetrope.test`;
  const password = `a long password ${randomBytes(6).toString('hex')}`;
  await run(['admin', 'create', '--email', email, '--role', role, '--password', password]);
  return { email, password };
}

/**
 * An admin of `role` with a second factor in force (`admin create`, then the API's set-up as the
 * console would do it): their password, the authenticator secret and the ten recovery codes.
 */
export async function adminWithSecondFactor(role: string): Promise<{ email: string; password: string; secret: string; recoveryCodes: string[] }> {
  const { email, password } = await newAdmin(role);
  const { adminLogin } = await graphql<{ adminLogin: { token: string } }>(
    'mutation l($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }',
    { email, password },
  );
  const bearer = { authorization: `Bearer ${adminLogin.token}` };
  const { adminStartSecondFactorSetup: setup } = await graphql<{ adminStartSecondFactorSetup: { secret: string; setupToken: string } }>(
    'mutation { adminStartSecondFactorSetup { secret setupToken } }',
    {},
    bearer,
  );
  const code = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30 }).generate();
  const { adminConfirmSecondFactorSetup: confirmed } = await graphql<{ adminConfirmSecondFactorSetup: { recoveryCodes: string[] } }>(
    'mutation c($setupToken: String!, $code: String!) { adminConfirmSecondFactorSetup(setupToken: $setupToken, code: $code) { recoveryCodes } }',
    { setupToken: setup.setupToken, code },
    bearer,
  );
  expect(confirmed.recoveryCodes).toHaveLength(10);
  return { email, password, secret: setup.secret, recoveryCodes: confirmed.recoveryCodes };
}

