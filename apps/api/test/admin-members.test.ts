/**
 * The member look-up and the data-protection tools (issue 13, ADR 048) on SQLite and PostgreSQL:
 * permissions per role, the look-up by exact address, resend (the old link voided, limited per
 * hour), freeing a place (the code's balance has it back), the export (every table) and the
 * deletion (what goes, what law keeps), each audited under a pseudonym, never the address.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLES } from '@velvet/validation/admin';
import type { AdminRole } from '@velvet/validation/admin';
import { PERSONAL_DATA_EXPORT_SCHEMA } from '@velvet/validation/admin-members';
import type { UserError } from '@velvet/validation/user-errors';
import { describe, expect, it } from 'vitest';
import { createLobbyLink } from '../src/domain/lobby-links.ts';
import { pruneErasureRecords } from '../src/jobs/retention.ts';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { insertApplication, insertWaitlistEntry } from './support/invitations.ts';
import { ACTIVATE, REGISTER, activationIdsFor, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

const PASSWORD = 'correct horse battery staple';
const LOGIN = 'mutation l($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }';
const LOOKUP = `query q($email: String!) { memberLookup(email: $email) {
  record { email reference
    registration { id status firstName code holdsPlace placeHeldUntil activationLinks { reason state expiresAt } consents { termsVersion dataPolicyVersion newsletter country } }
    heldRegistrations { code } waitlist { joinedAt } application { createdAt } emails { template status } }
  userErrors { code field messageId } } }`;
const RESEND = 'mutation r($id: String!) { memberResendActivation(memberId: $id) { done userErrors { code field messageId } } }';
const FREE = 'mutation f($id: String!) { memberFreePlace(memberId: $id) { done userErrors { code field messageId } } }';
const EXPORT = 'mutation e($email: String!) { personalDataExport(email: $email) { fileName document userErrors { code field messageId } } }';
const ERASE = `mutation d($email: String!) { personalDataErase(email: $email) {
  erasure { erasureId reference erasedAt removed keptConsentProofs anonymisedInviter kept } userErrors { code field messageId } } }`;
const AUDIT = 'query a($target: String) { auditLog(target: $target, first: 50) { entries { action target details actorEmail } } }';
const CHECK = 'query c($code: String!) { registrationCodeDetails(registrationCode: $code) { errors } }';

type Body<T> = { data?: T; errors?: { extensions?: { code?: string } }[] };
interface LookupRecord {
  email: string;
  reference: string;
  registration: {
    id: string;
    status: string;
    firstName: string;
    code: string | null;
    holdsPlace: boolean;
    placeHeldUntil: string | null;
    activationLinks: { reason: string; state: string; expiresAt: string }[];
    consents: { termsVersion: string; dataPolicyVersion: string; newsletter: boolean; country: string }[];
  } | null;
  heldRegistrations: { code: string }[];
  waitlist: { joinedAt: string } | null;
  application: { createdAt: string } | null;
  emails: { template: string; status: string }[];
}

describe.each(ENGINES)('member look-up and data protection on %s', (engine) => {
  const { database, api } = engineApi(engine);
  const db = () => database.db;

  const call = async <T>(query: string, token: string | null, variables: Record<string, unknown> = {}) =>
    (await graphql<T>(api.yoga, query, { variables, headers: token ? { authorization: `Bearer ${token}` } : {} })).body as Body<T>;

  async function signedIn(role: AdminRole) {
    const email = `${role}-${randomUUID()}@example.test`;
    const created = await createAdminUser(db(), { email, password: PASSWORD, role });
    if (!created.ok) throw new Error(created.errors.join());
    const { data } = await call<{ adminLogin: { token: string } }>(LOGIN, null, { email, password: PASSWORD });
    return { email, token: data!.adminLogin.token };
  }

  /** A visitor registered on a fresh code through the public API: pending, one link, one email. */
  async function pendingRegistration(balance = 1) {
    const code = await insertCode(db(), { balance });
    const input = validInput(code.code);
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input } });
    expect(body.data?.register.outcome).toBe('FORM_FINISHED');
    const member = await db().selectFrom('members').select('id').where('email', '=', input.email.toLowerCase()).executeTakeFirstOrThrow();
    return { code, email: input.email.toLowerCase(), memberId: member.id };
  }
  const lookup = async (token: string, email: string) => (await call<{ memberLookup: { record: LookupRecord | null; userErrors: UserError[] } }>(LOOKUP, token, { email })).data!.memberLookup;
  const auditFor = async (token: string, target: string) =>
    (await call<{ auditLog: { entries: { action: string; target: string; details: string; actorEmail: string }[] } }>(AUDIT, token, { target })).data!.auditLog.entries;

  it('checks the permissions on the server: support tools for owner, support and privacy; export and delete for owner and privacy', async () => {
    const { email, memberId } = await pendingRegistration(5);
    const refusedOrNot = (body: Body<unknown>) => (body.errors?.[0]?.extensions?.code === 'FORBIDDEN' ? 'refused' : body.errors ? JSON.stringify(body.errors) : 'allowed');
    const seen: Record<string, Record<string, string>> = {};
    for (const role of ADMIN_ROLES) {
      const { token } = await signedIn(role);
      seen[role] = {
        lookup: refusedOrNot(await call(LOOKUP, token, { email })),
        resend: refusedOrNot(await call(RESEND, token, { id: randomUUID() })),
        free: refusedOrNot(await call(FREE, token, { id: randomUUID() })),
        export: refusedOrNot(await call(EXPORT, token, { email: 'nobody@example.test' })),
        erase: refusedOrNot(await call(ERASE, token, { email: 'nobody@example.test' })),
      };
    }
    const support = { lookup: 'allowed', resend: 'allowed', free: 'allowed' };
    expect(seen).toEqual({
      owner: { ...support, export: 'allowed', erase: 'allowed' },
      operator: { lookup: 'refused', resend: 'refused', free: 'refused', export: 'refused', erase: 'refused' },
      support: { ...support, export: 'refused', erase: 'refused' },
      privacy: { ...support, export: 'allowed', erase: 'allowed' },
      viewer: { lookup: 'refused', resend: 'refused', free: 'refused', export: 'refused', erase: 'refused' },
    });
    // Without a session: nothing at all.
    expect((await call(LOOKUP, null, { email })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // Nothing changed by the refused calls.
    expect((await db().selectFrom('members').select('status').where('id', '=', memberId).executeTakeFirstOrThrow()).status).toBe('pending');
  });

  it('finds one address exactly, after the same normalization as the forms; a malformed one is refused, an unknown one is nothing', async () => {
    const { token } = await signedIn('support');
    const { email, code } = await pendingRegistration();
    const found = await lookup(token, `  ${email.toUpperCase()} `);
    expect(found.userErrors).toEqual([]);
    expect(found.record).toMatchObject({
      email,
      reference: expect.stringMatching(/^subject:[\w-]{22}$/) as string,
      registration: { status: 'pending', firstName: 'Zoë', code: code.code, holdsPlace: true, consents: [{ termsVersion: 'terms-DE-2026-01', newsletter: true, country: 'DE' }] },
      emails: [{ template: 'activation', status: 'pending' }],
    });
    expect(found.record!.registration!.activationLinks.map((l) => [l.reason, l.state])).toEqual([['registration', 'current']]);
    // Exact only: a part of the address finds nothing, nor does another spelling of the mailbox.
    expect((await lookup(token, email.slice(1))).record).toBeNull();
    expect((await lookup(token, email.replace('@', '+x@'))).record).toBeNull();
    expect(await lookup(token, 'not an address')).toEqual({ record: null, userErrors: [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }] });
    expect(await lookup(token, `${'a'.repeat(250)}@example.test`)).toEqual({
      record: null,
      userErrors: [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.emailTooLong' }],
    });
    expect(await lookup(token, 'nobody-at-all@example.test')).toEqual({ record: null, userErrors: [] });
  });

  it('resends the activation: a new link by email, the old one voided, at most three an hour, audited', async () => {
    const support = await signedIn('support');
    const { email, memberId } = await pendingRegistration();
    const [oldLink] = await activationIdsFor(db(), email);
    const resent = await call<{ memberResendActivation: { done: boolean; userErrors: UserError[] } }>(RESEND, support.token, { id: memberId });
    expect(resent.data!.memberResendActivation).toEqual({ done: true, userErrors: [] });
    const links = await activationIdsFor(db(), email);
    expect(links).toHaveLength(2);
    const record = (await lookup(support.token, email)).record!;
    expect(record.registration!.activationLinks.map((l) => [l.reason, l.state])).toEqual([
      ['resend', 'current'],
      ['registration', 'superseded'],
    ]);
    // The old link no longer activates; the new one does.
    const old = await graphql<{ activateAccount: { outcome: string | null; userErrors: UserError[] } }>(api.yoga, ACTIVATE, { variables: { activationId: oldLink } });
    expect(old.body.data?.activateAccount.userErrors.map((e) => e.code)).toEqual(['ACTIVATION_LINK_UNUSABLE']);

    // Two more go out; the fourth within the hour is refused and sends nothing.
    for (let i = 0; i < 2; i++) expect((await call<{ memberResendActivation: { done: boolean } }>(RESEND, support.token, { id: memberId })).data!.memberResendActivation.done).toBe(true);
    const limited = await call<{ memberResendActivation: { done: boolean; userErrors: UserError[] } }>(RESEND, support.token, { id: memberId });
    expect(limited.data!.memberResendActivation).toEqual({ done: false, userErrors: [{ code: 'RESEND_LIMIT_REACHED', field: null, messageId: 'admin.members.resendLimit' }] });
    expect(await activationIdsFor(db(), email)).toHaveLength(4);

    const newest = (await activationIdsFor(db(), email)).at(-1);
    const activated = await graphql<{ activateAccount: { outcome: string | null } }>(api.yoga, ACTIVATE, { variables: { activationId: newest } });
    expect(activated.body.data?.activateAccount.outcome).toBe('ACTIVATED');
    // An active member has nothing to resend.
    expect((await call<{ memberResendActivation: { userErrors: UserError[] } }>(RESEND, support.token, { id: memberId })).data!.memberResendActivation.userErrors).toEqual([
      { code: 'MEMBER_NOT_PENDING', field: null, messageId: 'admin.members.notPending' },
    ]);
    expect((await call<{ memberResendActivation: { userErrors: UserError[] } }>(RESEND, support.token, { id: randomUUID() })).data!.memberResendActivation.userErrors).toEqual([
      { code: 'MEMBER_NOT_FOUND', field: null, messageId: 'admin.members.notFound' },
    ]);

    const owner = await signedIn('owner');
    const audit = await auditFor(owner.token, record.reference);
    expect(audit.map((e) => e.action)).toEqual(['member.activation-resent', 'member.activation-resent', 'member.activation-resent']);
    expect(audit.every((e) => e.actorEmail === support.email)).toBe(true);
    const details = JSON.parse(audit[2]!.details) as { memberId: string; before: { placeHeldUntil: string }; after: { placeHeldUntil: string } };
    expect(details.memberId).toBe(memberId);
    expect(details.after.placeHeldUntil > details.before.placeHeldUntil).toBe(true);
    // The log names the pseudonym, never the address.
    expect(JSON.stringify(audit)).not.toContain(email);
  });

  it("frees a pending registration's place: the code's balance has it back, the old link ends, and it cannot be freed twice", async () => {
    const support = await signedIn('support');
    const { email, memberId, code } = await pendingRegistration(1);
    // The code's one place is held: nobody else can register on it.
    expect((await call<{ registrationCodeDetails: { errors: string[] } }>(CHECK, null, { code: code.code })).data!.registrationCodeDetails.errors).toContain(
      'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS',
    );
    const [link] = await activationIdsFor(db(), email);
    const freed = await call<{ memberFreePlace: { done: boolean; userErrors: UserError[] } }>(FREE, support.token, { id: memberId });
    expect(freed.data!.memberFreePlace).toEqual({ done: true, userErrors: [] });
    expect((await call<{ registrationCodeDetails: { errors: string[] } }>(CHECK, null, { code: code.code })).data!.registrationCodeDetails.errors).toEqual([]);
    const record = (await lookup(support.token, email)).record!;
    expect(record.registration).toMatchObject({ status: 'pending', holdsPlace: false });
    expect(record.registration!.activationLinks.map((l) => l.state)).toEqual(['expired']);
    const old = await graphql<{ activateAccount: { userErrors: UserError[] } }>(api.yoga, ACTIVATE, { variables: { activationId: link } });
    expect(old.body.data?.activateAccount.userErrors.map((e) => e.code)).toEqual(['ACTIVATION_LINK_UNUSABLE']);
    // Someone else takes the place.
    const other = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(code.code) } });
    expect(other.body.data?.register.outcome).toBe('FORM_FINISHED');

    expect((await call<{ memberFreePlace: { userErrors: UserError[] } }>(FREE, support.token, { id: memberId })).data!.memberFreePlace.userErrors).toEqual([
      { code: 'PLACE_NOT_HELD', field: null, messageId: 'admin.members.placeNotHeld' },
    ]);
    const owner = await signedIn('owner');
    const audit = await auditFor(owner.token, record.reference);
    expect(audit.map((e) => e.action)).toEqual(['member.place-freed']);
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ memberId, code: code.code, before: { placeHeldUntil: expect.any(String) as string }, after: { placeHeldUntil: expect.any(String) as string } });
  });

  /** One person in every table that can hold their address: registered, an inviter with a funnel, waiting, applying, held. */
  async function personEverywhere() {
    const { email, memberId, code } = await pendingRegistration(3);
    const ownCodeId = randomUUID();
    const now = new Date().toISOString();
    await db()
      .insertInto('registration_codes')
      .values({ id: ownCodeId, code: `OWN-${randomUUID().slice(0, 8)}`.toUpperCase(), inviter_member_id: memberId, balance: 2, expires_at: null, customization: null, landing_slug: null, requires_validity_timestamp: false, disabled: false, created_at: now })
      .execute();
    for (const event of ['landing_view', 'landing_view', 'registration_started']) {
      await db()
        .insertInto('funnel_events')
        .values({ id: randomUUID(), event, session_id: randomUUID(), hour: now.slice(0, 13) + ':00:00.000Z', language: 'en', country: 'DE', variant: null, registration_code_id: ownCodeId, landing_slug: null, analytics_consent: true })
        .execute();
    }
    await insertWaitlistEntry(db(), { email, joinedAt: now });
    await insertApplication(db(), { email, createdAt: now });
    const quarantined = await insertCode(db());
    await db()
      .insertInto('held_registrations')
      .values({ id: randomUUID(), registration_code_id: quarantined.id, email, language: 'de', submission: '{"firstName":"Zoë"}', created_at: now })
      .execute();
    await db().insertInto('member_preferences').values({ member_id: memberId, preference: 'WOMEN' }).execute();
    await db().insertInto('member_social_identities').values({ provider: 'google', subject: randomUUID(), member_id: memberId, created_at: now }).execute();
    await db()
      .insertInto('welcome_vouchers')
      .values({ member_id: memberId, code: `WELCOME-${randomUUID().slice(0, 6)}`, percent: 15, minimum_order_value: 50, currency: 'EUR', valid_until: now, created_at: now })
      .execute();
    return { email, memberId, code, ownCodeId, quarantined };
  }

  it('exports everything held about an address as a versioned JSON document, secrets left out, audited without the address', async () => {
    const privacy = await signedIn('privacy');
    const person = await personEverywhere();
    const exported = (await call<{ personalDataExport: { fileName: string | null; document: string | null; userErrors: UserError[] } }>(EXPORT, privacy.token, { email: person.email.toUpperCase() }))
      .data!.personalDataExport;
    expect(exported.userErrors).toEqual([]);
    expect(exported.fileName).toMatch(/^personal-data-[\w-]{8}-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.json$/);
    const doc = JSON.parse(exported.document!) as Record<string, unknown> & {
      registration: { status: string; activations: unknown[]; consents: unknown[] };
      ownInvitationCodes: { funnel: Record<string, number> }[];
      emails: { template: string; content: Record<string, unknown> }[];
    };
    expect(doc).toMatchObject({ schema: PERSONAL_DATA_EXPORT_SCHEMA, version: 1, email: person.email });
    expect(Date.parse(doc.exportedAt as string)).not.toBeNaN();
    expect(doc.registration.status).toBe('pending');
    expect(doc.registration.activations).toHaveLength(1);
    expect(doc.registration).toMatchObject({
      shoppingPreferences: ['WOMEN'],
      socialSignIns: [{ provider: 'google' }],
      welcomeVoucher: { percent: 15, minimumOrderValue: 50, currency: 'EUR' },
    });
    expect(doc.consentRecords).toEqual([{ acceptedAt: expect.any(String), country: 'DE', termsVersion: 'terms-DE-2026-01', dataPolicyVersion: 'data-policy-DE-2026-01', newsletter: true }]);
    expect(doc.waitingList).toMatchObject({ joinedAt: expect.any(String) });
    expect(doc.application).toMatchObject({ createdAt: expect.any(String) });
    // With the submission as stored (erasure-complete.test.ts holds one through the API).
    expect(doc.heldRegistrations).toEqual([{ code: person.quarantined.code, createdAt: expect.any(String), language: 'de', submission: { firstName: 'Zoë' } }]);
    expect(doc.ownInvitationCodes).toHaveLength(1);
    expect(doc.ownInvitationCodes[0]!.funnel).toEqual({ landing_view: 2, registration_started: 1 });
    expect(doc.emails.map((e) => e.template)).toEqual(['activation']);
    expect(doc.emails[0]!.content).toMatchObject({ firstName: 'Zoë' });
    expect(JSON.stringify(doc)).not.toContain('sealed');
    expect(typeof doc.keptAfterDeletion).toBe('string');

    const audit = await auditFor(privacy.token, doc.reference as string);
    expect(audit.map((e) => e.action)).toEqual(['privacy.exported']);
    expect(JSON.parse(audit[0]!.details)).toEqual({
      counts: { registrations: 1, heldRegistrations: 1, waitingList: 1, applications: 1, consentRecords: 1, activationLinks: 1, emails: 1, ownInvitationCodes: 1 },
    });
    expect(JSON.stringify(audit)).not.toContain(person.email);

    const nothing = (await call<{ personalDataExport: { document: string | null; userErrors: UserError[] } }>(EXPORT, privacy.token, { email: 'nobody@example.test' })).data!.personalDataExport;
    expect(nothing).toEqual({ fileName: null, document: null, userErrors: [{ code: 'NOTHING_FOUND', field: 'email', messageId: 'admin.members.nothingFound' }] });
    const malformed = (await call<{ personalDataExport: { userErrors: UserError[] } }>(EXPORT, privacy.token, { email: 'anna@' })).data!.personalDataExport;
    expect(malformed.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }]);
  });

  it('deletes everything held about an address but the consent proofs and the record of the request; an inviter stays as an anonymous, blocked stub', async () => {
    const privacy = await signedIn('privacy');
    const person = await personEverywhere();
    // An emailed lobby link names the address too (ADR 060): it goes with the erasure.
    await createLobbyLink(db(), person.email, new Date(Date.now() + 86_400_000), new Date());
    const reference = (await lookup(privacy.token, person.email)).record!.reference;
    const erased = (await call<{ personalDataErase: { erasure: Record<string, unknown> | null; userErrors: UserError[] } }>(ERASE, privacy.token, { email: person.email })).data!
      .personalDataErase;
    expect(erased.userErrors).toEqual([]);
    expect(erased.erasure).toMatchObject({ reference, keptConsentProofs: 3, anonymisedInviter: true });
    expect(JSON.parse(erased.erasure!.removed as string)).toEqual({ registrations: 1, heldRegistrations: 1, waitingList: 1, applications: 1, consentRecords: 1, activationLinks: 1, emails: 1, lobbyLinks: 1 });

    // Nothing is found by the address any more, in any table.
    expect((await lookup(privacy.token, person.email)).record).toBeNull();
    for (const [table, column] of [['members', 'email'], ['waitlist_entries', 'email'], ['membership_applications', 'email'], ['held_registrations', 'email'], ['email_outbox', 'recipient']] as const) {
      expect(await db().selectFrom(table).select('id').where(column, '=', person.email).execute(), table).toEqual([]);
    }
    expect(await db().selectFrom('lobby_links').select('email').where('email', '=', person.email).execute()).toEqual([]);
    for (const table of ['consents', 'activations', 'member_preferences', 'welcome_vouchers', 'member_social_identities'] as const) {
      expect(await db().selectFrom(table).selectAll().where('member_id', '=', person.memberId).execute(), table).toEqual([]);
    }
    // The inviter's row stays, emptied and blocked: their code refers to it and stops working.
    const stub = await db().selectFrom('members').select(['email', 'first_name', 'last_name', 'status']).where('id', '=', person.memberId).executeTakeFirstOrThrow();
    expect(stub).toEqual({ email: `erased-${person.memberId}@erased.invalid`, first_name: '', last_name: '', status: 'blocked' });
    // What law keeps: the consent proofs and the request, under the pseudonym only.
    const record = await db().selectFrom('privacy_erasures').selectAll().where('subject', '=', reference).executeTakeFirstOrThrow();
    expect(record.admin_user_id).toBeTruthy();
    const kept = JSON.parse(record.kept) as { kind: string }[];
    expect(kept.map((k) => k.kind).sort()).toEqual(['application', 'registration', 'waiting-list']);
    expect(kept.find((k) => k.kind === 'registration')).toMatchObject({ termsVersion: 'terms-DE-2026-01', dataPolicyVersion: 'data-policy-DE-2026-01', country: 'DE' });
    expect(JSON.stringify(record)).not.toContain(person.email);
    expect(JSON.stringify(record)).not.toContain('Zoë');

    const audit = await auditFor(privacy.token, reference);
    expect(audit.map((e) => e.action)).toEqual(['privacy.erased']);
    expect(JSON.stringify(audit)).not.toContain(person.email);
    // A second request finds nothing and records nothing more.
    const again = (await call<{ personalDataErase: { userErrors: UserError[] } }>(ERASE, privacy.token, { email: person.email })).data!.personalDataErase;
    expect(again.userErrors).toEqual([{ code: 'NOTHING_FOUND', field: 'email', messageId: 'admin.members.nothingFound' }]);
    expect(await auditFor(privacy.token, reference)).toHaveLength(1);
  });

  it('deletes a registered person who invited nobody outright; the code they used has the place back', async () => {
    const owner = await signedIn('owner');
    const { email, memberId, code } = await pendingRegistration(1);
    const erased = (await call<{ personalDataErase: { erasure: { anonymisedInviter: boolean; keptConsentProofs: number } | null } }>(ERASE, owner.token, { email })).data!.personalDataErase;
    expect(erased.erasure).toEqual({ ...erased.erasure, anonymisedInviter: false, keptConsentProofs: 1 });
    expect(await db().selectFrom('members').select('id').where('id', '=', memberId).execute()).toEqual([]);
    expect((await call<{ registrationCodeDetails: { errors: string[] } }>(CHECK, null, { code: code.code })).data!.registrationCodeDetails.errors).toEqual([]);
    expect((await call<{ personalDataErase: { userErrors: UserError[] } }>(ERASE, owner.token, { email: uniqueEmail('x') + '@' })).data!.personalDataErase.userErrors).toEqual([
      { code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' },
    ]);
  });

  it('keeps the record of a deletion three years, then the retention pass deletes it', async () => {
    const at = new Date('2026-01-10T00:00:00.000Z');
    const id = randomUUID();
    await db().insertInto('privacy_erasures').values({ id, subject: `subject:${randomUUID()}`, requested_at: at.toISOString(), admin_user_id: null, removed: '{}', kept: '[]' }).execute();
    const present = async () => (await db().selectFrom('privacy_erasures').select('id').where('id', '=', id).execute()).length;
    await pruneErasureRecords(db(), new Date(at.getTime() + 3 * 365 * 86_400_000 - 1000));
    expect(await present()).toBe(1);
    await pruneErasureRecords(db(), new Date(at.getTime() + 3 * 365 * 86_400_000 + 1000));
    expect(await present()).toBe(0);
  });
});
