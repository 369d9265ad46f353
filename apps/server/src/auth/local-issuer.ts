import { createHash, createHmac, generateKeyPair, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import type { AppConfig } from '../config/env.ts';

/**
 * The built-in OpenID Connect issuer used when no real one is configured (never in
 * production; config/env.ts refuses that). It is a real oidc-provider, so sign-in runs the
 * very same code path as with Google: discovery, PKCE, state, nonce, signed ID tokens.
 * Anyone can sign in as anyone here, which is why the page says so.
 */

export interface LocalIssuerClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface LocalIssuerOptions {
  /** Issuer identifier; its path is where the plugin is mounted (e.g. `http://localhost:3000/oidc`). */
  issuer: string;
  client: LocalIssuerClient;
  /**
   * What the issuer says in `email_verified`. The demo always vouches for the address; tests
   * turn this off to play an issuer that has not verified it.
   */
  isEmailVerified?: boolean;
  /**
   * Groups every account is in, answered at userinfo only (`groups`), as many issuers do: for
   * tests of admins by OIDC group (OIDC_ADMIN_GROUPS).
   */
  userinfoGroups?: readonly string[];
  /**
   * The Google Workspace domain every account is in, said in the ID token's `hd` claim as
   * Google does: for tests of ALLOWED_EMAIL_DOMAINS with Google (auth/allow-list.ts).
   */
  hostedDomain?: string;
  /** A TLS proxy sits in front: trust X-Forwarded-Proto when building URLs. */
  isBehindProxy?: boolean;
}

/** The prompts the sign-in page answers; either way the person says who they are. */
const SIGN_IN_PROMPTS = new Set(['login', 'select_account']);
const DEMO_NAME = 'Demo User';
const DEMO_EMAIL = 'demo@sticky.local';
const ISSUER_RATE_LIMIT = { max: 300, timeWindow: '1 minute' };
const FORM_RATE_LIMIT = { max: 60, timeWindow: '1 minute' };

/** Where the app mounts its own local issuer, and the client it registers there for itself. */
export function localIssuerSettings(config: AppConfig, sessionSecret: string): LocalIssuerOptions {
  return {
    issuer: `${config.publicUrl}/oidc`,
    client: {
      clientId: 'sticky',
      // Derived, not stored: the issuer and the client live in one process and agree on it.
      clientSecret: createHmac('sha256', sessionSecret)
        .update('sticky local issuer client secret')
        .digest('base64url'),
      redirectUri: `${config.publicUrl}/api/auth/callback`,
    },
    isBehindProxy: config.isHttps,
  };
}

interface LocalAccount {
  email: string;
  name: string;
}

/** The same email always gets the same subject, so a demo user keeps their favorites. */
function subjectFor(email: string): string {
  return `local-${createHash('sha256').update(email).digest('base64url').slice(0, 24)}`;
}

const signInFormSchema = z.object({
  name: z
    .string({ error: 'Enter your name.' })
    .trim()
    .min(1, 'Enter your name.')
    .max(100, 'Use at most 100 characters for your name.'),
  email: z
    .string({ error: 'Enter your email address.' })
    .trim()
    .toLowerCase()
    .min(1, 'Enter your email address.')
    .max(254, 'That email address is too long.')
    .pipe(z.email('Enter an email address like name@example.com.')),
});

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const PAGE_STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #121212; color: #f5f5f5; }
  main { width: min(26rem, calc(100vw - 2rem)); background: #1f1f1f; border-radius: 1rem; padding: 2rem; box-shadow: 0 10px 30px rgb(0 0 0 / 0.4); }
  h1 { margin: 0 0 0.75rem; font-size: 1.5rem; }
  p { line-height: 1.5; }
  .notice { background: #2d2a12; border: 1px solid #8a7a1c; color: #fbeea6; border-radius: 0.5rem; padding: 0.75rem 1rem; font-size: 0.95rem; }
  label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: 0.65rem 0.75rem; border-radius: 0.5rem; border: 1px solid #6b6b6b; background: #121212; color: inherit; font-size: 1rem; }
  input[aria-invalid='true'] { border-color: #ff6b6b; }
  .error { color: #ff8f8f; margin: 0.35rem 0 0; font-size: 0.9rem; }
  .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  button { flex: 1; padding: 0.7rem 1rem; border-radius: 999px; border: 0; font-size: 1rem; font-weight: 600; cursor: pointer; }
  .primary { background: linear-gradient(90deg, #9933ff, #6157ff); color: #fff; }
  .secondary { background: transparent; color: inherit; border: 1px solid #6b6b6b; }
  a { color: #a78bfa; }
  :focus-visible { outline: 3px solid #00ccff; outline-offset: 2px; }
`;

function renderPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)} · Sticky</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

interface FormState {
  name: string;
  email: string;
  errors?: { name?: string; email?: string };
}

function renderSignInForm(actionBase: string, state: FormState): string {
  const field = (
    id: 'name' | 'email',
    label: string,
    type: string,
    autocomplete: string,
    value: string,
  ) => {
    const error = state.errors?.[id];
    const describedBy = error ? ` aria-describedby="${id}-error" aria-invalid="true"` : '';
    return `<label for="${id}">${label}</label>
<input id="${id}" name="${id}" type="${type}" autocomplete="${autocomplete}" required value="${escapeHtml(value)}"${describedBy}>
${error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : ''}`;
  };
  // Continue is the form's first button, so Enter in a field signs in rather than cancels.
  return renderPage(
    'Local sign-in',
    `<h1>Sign in to Sticky</h1>
<p class="notice" role="note"><strong>This is a local sign-in</strong> because Google is not configured on this server. It is for development and demos only: anyone can sign in here with any name and email, and nothing is checked.</p>
${state.errors ? '<p class="error" role="alert">Please fix the fields marked below.</p>' : ''}
<form method="post" action="${escapeHtml(actionBase)}/login" novalidate>
${field('name', 'Name', 'text', 'name', state.name)}
${field('email', 'Email', 'email', 'email', state.email)}
<div class="actions">
<button class="primary" type="submit">Continue</button>
<button class="secondary" type="submit" formaction="${escapeHtml(actionBase)}/abort" formnovalidate>Cancel</button>
</div>
</form>`,
  );
}

function renderExpiredPage(): string {
  return renderPage(
    'Sign-in expired',
    `<h1>This sign-in page has expired</h1>
<p>It was opened too long ago or in another browser. Go back to Sticky and start signing in again.</p>
<p><a href="/landing">Back to Sticky</a></p>`,
  );
}

async function createProvider(
  options: LocalIssuerOptions,
  mountPath: string,
  accounts: Map<string, LocalAccount>,
) {
  // Imported only when the local issuer is used: production never loads it.
  const { Provider, interactionPolicy } = await import('oidc-provider');
  // The provider's own in-memory store, one per provider, as its default makes it; named here
  // because the default prints a warning for production deployments at every start, and this
  // issuer never runs in production. A restart forgets its grants, not Sticky's sessions.
  const { createMemoryAdapter } = await import('oidc-provider/lib/adapters/memory_adapter.js');
  // Google's "choose an account" (prompt=select_account, which Sticky asks Google for): here it
  // is the sign-in page, as for prompt=login, so a test issuer can play Google.
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const isEmailVerified = options.isEmailVerified ?? true;

  const configuration: Configuration = {
    adapter: createMemoryAdapter(),
    clients: [
      {
        client_id: options.client.clientId,
        client_secret: options.client.clientSecret,
        redirect_uris: [options.client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    // Fresh keys each start: no secret is shipped or stored; a restart only ends sign-ins in flight.
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' }] },
    cookies: {
      keys: [randomBytes(32).toString('base64url')],
      long: { httpOnly: true, sameSite: 'lax', path: mountPath },
      names: {
        session: 'sticky_oidc_session',
        interaction: 'sticky_oidc_interaction',
        resume: 'sticky_oidc_resume',
      },
    },
    claims: {
      openid: ['sub', 'hd'],
      email: ['email', 'email_verified'],
      profile: ['name', 'groups'],
    },
    // Put email and name in the ID token itself, like Google does.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: true },
    },
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
    },
    interactions: {
      policy,
      url: (_ctx: KoaContextWithOIDC, interaction) => `${mountPath}/interaction/${interaction.uid}`,
    },
    // Sticky is this issuer's only client and it is first-party: consent is implied.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client!;
      const session = ctx.oidc.session!;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: (use: string) => ({
          sub,
          email: account.email,
          email_verified: isEmailVerified,
          name: account.name,
          ...(options.hostedDomain ? { hd: options.hostedDomain } : {}),
          ...(use === 'userinfo' && options.userinfoGroups
            ? { groups: [...options.userinfoGroups] }
            : {}),
        }),
      };
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderPage(
        'Sign-in problem',
        `<h1>The local sign-in could not continue</h1>
<p>${escapeHtml(String(out.error_description ?? out.error ?? 'Unknown error'))}</p>
<p><a href="/landing">Back to Sticky</a></p>`,
      );
    },
  };

  const provider = new Provider(options.issuer, configuration);
  provider.proxy = options.isBehindProxy ?? false;
  return provider;
}

/**
 * Mounts the local issuer; register it with `prefix` set to the issuer's path. oidc-provider
 * answers its own endpoints on the raw request; the sign-in page is ours, so it gets our
 * security headers (CSP: no scripts on it at all).
 */
export const localIssuerPlugin: FastifyPluginAsync<LocalIssuerOptions> = async (app, options) => {
  const mountPath = new URL(options.issuer).pathname.replace(/\/$/, '');
  const accounts = new Map<string, LocalAccount>();
  const provider = await createProvider(options, mountPath, accounts);
  provider.on('server_error', (_ctx: unknown, error: unknown) =>
    app.log.error({ err: error }, 'local sign-in issuer failed'),
  );
  const handleRequest = provider.callback();

  await app.register(async (issuerScope: FastifyInstance) => {
    // The provider reads and limits its own request bodies: leave the stream untouched.
    issuerScope.removeAllContentTypeParsers();
    issuerScope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    issuerScope.route({
      method: ['GET', 'POST', 'OPTIONS'],
      url: '/*',
      config: { rateLimit: ISSUER_RATE_LIMIT },
      handler: (request, reply) => {
        reply.hijack();
        const raw = request.raw as IncomingMessage & { originalUrl?: string };
        // oidc-provider finds its mount path from originalUrl minus url (as under Express).
        raw.originalUrl = raw.url;
        raw.url = (raw.url ?? '/').slice(mountPath.length) || '/';
        void handleRequest(raw, reply.raw);
      },
    });
  });

  await app.register(async (pageScope: FastifyInstance) => {
    pageScope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const paramsSchema = z.object({ uid: z.string().min(1).max(100) });

    /** The interaction this browser is in, or null when its cookie is gone or for another one. */
    const findInteraction = async (request: FastifyRequest, reply: FastifyReply) => {
      const { uid } = paramsSchema.parse(request.params);
      try {
        const details = await provider.interactionDetails(request.raw, reply.raw);
        return details.uid === uid && SIGN_IN_PROMPTS.has(details.prompt.name) ? details : null;
      } catch {
        return null;
      }
    };

    const sendHtml = (reply: FastifyReply, status: number, html: string) =>
      reply
        .status(status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(html);

    pageScope.get(
      '/interaction/:uid',
      { config: { rateLimit: FORM_RATE_LIMIT } },
      async (request, reply) => {
        const details = await findInteraction(request, reply);
        if (!details) return sendHtml(reply, 400, renderExpiredPage());
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
        return sendHtml(
          reply,
          200,
          renderSignInForm(`${mountPath}/interaction/${details.uid}`, {
            name: DEMO_NAME,
            email: z.email().safeParse(hint).success ? hint : DEMO_EMAIL,
          }),
        );
      },
    );

    pageScope.post(
      '/interaction/:uid/login',
      { config: { rateLimit: FORM_RATE_LIMIT } },
      async (request, reply) => {
        const details = await findInteraction(request, reply);
        if (!details) return sendHtml(reply, 400, renderExpiredPage());
        const form = signInFormSchema.safeParse(request.body ?? {});
        if (!form.success) {
          const body = (request.body ?? {}) as Record<string, unknown>;
          const errors: FormState['errors'] = {};
          for (const issue of form.error.issues) {
            const key = issue.path[0];
            if ((key === 'name' || key === 'email') && !errors[key]) errors[key] = issue.message;
          }
          return sendHtml(
            reply,
            400,
            renderSignInForm(`${mountPath}/interaction/${details.uid}`, {
              name: typeof body.name === 'string' ? body.name : '',
              email: typeof body.email === 'string' ? body.email : '',
              errors,
            }),
          );
        }
        const accountId = subjectFor(form.data.email);
        accounts.set(accountId, form.data);
        if (details.session) {
          // Every sign-in here is a fresh one (Sticky asks with prompt=login). Ending the
          // issuer's earlier session lets someone else sign in on the same browser, where
          // oidc-provider would otherwise ask to log out first through a scripted page.
          const previous = await provider.Session.find(details.session.cookie);
          await previous?.destroy();
          delete details.session;
          await details.save(Math.max(1, details.exp - Math.floor(Date.now() / 1000)));
        }
        const redirectTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          // Both prompts answered: an account chosen is an account signed in to.
          { login: { accountId }, select_account: {} },
          { mergeWithLastSubmission: false },
        );
        return reply.header('cache-control', 'no-store').redirect(redirectTo, 303);
      },
    );

    pageScope.post(
      '/interaction/:uid/abort',
      { config: { rateLimit: FORM_RATE_LIMIT } },
      async (request, reply) => {
        const details = await findInteraction(request, reply);
        if (!details) return sendHtml(reply, 400, renderExpiredPage());
        const redirectTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
          { mergeWithLastSubmission: false },
        );
        return reply.header('cache-control', 'no-store').redirect(redirectTo, 303);
      },
    );
  });
};

/** Registered by app.ts under `/oidc`; does nothing unless the local issuer is in use. */
export const localIssuerRoutes: FastifyPluginAsync = async (app) => {
  const { config, sessionSecret } = app.deps;
  if (config.signIn.kind !== 'local' || config.isProduction) return;
  const settings = localIssuerSettings(config, sessionSecret);
  await app.register(localIssuerPlugin, settings);
  app.log.info(
    { issuer: settings.issuer },
    'no sign-in provider configured: using the local sign-in issuer (development only)',
  );
};
