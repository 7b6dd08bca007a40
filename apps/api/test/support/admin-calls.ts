/** GraphQL calls with or without an admin's Bearer token, and a fresh admin of a role signed in through the API. */
import { randomUUID } from 'node:crypto';
import type { AdminRole } from '@velvet/validation/admin';
import { createAdminUser } from '../../src/services/create-admin-user.ts';
import type { TestApi } from './api.ts';
import type { TestDatabase } from './database.ts';
import { graphql } from './graphql.ts';

const PASSWORD = 'correct horse battery staple';
const LOGIN = 'mutation l($email: String!, $password: String!, $language: String) { adminLogin(email: $email, password: $password, language: $language) { token } }';

export function adminCalls(api: TestApi, database: TestDatabase) {
  const call = <T = Record<string, unknown>>(query: string, token: string | null, variables: Record<string, unknown> = {}) =>
    graphql<T>(api.yoga, query, { variables, headers: token ? { authorization: `Bearer ${token}` } : {} }).then((r) => r.body);
  /** An admin of `role`, created now and signed in at the API's current time (in the console's `language`, if given). */
  async function signedIn(role: AdminRole, language?: string): Promise<{ email: string; token: string }> {
    const email = `${role}-${randomUUID()}@example.test`;
    const created = await createAdminUser(database.db, { email, password: PASSWORD, role });
    if (!created.ok) throw new Error(created.errors.join());
    const login = await call<{ adminLogin: { token: string } }>(LOGIN, null, { email, password: PASSWORD, language });
    return { email, token: login.data!.adminLogin.token };
  }
  return { call, signedIn };
}
