/**
 * The email suggestion beside every public form's answer (issue 24 §3, ADR 061), on SQLite and
 * PostgreSQL: advice only — the request is handled with the address as sent, and what is stored
 * or emailed is that address until the person sends the suggested one.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, engineApi } from './support/engines.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { validInput } from './support/registration.ts';

const REGISTER = /* GraphQL */ `
  mutation register($input: RegisterInput!) { register(input: $input) { outcome userErrors { field messageId } emailSuggestion } }
`;
const APPLY = /* GraphQL */ `
  mutation apply($email: String!) { applyForMembership(email: $email, language: "de") { accepted userErrors { field messageId } emailSuggestion } }
`;
const LOBBY_LINK = /* GraphQL */ `
  mutation lobby($email: String!) { requestLobbyLink(email: $email, language: "pl") { sent userErrors { field messageId } emailSuggestion } }
`;
const ACTIVATION_LINK = /* GraphQL */ `
  mutation activation($email: String!) { requestActivationLink(email: $email, language: "fr") { sent userErrors { field messageId } emailSuggestion } }
`;

let counter = 0;
/** A fresh local part at the given domain. */
const at = (domain: string) => `anna.${Date.now().toString(36)}.${(counter += 1)}@${domain}`;

describe.each(ENGINES)('email suggestion on %s', (engine) => {
  const { database, api } = engineApi(engine);

  async function ask<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const { status, body } = await graphql<T>(api.yoga, query, { variables });
    expect(status).toBe(200);
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data;
  }

  it('registers the address as sent and suggests the provider it was likely meant to be', async () => {
    const { code } = await insertCode(database.db, { balance: 3 });
    const typed = at('gmx.ed');
    const { register } = await ask<{ register: { outcome: string; emailSuggestion: string } }>(REGISTER, { input: validInput(code, { email: typed }) });
    expect(register).toEqual({ outcome: 'FORM_FINISHED', userErrors: [], emailSuggestion: typed.replace('@gmx.ed', '@gmx.de') });
    // Never changed without the person: the account and its activation email are the typed address's.
    const members = await database.db.selectFrom('members').select('email').where('email', 'in', [typed, register.emailSuggestion]).execute();
    expect(members).toEqual([{ email: typed }]);
  });

  it('answers the suggestion beside validation errors too, and none for an address that is fine', async () => {
    const { code } = await insertCode(database.db, { balance: 3 });
    const typed = at('outlok.de');
    const refused = await ask<{ register: unknown }>(REGISTER, { input: validInput(code, { email: typed, termsAccepted: false }) });
    expect(refused.register).toEqual({
      outcome: null,
      userErrors: [{ field: 'termsAccepted', messageId: 'validation.terms' }],
      emailSuggestion: typed.replace('@outlok.de', '@outlook.de'),
    });
    const fine = await ask<{ register: { emailSuggestion: string | null } }>(REGISTER, { input: validInput(code, { email: at('gmx.de') }) });
    expect(fine.register.emailSuggestion).toBeNull();
    const ownDomain = await ask<{ register: { emailSuggestion: string | null } }>(REGISTER, { input: validInput(code, { email: at('uni-wien.ac.at') }) });
    expect(ownDomain.register.emailSuggestion).toBeNull();
  });

  it('answers it on the application, the waiting list and the new activation link, handling each as sent', async () => {
    const application = at('hotmial.fr');
    expect(await ask(APPLY, { email: application })).toEqual({
      applyForMembership: { accepted: true, userErrors: [], emailSuggestion: application.replace('hotmial', 'hotmail') },
    });
    expect(await database.db.selectFrom('membership_applications').select('email').execute()).toEqual([{ email: application }]);

    const waiting = at('wp.pll');
    expect(await ask(LOBBY_LINK, { email: waiting })).toEqual({ requestLobbyLink: { sent: true, userErrors: [], emailSuggestion: waiting.replace('wp.pll', 'wp.pl') } });

    const pending = at('orange.fe');
    expect(await ask(ACTIVATION_LINK, { email: pending })).toEqual({
      requestActivationLink: { sent: true, userErrors: [], emailSuggestion: pending.replace('orange.fe', 'orange.fr') },
    });
    // A malformed address keeps its error; a suggestion may still help.
    expect(await ask(APPLY, { email: 'anna@' })).toEqual({
      applyForMembership: { accepted: false, userErrors: [{ field: 'email', messageId: 'validation.email' }], emailSuggestion: null },
    });
  });
});
