import { meResponseSchema } from '@sticky/contracts';
import { eq } from 'drizzle-orm';
import { Cookie } from 'tough-cookie';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../auth/sessions.ts';
import { sessions, users } from '../db/schema.ts';
import { readForm, TestBrowser } from '../test-support/browser.ts';
import type { BrowserResponse } from '../test-support/browser.ts';
import { isCallbackUrl, reachCallback, startListeningApp } from '../test-support/oidc.ts';
import type { ListeningTestApp } from '../test-support/oidc.ts';

const ada = { name: 'Ada Lovelace', email: 'ada@example.com' };

function cookieSet(response: BrowserResponse, name: string): Cookie {
  const header = response.setCookies.find((value) => value.startsWith(`${name}=`));
  if (!header)
    throw new Error(`no Set-Cookie for ${name} in ${JSON.stringify(response.setCookies)}`);
  return Cookie.parse(header)!;
}

function landingError(url: string | undefined): string | null {
  if (!url) return null;
  const parsed = new URL(url, 'http://relative.invalid');
  return parsed.pathname === '/landing' ? parsed.searchParams.get('error') : null;
}

describe('sign-in with the local issuer', () => {
  let app: ListeningTestApp;
  const url = (path: string) => `${app.baseUrl}${path}`;
  const start = () => url('/api/auth/googleAuth');

  const me = (browser: TestBrowser) => browser.request(url('/api/auth/me'));
  const logout = (browser: TestBrowser, headers: Record<string, string> = {}) =>
    browser.request(url('/api/auth/logout'), {
      method: 'POST',
      headers: { origin: app.baseUrl, 'sec-fetch-site': 'same-origin', ...headers },
    });

  /** Signs in as `person` in `browser`; returns the callback's response. */
  async function signIn(browser: TestBrowser, person = ada, startUrl = start()) {
    const callbackUrl = await reachCallback(browser, startUrl, person);
    return browser.request(callbackUrl);
  }

  const startWarnings: string[] = [];
  beforeAll(async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      startWarnings.push(args.map(String).join(' '));
    });
    try {
      app = await startListeningApp();
    } finally {
      warn.mockRestore();
    }
  });
  afterAll(async () => {
    await app.close();
  });

  it('starts without the warnings oidc-provider prints for production deployments', () => {
    // `npm start` with no provider configured printed "you MUST change it" about its store.
    expect(startWarnings.filter((line) => line.includes('oidc-provider'))).toEqual([]);
  });

  it('runs the whole flow: issuer page, callback, /me, logout', async () => {
    const browser = new TestBrowser();
    const before = await me(browser);
    expect(before.status).toBe(401);
    expect(JSON.parse(before.body)).toEqual({ success: false, user: null });

    // Leaving for the issuer: PKCE S256, state and nonce, and our callback as redirect_uri.
    const leave = await browser.request(start());
    expect(leave.status).toBe(302);
    const authorize = new URL(leave.location!);
    expect(authorize.origin + authorize.pathname).toBe(url('/oidc/auth'));
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(authorize.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(authorize.searchParams.get('redirect_uri')).toBe(url('/api/auth/callback'));
    expect(authorize.searchParams.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'email', 'profile']),
    );
    const flowCookie = cookieSet(leave, 'sticky_signin');
    expect(flowCookie).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/', secure: false });
    expect(flowCookie.maxAge).toBe(600);
    // The verifier, state and nonce are in the cookie, not guessable from the URL.
    expect(flowCookie.value).not.toContain(authorize.searchParams.get('code_challenge'));

    // The issuer's sign-in page says what it is, is pre-filled, and runs no script.
    const page = await browser.navigate(leave.location!, {}, { stopAt: isCallbackUrl });
    expect(page.last.status).toBe(200);
    expect(page.last.headers.get('content-type')).toContain('text/html');
    expect(page.last.body).toContain('This is a local sign-in');
    expect(page.last.body).toContain('because Google is not configured');
    expect(page.last.body).toContain('value="Demo User"');
    expect(page.last.body).toContain('value="demo@sticky.local"');
    expect(page.last.body).not.toMatch(/<script/i);
    // Enter submits with the first button: that must be Continue, not Cancel.
    expect(page.last.body.indexOf('>Continue<')).toBeLessThan(page.last.body.indexOf('>Cancel<'));
    expect(page.last.headers.get('content-security-policy')).toContain("script-src 'self'");

    const callbackUrl = await reachCallback(browser, start(), ada);
    const callback = await browser.request(callbackUrl);
    expect(callback.status).toBe(302);
    expect(callback.location).toBe(url('/'));
    const sessionCookie = cookieSet(callback, 'sticky_session');
    expect(sessionCookie).toMatchObject({
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: false,
    });
    expect(sessionCookie.maxAge).toBe(30 * 24 * 60 * 60);
    expect(sessionCookie.value).toMatch(/^[\w-]{43}$/);
    expect(cookieSet(callback, 'sticky_signin').value).toBe('');

    // Only the hash of the token is stored.
    const stored = await app.database.db.select().from(sessions);
    expect(stored.map((row) => row.tokenHash)).toContain(hashToken(sessionCookie.value));
    expect(stored.map((row) => row.tokenHash)).not.toContain(sessionCookie.value);

    const signedIn = await me(browser);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    const body = meResponseSchema.parse(JSON.parse(signedIn.body));
    expect(body).toEqual({
      success: true,
      user: {
        id: expect.any(String),
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        picture: null,
        isAdmin: false,
        canUpload: true,
      },
    });

    const out = await logout(browser);
    expect(out.status).toBe(200);
    expect(JSON.parse(out.body)).toEqual({ success: true });
    const cleared = cookieSet(out, 'sticky_session');
    expect(cleared).toMatchObject({ value: '', httpOnly: true, sameSite: 'lax', path: '/' });
    expect((await me(browser)).status).toBe(401);
  });

  it('keeps one user per email and starts a brand-new session on every sign-in', async () => {
    const browser = new TestBrowser();
    await signIn(browser, ada);
    const first = await browser.cookieValue(app.baseUrl, 'sticky_session');
    const firstUser = JSON.parse((await me(browser)).body).user;

    await signIn(browser, { name: 'Ada King', email: 'ADA@example.com' });
    const second = await browser.cookieValue(app.baseUrl, 'sticky_session');
    expect(second).not.toBe(first);
    const secondUser = JSON.parse((await me(browser)).body).user;
    expect(secondUser).toEqual({ ...firstUser, name: 'Ada King' });

    // The session the browser held before signing in again is gone, not merely replaced.
    const stale = await new TestBrowser().request(url('/api/auth/me'), {
      headers: { cookie: `sticky_session=${first}` },
    });
    expect(stale.status).toBe(401);

    await signIn(browser, { name: 'Grace Hopper', email: 'grace@example.com' });
    const grace = JSON.parse((await me(browser)).body).user;
    expect(grace.id).not.toBe(firstUser.id);
  });

  it('comes back to returnTo after signing in', async () => {
    const browser = new TestBrowser();
    const callback = await signIn(
      browser,
      ada,
      url(`/api/auth/googleAuth?returnTo=${encodeURIComponent('/search/funny cats?x=1')}`),
    );
    expect(callback.location).toBe(url('/search/funny%20cats?x=1'));
    expect((await me(browser)).status).toBe(200);
  });

  it('refuses a returnTo pointing off-site before leaving for the issuer', async () => {
    for (const returnTo of [
      '//evil.example/steal',
      '/\\evil.example',
      'https://evil.example/',
      '/\t/evil.example',
      'javascript:alert(1)',
    ]) {
      const browser = new TestBrowser();
      const response = await browser.request(
        url(`/api/auth/googleAuth?returnTo=${encodeURIComponent(returnTo)}`),
      );
      expect(response.status, returnTo).toBe(302);
      expect(landingError(response.location), returnTo).toBe('invalid_return_to');
      expect(response.location!.startsWith(`${app.baseUrl}/landing`)).toBe(true);
      expect(response.setCookies).toEqual([]);
    }
  });

  it('refuses a callback whose state was tampered with', async () => {
    const browser = new TestBrowser();
    const callbackUrl = new URL(await reachCallback(browser, start(), ada));
    callbackUrl.searchParams.set('state', 'not-the-state-we-sent');
    const response = await browser.request(callbackUrl.href);
    expect(landingError(response.location)).toBe('state_mismatch');
    expect(response.setCookies.some((value) => value.startsWith('sticky_session='))).toBe(false);
    expect((await me(browser)).status).toBe(401);
  });

  it('refuses a callback without state', async () => {
    const browser = new TestBrowser();
    const genuine = await reachCallback(browser, start(), ada);
    const withoutState = new URL(genuine);
    withoutState.searchParams.delete('state');
    const response = await browser.request(withoutState.href);
    expect(landingError(response.location)).toBe('state_mismatch');
    expect((await me(browser)).status).toBe(401);
    // The refused attempt spent the flow: the genuine answer cannot be used after it.
    expect(landingError((await browser.request(genuine)).location)).toBe('flow_expired');
  });

  it('refuses a flow cookie that was forged or altered', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await reachCallback(browser, start(), ada);
    const genuine = (await browser.cookieValue(app.baseUrl, 'sticky_signin'))!;
    const [payload, signature] = [
      genuine.slice(0, genuine.lastIndexOf('.')),
      genuine.slice(genuine.lastIndexOf('.') + 1),
    ];
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...flow, returnTo: '/elsewhere' })).toString(
      'base64url',
    );
    const response = await new TestBrowser().request(callbackUrl, {
      headers: { cookie: `sticky_signin=${altered}.${signature}` },
    });
    expect(landingError(response.location)).toBe('state_mismatch');
    expect(response.setCookies.some((value) => value.startsWith('sticky_session='))).toBe(false);
  });

  it('refuses a replayed code', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await reachCallback(browser, start(), ada);
    const flowCookie = (await browser.cookieValue(app.baseUrl, 'sticky_signin'))!;
    expect((await browser.request(callbackUrl)).location).toBe(url('/'));

    // Someone who copied both the callback URL and the flow cookie replays them.
    const attacker = new TestBrowser();
    const replay = await attacker.request(callbackUrl, {
      headers: { cookie: `sticky_signin=${flowCookie}` },
    });
    expect(landingError(replay.location)).toBe('code_invalid');
    expect(replay.setCookies.some((value) => value.startsWith('sticky_session='))).toBe(false);
    expect((await me(attacker)).status).toBe(401);

    // The same browser replaying it has no flow left.
    const again = await browser.request(callbackUrl);
    expect(landingError(again.location)).toBe('flow_expired');
  });

  it('refuses an ID token carrying another nonce', async () => {
    const browser = new TestBrowser();
    const leave = await browser.request(start());
    const authorize = new URL(leave.location!);
    // The authorization request is altered on its way to the issuer: state and PKCE still
    // match, so only the ID token's nonce gives it away.
    authorize.searchParams.set('nonce', 'a-nonce-we-never-sent-0123456789');
    const response = await browser.request(await reachCallback(browser, authorize.href, ada));
    expect(landingError(response.location)).toBe('token_invalid');
    expect((await me(browser)).status).toBe(401);
  });

  it('refuses an expired flow cookie', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await reachCallback(browser, start(), ada);
    const flowCookie = (await browser.cookieValue(app.baseUrl, 'sticky_signin'))!;
    // The cookie replayed below is this flow's, readable and in date: its state is the
    // callback's, and with it a callback gets past every check of the cookie, to the code (a
    // wrong one here, so the flow's own code stays unused).
    const flow = JSON.parse(
      Buffer.from(flowCookie.split('.')[0]!, 'base64url').toString('utf8'),
    ) as { state: string; expiresAt: number };
    expect(flow.state).toBe(new URL(callbackUrl).searchParams.get('state'));
    expect(flow.expiresAt).toBeGreaterThan(Date.now());
    const wrongCode = new URL(callbackUrl);
    wrongCode.searchParams.set('code', 'not-the-code-of-this-flow');
    const inDate = await new TestBrowser().request(wrongCode.href, {
      headers: { cookie: `sticky_signin=${flowCookie}` },
    });
    expect(landingError(inDate.location)).toBe('code_invalid');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(flow.expiresAt);
      // Kept to the end of its lifetime (a browser would have dropped it; a replay would not).
      const response = await new TestBrowser().request(callbackUrl, {
        headers: { cookie: `sticky_signin=${flowCookie}` },
      });
      expect(landingError(response.location)).toBe('flow_expired');
      expect(response.setCookies.some((value) => value.startsWith('sticky_session='))).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a callback when the flow cookie is gone', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await reachCallback(browser, start(), ada);
    const response = await new TestBrowser().request(callbackUrl);
    expect(landingError(response.location)).toBe('flow_expired');
  });

  it('sends the person back to the landing page when they cancel at the issuer', async () => {
    const browser = new TestBrowser();
    const page = await browser.navigate(start(), {}, { stopAt: isCallbackUrl });
    const abort = /formaction="([^"]+\/abort)"/.exec(page.last.body)?.[1];
    expect(abort).toBeDefined();
    const cancelled = await browser.navigate(
      new URL(abort!, page.last.url).href,
      { form: {} },
      { stopAt: isCallbackUrl },
    );
    const response = await browser.request(cancelled.url);
    expect(landingError(response.location)).toBe('access_denied');
    expect((await me(browser)).status).toBe(401);
  });

  it('refuses logout from another origin', async () => {
    const browser = new TestBrowser();
    await signIn(browser);
    const crossSite = await logout(browser, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body)).toMatchObject({
      success: false,
      error: { code: 'forbidden' },
    });
    const otherOrigin = await logout(browser, {
      origin: 'https://evil.example',
      'sec-fetch-site': '',
    });
    expect(otherOrigin.status).toBe(403);
    expect((await me(browser)).status).toBe(200);
  });

  it('refuses a session cookie after logout', async () => {
    const browser = new TestBrowser();
    await signIn(browser);
    const token = (await browser.cookieValue(app.baseUrl, 'sticky_session'))!;
    expect((await logout(browser)).status).toBe(200);
    const replay = await new TestBrowser().request(url('/api/auth/me'), {
      headers: { cookie: `sticky_session=${token}` },
    });
    expect(replay.status).toBe(401);
    expect(JSON.parse(replay.body)).toEqual({ success: false, user: null });
    const rows = await app.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(rows).toEqual([]);
  });

  it('re-asks for a valid name and email on the sign-in page', async () => {
    const browser = new TestBrowser();
    const page = await browser.navigate(start(), {}, { stopAt: isCallbackUrl });
    const { action } = readForm(page.last.body, page.last.url);
    const response = await browser.request(action, {
      form: { name: '  ', email: 'not-an-email' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toContain('Enter your name.');
    expect(response.body).toContain('Enter an email address like name@example.com.');
    expect(response.body).toContain('aria-invalid="true"');
    expect(response.body).toContain('value="not-an-email"');
  });

  it('says the sign-in page expired when its cookie is gone', async () => {
    const page = await new TestBrowser().navigate(start(), {}, { stopAt: isCallbackUrl });
    const response = await new TestBrowser().request(page.last.url);
    expect(response.status).toBe(400);
    expect(response.body).toContain('This sign-in page has expired');
  });
});

describe('sign-in on a private instance', () => {
  let app: ListeningTestApp;
  beforeAll(async () => {
    app = await startListeningApp(
      { ALLOWED_EMAILS: 'friend@example.com', ALLOWED_EMAIL_DOMAINS: 'team.example' },
      { hasOwnIssuer: true },
    );
  });
  afterAll(async () => {
    await app.close();
  });

  async function trySignIn(email: string) {
    const browser = new TestBrowser();
    const callbackUrl = await reachCallback(browser, `${app.baseUrl}/api/auth/googleAuth`, {
      name: 'Someone',
      email,
    });
    const response = await browser.request(callbackUrl);
    const me = await browser.request(`${app.baseUrl}/api/auth/me`);
    return { response, me };
  }

  it('turns away an email outside the allow-list, with no session and no account', async () => {
    const { response, me } = await trySignIn('stranger@example.com');
    expect(landingError(response.location)).toBe('not_allowed');
    expect(response.setCookies.some((value) => value.startsWith('sticky_session='))).toBe(false);
    expect(me.status).toBe(401);
    const rows = await app.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'stranger@example.com'));
    expect(rows).toEqual([]);
  });

  it('lets in listed emails and domains', async () => {
    for (const email of ['Friend@Example.com', 'someone@team.example']) {
      const { response, me } = await trySignIn(email);
      expect(response.location, email).toBe(`${app.baseUrl}/`);
      expect(me.status, email).toBe(200);
    }
  });
});

describe('auth rate limits', () => {
  let app: ListeningTestApp;
  beforeAll(async () => {
    // A long window: no budget renews in the middle of a burst on a slow machine.
    app = await startListeningApp({}, { rateLimitWindowMs: 60 * 60_000 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('sends a browser hammering sign-in to the landing page with a clear code', async () => {
    const codes: (string | null)[] = [];
    for (let i = 0; i < 61; i += 1) {
      const response = await app.app.inject('/api/auth/callback?state=x&code=y');
      codes.push(landingError(response.headers.location as string));
    }
    expect(codes.slice(0, 60)).toEqual(Array(60).fill('flow_expired'));
    expect(codes[60]).toBe('rate_limited');
  });

  it('answers 429 through the error handler on /me', async () => {
    let last;
    for (let i = 0; i < 601; i += 1) last = await app.app.inject('/api/auth/me');
    expect(last!.statusCode).toBe(429);
    expect(last!.json()).toMatchObject({ success: false, error: { code: 'rate_limited' } });
  });
});
