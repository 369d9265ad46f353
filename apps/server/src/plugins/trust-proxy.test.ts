import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';

/**
 * Whose word the client's address is (docs/security.md, "Who is asking"): every per-address
 * limit and log line reads `request.ip`, so only proxies the operator names may set it.
 */
describe('TRUST_PROXY', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  async function addressSeen(
    env: Record<string, string>,
    remoteAddress: string,
    forwarded: string,
  ) {
    testApp = await createTestApp(env);
    testApp.app.get('/test-only/address', async (request) => ({ ip: request.ip }));
    const response = await testApp.app.inject({
      url: '/test-only/address',
      remoteAddress,
      headers: { 'x-forwarded-for': forwarded },
    });
    const { ip } = response.json() as { ip: string };
    await testApp.close();
    testApp = undefined;
    return ip;
  }

  it('believes no X-Forwarded-For by default, in production too', async () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://sticky.example',
      OIDC_ISSUER: 'https://issuer.example',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
    };
    expect(await addressSeen(production, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    expect(await addressSeen({}, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
  });

  it('believes the proxies it names, by address, CIDR or hop count, and no one else', async () => {
    const proxy = { TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' };
    expect(await addressSeen(proxy, '10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
    expect(await addressSeen(proxy, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    expect(await addressSeen({ TRUST_PROXY: '1' }, '10.1.2.3', '192.0.2.1, 203.0.113.9')).toBe(
      '203.0.113.9',
    );
  });

  it('refuses a setting it cannot read, and a production PUBLIC_URL without https', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY must be a number/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      OIDC_ISSUER: 'https://issuer.example',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
    };
    expect(() => loadConfig({ ...production, PUBLIC_URL: 'http://gifs.example.com' })).toThrow(
      /PUBLIC_URL must be an https URL in production/,
    );
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://gifs.example.com' }).isHttps).toBe(
      true,
    );
    expect(loadConfig({ ...production, PUBLIC_URL: 'http://localhost:3000' }).publicUrl).toBe(
      'http://localhost:3000',
    );
  });
});
