import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';

const apiKey = 'host-check-key-0123456789abcdefghijkl';

/**
 * The server answers for its own name only (docs/security.md, "Hosts"): a person who typed
 * another name for it lands on PUBLIC_URL, a DNS-rebinding page gets nothing.
 */
describe('the host check', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  async function start(env: Record<string, string> = {}) {
    testApp = await createTestApp({
      PUBLIC_URL: 'http://localhost:3000',
      ALLOWED_HOSTS: '',
      STICKY_API_KEYS: apiKey,
      ...env,
    });
    return testApp.app;
  }

  it('sends a page asked for by another name to the same path on PUBLIC_URL', async () => {
    const app = await start();
    const response = await app.inject({
      url: '/search/cats?type=stickers',
      headers: { host: '127.0.0.1:3000', accept: 'text/html,application/xhtml+xml' },
    });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('http://localhost:3000/search/cats?type=stickers');
  });

  it('redirects a GET or HEAD outside the APIs whatever it accepts, as curl asks', async () => {
    const app = await start();
    // curl, wget and link checkers send `Accept: */*`, not text/html; the page is still a page.
    const asCurl = { host: '127.0.0.1:3000', accept: '*/*' };
    const cases = [
      { method: 'GET', url: '/' },
      { method: 'GET', url: '/gif/dancing-cat-abc123?utm_source=chat' },
      { method: 'HEAD', url: '/' },
      { method: 'HEAD', url: '/sticker/waving-hand-xyz789?type=stickers' },
      // A page path that does not exist lands on the web app's not-found page there.
      { method: 'GET', url: '/no-such-page?x=1' },
      { method: 'GET', url: '/media/no-such-file.gif' },
    ] as const;
    for (const { method, url } of cases) {
      const response = await app.inject({ method, url, headers: asCurl });
      expect(response.statusCode, `${method} ${url}`).toBe(308);
      expect(response.headers.location, `${method} ${url}`).toBe(`http://localhost:3000${url}`);
    }
  });

  it('redirects the pages a person opens inside an API, and refuses the rest of it', async () => {
    const app = await start();
    const asBrowser = { host: '127.0.0.1:3000', accept: 'text/html' };
    for (const url of [
      '/api/auth/googleAuth?returnTo=%2Fsearch%2Fcats',
      '/api/auth/callback?code=abc&state=xyz',
      '/api/docs/',
      '/api/docs/openapi.json',
    ]) {
      const response = await app.inject({ url, headers: asBrowser });
      expect(response.statusCode, url).toBe(308);
      expect(response.headers.location, url).toBe(`http://localhost:3000${url}`);
    }
    // The same routes' other methods, and the API's own routes, are still refused.
    const signOut = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: asBrowser,
    });
    expect(signOut.statusCode).toBe(421);
    const config = await app.inject({ url: '/api/config', headers: asBrowser });
    expect(config.statusCode).toBe(421);
  });

  it('refuses API calls under another name with 421 in each API’s shape, whatever they accept', async () => {
    const app = await start();
    const shapes = [
      {
        url: '/api/config',
        body: {
          success: false,
          error: { code: 'misdirected', message: expect.stringContaining('http://localhost:3000') },
        },
      },
      // An unknown path of an API is still that API's: refused in its shape, not redirected.
      { url: '/api/no-such-route', body: { success: false, error: { code: 'misdirected' } } },
      { url: `/v1/gifs/trending?api_key=${apiKey}`, body: { meta: { status: 421 } } },
      { url: `/v1/no-such-route?api_key=${apiKey}`, body: { meta: { status: 421 } } },
      { url: `/v2/featured?key=${apiKey}`, body: { error: { code: 421 } } },
      { url: `/v2/no-such-route?key=${apiKey}`, body: { error: { code: 421 } } },
      { url: `/v2/emoji?api_key=${apiKey}`, body: { meta: { status: 421 } } },
      {
        url: '/oembed?url=http%3A%2F%2Flocalhost%3A3000%2Fgif%2Fx',
        body: { success: false, error: { code: 'misdirected' } },
      },
    ];
    // A rebinding page's fetch, a navigation to an API's URL, curl: an API is never redirected.
    for (const accept of ['application/json', 'text/html,application/xhtml+xml', '*/*']) {
      const headers = { host: 'attacker.example', accept };
      for (const { url, body } of shapes) {
        const response = await app.inject({ url, headers });
        expect(response.statusCode, `${accept} ${url}`).toBe(421);
        expect(response.json(), `${accept} ${url}`).toMatchObject(body);
      }
    }
  });

  it('refuses HEAD of an API and every other method under another name', async () => {
    const app = await start();
    const headers = { host: '127.0.0.1:3000', accept: 'text/html' };
    for (const url of ['/api/config', `/v1/gifs/trending?api_key=${apiKey}`]) {
      const head = await app.inject({ method: 'HEAD', url, headers });
      expect(head.statusCode, url).toBe(421);
      expect(head.headers.location, url).toBeUndefined();
    }
    // A write is refused even when it says it wants a page: it must never run on a rebound name.
    const writes = [
      { method: 'POST', url: '/api/auth/logout' },
      { method: 'POST', url: '/search/cats' },
      { method: 'DELETE', url: '/' },
    ] as const;
    for (const { method, url } of writes) {
      const write = await app.inject({ method, url, headers });
      expect(write.statusCode, `${method} ${url}`).toBe(421);
    }
  });

  it('answers its own name, names in ALLOWED_HOSTS, and health probes on any name', async () => {
    const app = await start({ ALLOWED_HOSTS: 'gifs.internal' });
    const own = await app.inject({ url: '/api/config', headers: { host: 'LOCALHOST:3000' } });
    expect(own.statusCode).toBe(200);
    const listed = await app.inject({ url: '/api/config', headers: { host: 'gifs.internal' } });
    expect(listed.statusCode).toBe(200);
    const other = await app.inject({ url: '/api/config', headers: { host: 'gifs.example' } });
    expect(other.statusCode).toBe(421);
    for (const url of ['/healthz', '/readyz']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const probe = await app.inject({ method, url, headers: { host: '10.0.0.7:3000' } });
        expect(probe.statusCode, `${method} ${url}`).toBe(200);
      }
      const asBrowser = { host: '10.0.0.7:3000', accept: 'text/html' };
      expect((await app.inject({ url, headers: asBrowser })).statusCode, url).toBe(200);
    }
  });

  it('reads the name from X-Forwarded-Host only when the proxy is trusted', async () => {
    const app = await start({ PUBLIC_URL: 'https://gifs.example', TRUST_PROXY: '127.0.0.1' });
    const proxied = await app.inject({
      url: '/api/config',
      remoteAddress: '127.0.0.1',
      headers: { host: '127.0.0.1:3000', 'x-forwarded-host': 'gifs.example' },
    });
    expect(proxied.statusCode).toBe(200);
    const forged = await app.inject({
      url: '/api/config',
      remoteAddress: '203.0.113.9',
      headers: { host: 'attacker.example', 'x-forwarded-host': 'gifs.example' },
    });
    expect(forged.statusCode).toBe(421);
  });

  it('takes ALLOWED_HOSTS as bare host names, and says which one is not', () => {
    expect(
      loadConfig({ PUBLIC_URL: 'http://localhost:3000', ALLOWED_HOSTS: 'Gifs.Internal, [::1]' })
        .allowedHosts,
    ).toEqual(['localhost', 'gifs.internal', '[::1]']);
    expect(() => loadConfig({ ALLOWED_HOSTS: 'https://gifs.example/' })).toThrow(
      /ALLOWED_HOSTS must be host names.*"https:\/\/gifs\.example\/"/,
    );
  });
});
