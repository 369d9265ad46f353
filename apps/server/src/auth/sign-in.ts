import type { SessionUser, SignInErrorCode } from '@sticky/contracts';
import * as client from 'openid-client';
import type { AppConfig } from '../config/env.ts';
import type { Database } from '../db/client.ts';
import { isEmailAllowed, isGoogleDomainVouched } from './allow-list.ts';
import { localIssuerSettings } from './local-issuer.ts';
import { upsertUser } from './sessions.ts';
import { FLOW_TTL_MS } from './sign-in-flow.ts';
import type { SignInFlow } from './sign-in-flow.ts';

/** An expected way for sign-in to fail; the user lands on `/landing?error=<code>`. */
export class SignInError extends Error {
  constructor(
    readonly code: SignInErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SignInError';
  }
}

export interface SignInIssuer {
  kind: AppConfig['signIn']['kind'];
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export function resolveSignInIssuer(config: AppConfig, sessionSecret: string): SignInIssuer {
  const redirectUri = `${config.publicUrl}/api/auth/callback`;
  const { signIn } = config;
  if (signIn.kind === 'local') {
    const local = localIssuerSettings(config, sessionSecret);
    return { kind: 'local', issuer: local.issuer, ...local.client };
  }
  return {
    kind: signIn.kind,
    issuer: signIn.issuer,
    clientId: signIn.clientId,
    clientSecret: signIn.clientSecret,
    redirectUri,
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return (
    LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * Plain http only to an issuer on this machine: a loopback one (a development Keycloak), or
 * our own local issuer, which is this very process and exists only outside production.
 */
function canUseHttp(issuer: SignInIssuer): boolean {
  const url = new URL(issuer.issuer);
  return url.protocol === 'http:' && (isLoopbackUrl(url) || issuer.kind === 'local');
}

const AUTHORIZATION_SCOPE = 'openid email profile';
const ISSUER_TIMEOUT_SECONDS = 10;

/** Token and ID-token checks that say the answer itself is not to be trusted. */
const UNTRUSTED_ANSWER_CODES = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_PARSE_ERROR',
]);

function toSignInError(error: unknown): SignInError {
  if (error instanceof SignInError) return error;
  if (error instanceof client.AuthorizationResponseError) {
    return error.error === 'access_denied'
      ? new SignInError('access_denied', 'the user cancelled at the issuer', { cause: error })
      : new SignInError('provider_error', `issuer answered ${error.error}`, { cause: error });
  }
  if (error instanceof client.ResponseBodyError) {
    return error.error === 'invalid_grant'
      ? new SignInError('code_invalid', 'the code was refused (used, expired or not ours)', {
          cause: error,
        })
      : new SignInError('provider_error', `token endpoint answered ${error.error}`, {
          cause: error,
        });
  }
  if (error instanceof client.ClientError && UNTRUSTED_ANSWER_CODES.has(error.code ?? '')) {
    return new SignInError('token_invalid', error.message, { cause: error });
  }
  // Network failures, timeouts, unexpected status codes or content from the issuer.
  return new SignInError('provider_error', 'the issuer could not be reached or misbehaved', {
    cause: error,
  });
}

function readString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function readPicture(value: unknown): string | null {
  const picture = readString(value);
  if (!picture || picture.length > 2000) return null;
  try {
    return new URL(picture).protocol === 'https:' ? picture : null;
  } catch {
    return null;
  }
}

/** An OIDC groups claim: a list of names (some issuers send one name as a string). */
function readGroups(value: unknown): string[] {
  const names = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return names.filter((name): name is string => typeof name === 'string').slice(0, 200);
}

export interface SignInServiceDeps {
  config: AppConfig;
  db: Database;
  sessionSecret: string;
}

export interface SignInService {
  issuer: SignInIssuer;
  startSignIn(returnTo: string): Promise<{ authorizationUrl: URL; flow: SignInFlow }>;
  finishSignIn(callbackUrl: URL, flow: SignInFlow): Promise<SessionUser>;
}

/** Authorization code flow with PKCE through openid-client, for every kind of issuer. */
export function createSignInService({
  config,
  db,
  sessionSecret,
}: SignInServiceDeps): SignInService {
  const issuer = resolveSignInIssuer(config, sessionSecret);
  let discovered: Promise<client.Configuration> | undefined;

  const getConfiguration = () => {
    discovered ??= client
      .discovery(new URL(issuer.issuer), issuer.clientId, issuer.clientSecret, undefined, {
        execute: canUseHttp(issuer) ? [client.allowInsecureRequests] : [],
        timeout: ISSUER_TIMEOUT_SECONDS,
      })
      .then((configuration) => {
        configuration.timeout = ISSUER_TIMEOUT_SECONDS;
        return configuration;
      })
      .catch((error: unknown) => {
        // Not cached: the next sign-in tries again (the issuer may be back by then).
        discovered = undefined;
        throw new SignInError('provider_error', `discovery of ${issuer.issuer} failed`, {
          cause: error,
        });
      });
    return discovered;
  };

  return {
    issuer,

    async startSignIn(returnTo) {
      const configuration = await getConfiguration();
      const flow: SignInFlow = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        returnTo,
        expiresAt: Date.now() + FLOW_TTL_MS,
      };
      const parameters: Record<string, string> = {
        redirect_uri: issuer.redirectUri,
        scope: AUTHORIZATION_SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      };
      // Let people pick another account after logging out, instead of silently reusing one.
      if (issuer.kind === 'google') parameters.prompt = 'select_account';
      if (issuer.kind === 'local') parameters.prompt = 'login';
      return { authorizationUrl: client.buildAuthorizationUrl(configuration, parameters), flow };
    },

    async finishSignIn(callbackUrl, flow) {
      const configuration = await getConfiguration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw toSignInError(error);
      }
      const claims = tokens.claims();
      if (!claims) throw new SignInError('token_invalid', 'no ID token in the token response');

      let profile: Record<string, unknown> = claims;
      const needsEmail = readString(claims.email) === undefined;
      // Admins by group need the groups claim, which many issuers put at userinfo only.
      const needsGroups =
        config.admins.oidcGroups.length > 0 && claims[config.admins.groupsClaim] === undefined;
      if (needsEmail || needsGroups) {
        // Some issuers keep the ID token minimal; the rest is at userinfo, for the same subject.
        try {
          const userInfo = await client.fetchUserInfo(
            configuration,
            tokens.access_token,
            claims.sub,
          );
          profile = needsEmail
            ? {
                ...userInfo,
                ...claims,
                email: userInfo.email,
                email_verified: userInfo.email_verified,
              }
            : { ...claims, [config.admins.groupsClaim]: userInfo[config.admins.groupsClaim] };
        } catch (error) {
          // Without its email there is no sign-in; without groups, only no admin rights by group
          // this time (the person signs in as everyone else does).
          if (needsEmail) throw toSignInError(error);
        }
      }

      const email = readString(profile.email);
      if (!email) throw new SignInError('token_invalid', 'the issuer shared no email address');
      const isVerified = profile.email_verified === true || profile.email_verified === 'true';
      if (!isVerified) {
        throw new SignInError('email_unverified', `${email} is not verified by the issuer`);
      }
      if (!isEmailAllowed(email, config)) {
        throw new SignInError('not_allowed', `${email} is not on the allow-list`);
      }
      if (!isGoogleDomainVouched(email, claims.hd, config)) {
        throw new SignInError(
          'not_allowed',
          `${email} is not an account of its domain's Google Workspace (no matching hd claim)`,
        );
      }
      const name =
        readString(profile.name) ??
        ([readString(profile.given_name), readString(profile.family_name)]
          .filter(Boolean)
          .join(' ') ||
          email.split('@')[0]!);
      return upsertUser(db, config, {
        issuer: claims.iss,
        subject: claims.sub,
        email,
        name: name.slice(0, 200),
        picture: readPicture(profile.picture),
        groups: readGroups(profile[config.admins.groupsClaim]),
      });
    },
  };
}
