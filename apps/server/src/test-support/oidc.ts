import Fastify from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { Cookie } from 'tough-cookie';
import { localIssuerPlugin } from '../auth/local-issuer.ts';
import type { LocalIssuerClient } from '../auth/local-issuer.ts';
import { flowCookieName } from '../auth/sign-in-flow.ts';
import { createTestApp } from './app.ts';
import type { TestApp, TestAppOptions } from './app.ts';
import { readForm, TestBrowser } from './browser.ts';
import { listenOnFreePort } from './listen.ts';

export interface ListeningTestApp extends TestApp {
  /** The app's PUBLIC_URL, which is also where it listens. */
  baseUrl: string;
  /** The issuer of its own, with `hasOwnIssuer`. */
  issuer?: TestIssuer;
}

/**
 * The real app on a real port, with PUBLIC_URL matching it: what sign-in needs, since the
 * issuer sends the browser back to PUBLIC_URL and the app discovers its local issuer there.
 */
export async function startListeningApp(
  env: Record<string, string> = {},
  options: Omit<TestAppOptions, 'serverFactory'> & {
    /**
     * Sign in through an issuer of its own (OIDC_*), as an instance with an allow-list must:
     * the app's local sign-in is never offered beside one. Options shape that issuer.
     */
    hasOwnIssuer?:
      | boolean
      | (Omit<Parameters<typeof startTestIssuer>[0], 'redirectUri'> & {
          /** The app takes it for Google (GOOGLE_CLIENT_*), as it does Google itself. */
          isGoogle?: boolean;
        });
  } = {},
): Promise<ListeningTestApp> {
  const { hasOwnIssuer, ...appOptions } = options;
  const { isGoogle = false, ...issuerOptions } =
    typeof hasOwnIssuer === 'object' ? hasOwnIssuer : {};
  const listening = await listenOnFreePort();
  const baseUrl = `http://localhost:${listening.port}`;
  let issuer: TestIssuer | undefined;
  try {
    if (hasOwnIssuer) {
      issuer = await startTestIssuer({
        ...issuerOptions,
        redirectUri: `${baseUrl}/api/auth/callback`,
      });
    }
    const testApp = await createTestApp(
      { PUBLIC_URL: baseUrl, ...(isGoogle && issuer ? googleEnvOf(issuer) : issuer?.env), ...env },
      {
        ...appOptions,
        ...(isGoogle && issuer ? { googleIssuer: issuer.issuer } : {}),
        serverFactory: listening.serverFactory,
      },
    );
    await testApp.app.ready();
    return {
      ...testApp,
      baseUrl,
      issuer,
      close: async () => {
        await testApp.close();
        await listening.close();
        await issuer?.close();
      },
    };
  } catch (error) {
    await listening.close();
    await issuer?.close();
    throw error;
  }
}

/**
 * Environment that makes the app sign in with Google (GOOGLE_CLIENT_*) at this issuer's client,
 * for an app made with `googleIssuer` set to its URL (createTestApp).
 */
function googleEnvOf(issuer: TestIssuer): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: issuer.client.clientId,
    GOOGLE_CLIENT_SECRET: issuer.client.clientSecret,
  };
}

export interface TestIssuer {
  issuer: string;
  client: LocalIssuerClient;
  /** Environment that points the app at this issuer as a generic OpenID Connect provider. */
  env: Record<string, string>;

  close: () => Promise<void>;
}

/**
 * A second, independent OpenID Connect issuer on its own port (oidc-provider, same pages as
 * the local issuer) for cases the app's own local issuer never produces.
 */
export async function startTestIssuer(options: {
  redirectUri: string;
  isEmailVerified?: boolean;
  userinfoGroups?: readonly string[];
  hostedDomain?: string;
}): Promise<TestIssuer> {
  const listening = await listenOnFreePort();
  const issuer = `${listening.origin}/oidc`;
  const client = {
    clientId: 'sticky-test-client',
    clientSecret: 'sticky-test-client-secret-0123456789',
    redirectUri: options.redirectUri,
  };
  const server = Fastify({ logger: false, serverFactory: listening.serverFactory });
  await server.register(localIssuerPlugin, {
    prefix: '/oidc',
    issuer,
    client,
    isEmailVerified: options.isEmailVerified,
    userinfoGroups: options.userinfoGroups,
    hostedDomain: options.hostedDomain,
  });
  await server.ready();
  return {
    issuer,
    client,
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: client.clientId,
      OIDC_CLIENT_SECRET: client.clientSecret,
      OIDC_DISPLAY_NAME: 'Test issuer',
    },
    close: async () => {
      await server.close();
      await listening.close();
    },
  };
}

export const isCallbackUrl = (url: URL) => url.pathname === '/api/auth/callback';

/**
 * Plays the person at the issuer: from an authorization URL (or /api/auth/googleAuth) to the
 * sign-in page, fills it in and submits it. Returns the callback URL the issuer sends the
 * browser to, without visiting it.
 */
export async function reachCallback(
  browser: TestBrowser,
  startUrl: string,
  person: { name: string; email: string },
): Promise<string> {
  const toPage = await browser.navigate(startUrl, {}, { stopAt: isCallbackUrl });
  if (toPage.last.status !== 200) {
    throw new Error(`expected the sign-in page, got ${toPage.last.status} at ${toPage.url}`);
  }
  const form = readForm(toPage.last.body, toPage.last.url);
  const submitted = await browser.navigate(
    form.action,
    { form: { ...form.fields, ...person } },
    { stopAt: isCallbackUrl },
  );
  if (!isCallbackUrl(new URL(submitted.url))) {
    throw new Error(
      `expected to be sent to the callback, ended at ${submitted.url}: ${submitted.last.status} ${submitted.last.body.slice(0, 500)}`,
    );
  }
  return submitted.url;
}

/** The `Set-Cookie` of `name` in an answer, parsed; throws when there is none. */
export function findSetCookie(response: LightMyRequestResponse, name: string): Cookie {
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const found = all.find((value) => value.startsWith(`${name}=`));
  const cookie = found ? Cookie.parse(found) : undefined;
  if (!cookie) throw new Error(`no Set-Cookie for ${name} in ${JSON.stringify(all)}`);
  return cookie;
}

/**
 * A whole sign-in at an app reached by `inject` (its PUBLIC_URL need not listen) configured
 * with a test issuer (`startTestIssuer(...).env`): the start, the person at the issuer, then
 * the callback with the flow cookie the start set. `tamperFlow` may change that cookie's value
 * on the way, as an attacker holding the browser could. Returns the callback's answer as the
 * server sent it.
 */
export async function signInByInject(
  testApp: TestApp,
  person: { name: string; email: string },
  options: { returnTo?: string; tamperFlow?: (value: string) => string } = {},
): Promise<LightMyRequestResponse> {
  const start = await testApp.app.inject(
    `/api/auth/googleAuth?returnTo=${encodeURIComponent(options.returnTo ?? '/')}`,
  );
  if (start.statusCode !== 302) throw new Error(`sign-in did not start: ${start.statusCode}`);
  const name = flowCookieName(testApp.config);
  const flow = findSetCookie(start, name).value;
  const callbackUrl = new URL(
    await reachCallback(new TestBrowser(), start.headers.location as string, person),
  );
  return testApp.app.inject({
    url: callbackUrl.pathname + callbackUrl.search,
    headers: { cookie: `${name}=${options.tamperFlow ? options.tamperFlow(flow) : flow}` },
  });
}
