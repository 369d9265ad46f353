import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReturnTo } from '../auth/return-to.ts';
import { sessionCookieName } from '../auth/sessions.ts';
import { loadConfig } from '../config/env.ts';
import { TestBrowser } from '../test-support/browser.ts';
import { readFuzzSettings } from '../test-support/fuzz.ts';
import {
  findSetCookie,
  reachCallback,
  signInByInject,
  startListeningApp,
} from '../test-support/oidc.ts';
import type { ListeningTestApp } from '../test-support/oidc.ts';
import { signInAs } from '../test-support/sign-in.ts';

const fuzz = readFuzzSettings('sign-in-attacks');
const numRuns = fuzz.runs * 40;
const ada = { name: 'Ada Lovelace', email: 'ada@example.com' };

/** Where a browser goes when it follows `Location: value` from a page on `origin`. */
function browserTarget(value: string, origin: string): URL {
  // Browsers drop tabs and newlines from URLs and read "\" as "/" in http(s) URLs.
  return new URL(value.replace(/[\t\n\r]/g, '').replace(/\\/g, '/'), origin);
}

/** Values made to look like paths but aimed elsewhere: every trick we know, recombined. */
const trickyReturnTo = fc
  .tuple(
    fc.constantFrom('/', '//', '/\\', '\\', '/./', '/../', '/%2e/', '/.%2e/', '/a/../', ''),
    fc.constantFrom('', '/', '\\', '.', '..', '%2f', '%5c', '\t', '\n', '@', ':'),
    fc.constantFrom('evil.example', 'evil.example:443', 'user@evil.example', '%65vil.example', ''),
    fc.string({ maxLength: 12 }),
  )
  .map((parts) => parts.join(''));

describe('open redirects', () => {
  it('parseReturnTo only ever returns a path a browser keeps on this site', () => {
    const origin = 'https://sticky.example';
    fc.assert(
      fc.property(fc.oneof(trickyReturnTo, fc.string({ maxLength: 40 })), (value) => {
        const path = parseReturnTo(value);
        if (path === null) return;
        expect(path.startsWith('/')).toBe(true);
        expect(browserTarget(path, origin).origin).toBe(origin);
      }),
      { numRuns, seed: fuzz.seed },
    );
  });

  it('refuses a returnTo that becomes "//host" once dot segments are resolved', () => {
    for (const value of [
      '/.//evil.example',
      '/..//evil.example',
      '/a/..//evil.example',
      '/%2e//evil.example',
    ]) {
      expect(parseReturnTo(value), value).toBeNull();
    }
  });
});

