import { Cookie } from 'tough-cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { TestBrowser } from '../test-support/browser.ts';
import { listenOnFreePort } from '../test-support/listen.ts';
import type { ListeningServer } from '../test-support/listen.ts';
import { reachCallback, startListeningApp, startTestIssuer } from '../test-support/oidc.ts';
import type { ListeningTestApp, TestIssuer } from '../test-support/oidc.ts';

/** Sign-in against an issuer that is not the app's own (OIDC_ISSUER), as with Keycloak. */

function landingError(location: string | undefined): string | null {
  if (!location) return null;
  const url = new URL(location, 'http://relative.invalid');
  return url.pathname === '/landing' ? url.searchParams.get('error') : null;
}

function parseSetCookie(header: string | string[] | undefined, name: string): Cookie {
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const found = all.find((value) => value.startsWith(`${name}=`));
  if (!found) throw new Error(`no Set-Cookie for ${name} in ${JSON.stringify(all)}`);
  return Cookie.parse(found)!;
}

describe('an issuer that has not verified the email', () => {
  let app: ListeningTestApp;
  let issuer: TestIssuer;
  beforeAll(async () => {
    app = await startListeningApp({}, { hasOwnIssuer: { isEmailVerified: false } });
    issuer = app.issuer!;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is refused with no session', async () => {
    const browser = new TestBrowser();
    const leave = await browser.request(`${app.baseUrl}/api/auth/googleAuth`);
    expect(leave.location!.startsWith(`${issuer.issuer}/auth?`)).toBe(true);
    const callbackUrl = await reachCallback(browser, leave.location!, {
      name: 'Unverified',
      email: 'unverified@example.com',
    });
    const response = await browser.request(callbackUrl);
    expect(landingError(response.location)).toBe('email_unverified');
    expect(response.setCookies.some((value) => value.startsWith('sticky_session='))).toBe(false);
    expect((await browser.request(`${app.baseUrl}/api/auth/me`)).status).toBe(401);
  });
});

describe('sign-in when PUBLIC_URL is https', () => {
  const publicUrl = 'https://sticky.test';
  let issuer: TestIssuer;
  let testApp: TestApp;
  beforeAll(async () => {
    issuer = await startTestIssuer({ redirectUri: `${publicUrl}/api/auth/callback` });
    testApp = await createTestApp({ PUBLIC_URL: publicUrl, ...issuer.env });
  });
  afterAll(async () => {
    await testApp?.close();
    await issuer?.close();
  });

  it('uses Secure, __Host- prefixed cookies for the flow and the session', async () => {
    const leave = await testApp.app.inject('/api/auth/googleAuth?returnTo=/favorite');
    expect(leave.statusCode).toBe(302);
    const flowCookie = parseSetCookie(leave.headers['set-cookie'], '__Host-sticky_signin');
    expect(flowCookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'lax', path: '/' });
    expect(flowCookie.domain).toBeNull();

    const browser = new TestBrowser();
    const callbackUrl = new URL(
      await reachCallback(browser, leave.headers.location as string, {
        name: 'Secure Sam',
        email: 'sam@example.com',
      }),
    );
    expect(callbackUrl.origin).toBe(publicUrl);

    const callback = await testApp.app.inject({
      url: callbackUrl.pathname + callbackUrl.search,
      headers: { cookie: `__Host-sticky_signin=${flowCookie.value}` },
    });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/favorite');
    const session = parseSetCookie(callback.headers['set-cookie'], '__Host-sticky_session');
    expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'lax', path: '/' });
    expect(session.domain).toBeNull();
    const clearedFlow = parseSetCookie(callback.headers['set-cookie'], '__Host-sticky_signin');
    expect(clearedFlow).toMatchObject({ value: '', secure: true, path: '/' });

    const me = await testApp.app.inject({
      url: '/api/auth/me',
      headers: { cookie: `__Host-sticky_session=${session.value}` },
    });
    expect(me.json()).toMatchObject({ success: true, user: { email: 'sam@example.com' } });
    // Without the prefix the cookie is someone else's (a subdomain could have set it).
    const unprefixed = await testApp.app.inject({
      url: '/api/auth/me',
      headers: { cookie: `sticky_session=${session.value}` },
    });
    expect(unprefixed.statusCode).toBe(401);

    const out = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: `__Host-sticky_session=${session.value}`, origin: publicUrl },
    });
    expect(out.json()).toEqual({ success: true });
    const cleared = parseSetCookie(out.headers['set-cookie'], '__Host-sticky_session');
    expect(cleared).toMatchObject({ value: '', secure: true, httpOnly: true, path: '/' });
  });
});

describe('an issuer that cannot be reached', () => {
  let testApp: TestApp;
  let unreachable: ListeningServer;
  beforeAll(async () => {
    // Our own port, where every connection is cut before an answer.
    unreachable = await listenOnFreePort();
    unreachable.serverFactory((request) => request.socket.destroy(), {});
    testApp = await createTestApp({
      OIDC_ISSUER: `${unreachable.origin}/realms/sticky`,
      OIDC_CLIENT_ID: 'sticky',
      OIDC_CLIENT_SECRET: 'secret',
    });
  });
  afterAll(async () => {
    await testApp?.close();
    await unreachable?.close();
  });

  it('sends the browser back to the landing page with provider_error', async () => {
    const response = await testApp.app.inject('/api/auth/googleAuth');
    expect(response.statusCode).toBe(302);
    expect(landingError(response.headers.location as string)).toBe('provider_error');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('does not mount the local issuer when another issuer is configured', async () => {
    const response = await testApp.app.inject('/oidc/.well-known/openid-configuration');
    expect(response.statusCode).toBe(404);
  });
});

describe('admins by OIDC group, when the issuer tells groups at userinfo only', () => {
  let app: ListeningTestApp;
  beforeAll(async () => {
    app = await startListeningApp(
      { OIDC_ADMIN_GROUPS: 'sticky-admins' },
      { hasOwnIssuer: { userinfoGroups: ['staff', 'sticky-admins'] } },
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reads the groups from userinfo and makes the person an admin', async () => {
    const browser = new TestBrowser();
    const leave = await browser.request(`${app.baseUrl}/api/auth/googleAuth`);
    const callbackUrl = await reachCallback(browser, leave.location!, {
      name: 'Grouped',
      email: 'grouped@example.com',
    });
    await browser.request(callbackUrl);
    const me = await browser.request(`${app.baseUrl}/api/auth/me`);
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).user).toMatchObject({ email: 'grouped@example.com', isAdmin: true });
    const stored = await app.database.pool.query('SELECT groups FROM users');
    expect(stored.rows).toEqual([{ groups: ['staff', 'sticky-admins'] }]);
  });
});
