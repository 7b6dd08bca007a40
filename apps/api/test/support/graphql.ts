/** Calls the API through `yoga.fetch`, without a port. */
import type { ServerContext } from '../../src/http/request-meta.ts';
import type { ApiYoga } from '../../src/http/yoga.ts';

export interface GraphQLResponseBody<TData = Record<string, unknown>> {
  data?: TData | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

export interface CallOptions {
  headers?: Record<string, string>;
  serverContext?: ServerContext;
  variables?: Record<string, unknown>;
}

export async function graphql<TData = Record<string, unknown>>(
  yoga: ApiYoga,
  query: string,
  options: CallOptions = {},
): Promise<{ status: number; headers: Headers; body: GraphQLResponseBody<TData> }> {
  const response = await yoga.fetch(
    'http://localhost/graphql',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify({ query, variables: options.variables ?? {} }),
    },
    options.serverContext ?? {},
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLResponseBody<TData> };
}

export const CHECK_CODE = /* GraphQL */ `
  query checkRegistrationCode($registrationCode: String!, $validityTimestamp: String, $slug: String, $referrer: String) {
    registrationCodeDetails(
      registrationCode: $registrationCode
      validityTimestamp: $validityTimestamp
      slug: $slug
      referrer: $referrer
    ) {
      errors
      errorDetails { error }
      invitorName
      countryOptions { isoCode termsPkString dataPolicyPkString }
      customization
    }
  }
`;

export interface CodeDetails {
  errors: string[];
  errorDetails: { error: string }[];
  invitorName: string | null;
  countryOptions: { isoCode: string; termsPkString: string; dataPolicyPkString: string }[];
  customization: string | null;
}
