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

  it('refuses API calls under another name with 421, in each API’s own error shape', async () => {
    const app = await start();
    const rebound = { host: 'attacker.example', accept: 'application/json' };

    const api = await app.inject({ url: '/api/config', headers: rebound });
    expect(api.statusCode).toBe(421);
    expect(api.json()).toEqual({
      success: false,
      error: { code: 'misdirected', message: expect.stringContaining('http://localhost:3000') },
    });

    const giphy = await app.inject({
      url: `/v1/gifs/trending?api_key=${apiKey}`,
      headers: rebound,
    });
    expect(giphy.statusCode).toBe(421);
    expect(giphy.json()).toMatchObject({ meta: { status: 421 } });

    const tenor = await app.inject({ url: `/v2/featured?key=${apiKey}`, headers: rebound });
    expect(tenor.statusCode).toBe(421);
    expect(tenor.json()).toMatchObject({ error: { code: 421 } });

    // A write is refused even when it says it wants a page: it must never run on a rebound name.
    const write = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...rebound, accept: 'text/html' },
    });
    expect(write.statusCode).toBe(421);
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
      const probe = await app.inject({ url, headers: { host: '10.0.0.7:3000' } });
      expect(probe.statusCode, url).toBe(200);
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
