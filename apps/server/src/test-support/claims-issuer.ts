import { generateKeyPair, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { TestBrowser } from './browser.ts';
import { readForm } from './browser.ts';
import { isCallbackUrl } from './oidc.ts';
import type { TestIssuer } from './oidc.ts';

/**
 * An OpenID Connect issuer (oidc-provider with its development sign-in page: any login, any
 * password) that puts claims of the test's choosing in the ID token and none of them at
 * userinfo: for what the app's own local issuer never sends, such as groups under a claim of
 * another name (OIDC_GROUPS_CLAIM). The login typed is the person's subject and email.
 */
export async function startClaimsIssuer(options: {
  redirectUri: string;
  /** Added to every ID token, e.g. `{ roles: ['sticky-moderators'] }`. */
  idTokenClaims: Record<string, unknown>;
}): Promise<TestIssuer> {
  const { Provider } = await import('oidc-provider');
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = {
    clientId: 'sticky-claims-client',
    clientSecret: 'sticky-claims-client-secret-0123456789',
    redirectUri: options.redirectUri,
  };
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', ...Object.keys(options.idTokenClaims)],
    },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, userinfo: { enabled: true } },
    pkce: { required: () => true },
    // The app is the only client and first-party: consent is implied.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: (use: string) => ({
        sub,
        email: sub,
        email_verified: true,
        name: 'Claims Person',
        ...(use === 'id_token' ? options.idTokenClaims : {}),
      }),
    }),
  });
  server.on('request', provider.callback());
  return {
    issuer,
    client,
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: client.clientId,
      OIDC_CLIENT_SECRET: client.clientSecret,
      OIDC_DISPLAY_NAME: 'Claims issuer',
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Plays the person at that issuer's sign-in page, from an authorization URL: answers the
 * callback URL it sends the browser to, without visiting it.
 */
export async function signInAtClaimsIssuer(
  browser: TestBrowser,
  authorizationUrl: string,
  email: string,
): Promise<string> {
  const page = await browser.navigate(authorizationUrl, {}, { stopAt: isCallbackUrl });
  if (page.last.status !== 200) {
    throw new Error(`expected the sign-in page, got ${page.last.status} at ${page.url}`);
  }
  const form = readForm(page.last.body, page.last.url);
  const submitted = await browser.navigate(
    form.action,
    { form: { ...form.fields, login: email, password: 'anything' } },
    { stopAt: isCallbackUrl },
  );
  if (!isCallbackUrl(new URL(submitted.url))) {
    throw new Error(
      `expected the callback, ended at ${submitted.url}: ${submitted.last.status} ${submitted.last.body.slice(0, 300)}`,
    );
  }
  return submitted.url;
}
