/**
 * A real OpenID Connect provider for the end-to-end tests (oidc-provider, the certified
 * implementation), so social sign-up runs the whole protocol: discovery, the authorization
 * request with PKCE, state and nonce, sign-in and consent pages, the code exchange, signed
 * ID tokens and the userinfo endpoint. Nothing of ours is mocked. The sign-in and consent
 * pages are the few lines below (oidc-provider's own development pages load web fonts from
 * the internet, which tests never reach).
 *
 *   http://127.0.0.1:$OIDC_PROVIDER_PORT  (issuer; /.well-known/openid-configuration)
 *   one confidential client: $OIDC_CLIENT_ID / $OIDC_CLIENT_SECRET, redirect URIs $OIDC_REDIRECT_URIS
 *
 * Who you are depends on the login name you type on its sign-in page: see oidc-accounts.ts.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, { type JWK } from 'oidc-provider';
import { accountIdFor, claimsFor } from './oidc-accounts.ts';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A page of the provider: no scripts, no external resources (not even a favicon request). */
function page(res: ServerResponse, title: string, body: string) {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`);
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The sign-in and consent steps of an authorization request (oidc-provider's interaction API). */
/** Who signed in, by account id (the provider is one process and forgets everything on exit). */
const logins = new Map<string, string>();

async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string, step: string | undefined) {
  const details = await provider.interactionDetails(req, res);
  const base = `/interaction/${encodeURIComponent(uid)}`;
  const cancel = `<p><a href="${base}/abort">[ Cancel ]</a></p>`;
  if (!step && req.method === 'GET') {
    if (details.prompt.name === 'login') {
      return page(
        res,
        'Sign in to the test provider',
        `<form method="post" action="${base}/login" autocomplete="off">
          <p><label>Login <input name="login" required></label></p>
          <p><label>Password <input name="password" type="password" required></label></p>
          <button type="submit">Sign-in</button></form>${cancel}`,
      );
    }
    return page(
      res,
      'Share your profile',
      `<p>${escapeHtml(String(details.params.client_id))} asks for: ${escapeHtml(String(details.params.scope))}</p>
        <form method="post" action="${base}/consent"><button type="submit">Continue</button></form>${cancel}`,
    );
  }
  if (step === 'login' && req.method === 'POST') {
    const login = (await formBody(req)).get('login')?.trim();
    if (!login) return page(res, 'Sign in to the test provider', '<p>A login is required.</p>');
    const accountId = accountIdFor(login);
    logins.set(accountId, login);
    return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  }
  if (step === 'consent' && req.method === 'POST') {
    const { accountId } = details.session ?? {};
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: accountId!, clientId: String(details.params.client_id) });
    if (!grant) throw new Error('grant not found');
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }
  if (step === 'abort') {
    return provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'End-User aborted interaction' },
      { mergeWithLastSubmission: false },
    );
  }
  res.writeHead(405).end();
}

function main() {
  const port = Number(process.env.OIDC_PROVIDER_PORT ?? 3312);
  const redirectUris = (process.env.OIDC_REDIRECT_URIS ?? '').split(',').map((u) => u.trim()).filter(Boolean);
  const clientId = process.env.OIDC_CLIENT_ID;
  const clientSecret = process.env.OIDC_CLIENT_SECRET;
  if (!redirectUris.length || !clientId || !clientSecret) throw new Error('OIDC_REDIRECT_URIS, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are required');
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: 'e2e', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    findAccount: (_ctx, id) => {
      const login = logins.get(id);
      return login ? { accountId: id, claims: () => claimsFor(login) } : undefined;
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, { uid }) => `/interaction/${uid}` },
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    jwks: { keys: [signingKey] },
  });
  provider.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));

  const callback = provider.callback();
  const server = createServer((req, res) => {
    const match = /^\/interaction\/([\w-]+)(?:\/(login|consent|abort))?$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) return void callback(req, res);
    interaction(provider, req, res, match[1]!, match[2]).catch((error: unknown) => {
      console.error('oidc-provider interaction failed', error);
      if (!res.headersSent) res.writeHead(400, { 'Content-Type': 'text/plain' }).end('interaction failed');
    });
  });
  server.listen(port, '127.0.0.1');
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
