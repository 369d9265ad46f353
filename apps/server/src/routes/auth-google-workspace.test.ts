import { afterEach, describe, expect, it } from 'vitest';
import { TestBrowser } from '../test-support/browser.ts';
import { reachCallback, startListeningApp } from '../test-support/oidc.ts';
import type { ListeningTestApp } from '../test-support/oidc.ts';

function landingError(location: string | undefined): string | null {
  if (!location) return null;
  const url = new URL(location, 'http://relative.invalid');
  return url.pathname === '/landing' ? url.searchParams.get('error') : null;
}

/**
 * Google with ALLOWED_EMAIL_DOMAINS (docs/security.md, "Sign-in"): a personal Google account
 * can carry a company address, so the company vouches for it only through the ID token's `hd`.
 * A test issuer plays Google here (GOOGLE_CLIENT_* and its URL as Google's), through the whole
 * sign-in: the app's start, the issuer's page, the callback.
 */
describe('Google sign-in with ALLOWED_EMAIL_DOMAINS', () => {
  let app: ListeningTestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const signIn = async (started: ListeningTestApp) => {
    const browser = new TestBrowser();
    const leave = await browser.request(`${started.baseUrl}/api/auth/googleAuth`);
    expect(leave.location!.startsWith(`${started.issuer!.issuer}/auth?`)).toBe(true);
    // Taken for Google: it is asked to let the person choose their account.
    expect(new URL(leave.location!).searchParams.get('prompt')).toBe('select_account');
    const callbackUrl = await reachCallback(browser, leave.location!, {
      name: 'Casey',
      email: 'casey@corp.example',
    });
    const callback = await browser.request(callbackUrl);
    const me = await browser.request(`${started.baseUrl}/api/auth/me`);
    return { callback, me };
  };

  it('refuses an address of the domain whose ID token has no hd (a personal account): no session', async () => {
    app = await startListeningApp(
      { ALLOWED_EMAIL_DOMAINS: 'corp.example' },
      { hasOwnIssuer: { isGoogle: true } },
    );
    const { callback, me } = await signIn(app);
    expect(landingError(callback.location)).toBe('not_allowed');
    expect(callback.setCookies.some((value) => value.startsWith('sticky_session='))).toBe(false);
    expect(me.status).toBe(401);
    const users = await app.database.pool.query('SELECT count(*)::int AS n FROM users');
    expect(users.rows).toEqual([{ n: 0 }]);
  });

  it('signs in an address of the domain whose ID token says hd=corp.example', async () => {
    app = await startListeningApp(
      { ALLOWED_EMAIL_DOMAINS: 'corp.example' },
      { hasOwnIssuer: { isGoogle: true, hostedDomain: 'corp.example' } },
    );
    const { callback, me } = await signIn(app);
    expect(landingError(callback.location)).toBeNull();
    expect(callback.setCookies.some((value) => value.startsWith('sticky_session='))).toBe(true);
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).user).toMatchObject({ email: 'casey@corp.example' });
  });
});