describe('sign-in flows under attack', () => {
  let app: ListeningTestApp;
  const url = (path: string) => `${app.baseUrl}${path}`;

  beforeAll(async () => {
    app = await startListeningApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('never sends the browser off-site after sign-in, whatever returnTo was', async () => {
    const values = [
      '/.//evil.example',
      '/..//evil.example/x',
      '/%2e%2e//evil.example',
      '/\\evil.example',
      '//evil.example',
      '/%2F%2Fevil.example',
      '/ /evil.example',
      'https://evil.example',
      '/search/cats?next=//evil.example#//evil',
    ];
    for (const returnTo of values) {
      const browser = new TestBrowser();
      const start = url(`/api/auth/googleAuth?returnTo=${encodeURIComponent(returnTo)}`);
      const leave = await browser.request(start);
      expect(leave.status, returnTo).toBe(302);
      const leaveTarget = new URL(leave.location!);
      if (leaveTarget.pathname === '/landing') {
        expect(leaveTarget.searchParams.get('error'), returnTo).toBe('invalid_return_to');
        continue;
      }
      const callback = await browser.request(await reachCallback(browser, start, ada));
      expect(callback.status, returnTo).toBe(302);
      expect(browserTarget(callback.location!, app.baseUrl).origin, returnTo).toBe(app.baseUrl);
    }
  });

  it('does not redirect to an unregistered redirect_uri at the issuer', async () => {
    const browser = new TestBrowser();
    const ask = (redirectUri: string) =>
      browser.request(
        url(
          `/oidc/auth?client_id=sticky&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(redirectUri)}`,
        ),
      );
    // The control: the registered redirect_uri does lead on (to the sign-in page).
    const registered = await ask(`${app.baseUrl}/api/auth/callback`);
    expect(registered.status).toBe(303);
    expect(new URL(registered.location!).origin).toBe(app.baseUrl);
    // Another one gets an error page from the issuer itself, and no redirect anywhere.
    const response = await ask('https://evil.example/cb');
    expect(response.status).toBe(400);
    expect(response.location).toBeUndefined();
    expect(response.body).toContain('redirect_uri');
  });

  it('refuses a tampered PKCE verifier at the token exchange: the sign-in lands on code_invalid', async () => {
    // The flow cookie is signed, so only someone holding SESSION_SECRET could swap the
    // verifier in it: the test plays that attacker, to reach the issuer's own check.
    const replaceVerifier = (signed: string) => {
      const unsigned = app.app.unsignCookie(signed);
      expect(unsigned.valid).toBe(true);
      const flow = JSON.parse(Buffer.from(unsigned.value!, 'base64url').toString('utf8'));
      const tampered = { ...flow, codeVerifier: `${flow.codeVerifier.slice(0, -4)}AAAA` };
      expect(tampered.codeVerifier).not.toBe(flow.codeVerifier);
      return app.app.signCookie(Buffer.from(JSON.stringify(tampered)).toString('base64url'));
    };
    const refused = await signInByInject(app, ada, { tamperFlow: replaceVerifier });
    expect(refused.statusCode).toBe(302);
    expect(refused.headers.location).toBe('/landing?error=code_invalid');
    const cookies = [refused.headers['set-cookie'] ?? []].flat();
    expect(cookies.some((value) => value.startsWith('sticky_session='))).toBe(false);

    // The control: the same flow, untouched, signs in.
    const accepted = await signInByInject(app, ada);
    expect(accepted.statusCode).toBe(302);
    expect(accepted.headers.location).toBe('/');
    expect(findSetCookie(accepted, 'sticky_session').value).toMatch(/^[\w-]{43}$/);
  });

  it('gives a new session id at sign-in: a planted session token is not adopted', async () => {
    // The attacker's own, valid session, planted in the victim's browser.
    const attacker = await signInAs(app, { email: 'mallory@example.com', name: 'Mallory' });
    const planted = attacker.cookie.split('=')[1]!;
    const victim = new TestBrowser();
    await victim.jar.setCookie(`sticky_session=${planted}; Path=/; HttpOnly`, app.baseUrl);
    const callback = await victim.request(
      await reachCallback(victim, url('/api/auth/googleAuth'), ada),
    );
    expect(callback.status).toBe(302);
    const issued = await victim.cookieValue(app.baseUrl, 'sticky_session');
    expect(issued).toBeDefined();
    expect(issued).not.toBe(planted);
    const me = JSON.parse((await victim.request(url('/api/auth/me'))).body);
    expect(me.user.email).toBe('ada@example.com');
    // The planted token is dead: the attacker cannot ride the victim's sign-in with it.
    const replay = await new TestBrowser().request(url('/api/auth/me'), {
      headers: { cookie: `sticky_session=${planted}` },
    });
    expect(replay.status).toBe(401);
  });

  it('ignores a session token the attacker made up', async () => {
    const victim = new TestBrowser();
    const chosen = 'A'.repeat(43);
    await victim.jar.setCookie(`sticky_session=${chosen}; Path=/`, app.baseUrl);
    await victim.request(await reachCallback(victim, url('/api/auth/googleAuth'), ada));
    expect(await victim.cookieValue(app.baseUrl, 'sticky_session')).not.toBe(chosen);
    const replay = await new TestBrowser().request(url('/api/auth/me'), {
      headers: { cookie: `sticky_session=${chosen}` },
    });
    expect(replay.status).toBe(401);
  });

  it('names the session cookie __Host- over https, so a subdomain cannot plant one', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'https://sticky.example',
      SESSION_SECRET: 'x'.repeat(40),
      LOCAL_SIGN_IN: '1',
    });
    expect(sessionCookieName(config)).toBe('__Host-sticky_session');
  });
});
