import { clientConfigSchema } from '@sticky/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { buildClientConfig } from './config.ts';

describe('GET /api/config', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it('points the SPA at our own catalog by default, without a session', async () => {
    testApp = await createTestApp();
    const response = await testApp.app.inject('/api/config');
    expect(response.statusCode).toBe(200);
    const body = clientConfigSchema.parse(response.json());
    expect(body).toEqual({
      source: 'local',
      apiKey: expect.any(String),
      analyticsScriptUrl: null,
      analyticsScriptIntegrity: null,
      publicLinks: false,
      canBecomeAdminLocally: true,
    });
    expect(body.apiKey).not.toBe('');
  });

  it('hands out GIPHY’s public key and API base in giphy mode, and the analytics script', async () => {
    testApp = await createTestApp({
      GIPHY_API_KEY: 'test-key',
      GIPHY_API_URL: 'http://127.0.0.1:9/v1',
      ANALYTICS_SCRIPT_URL: 'https://stats.example.com/script.js',
      ANALYTICS_SCRIPT_INTEGRITY: 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
    });
    const response = await testApp.app.inject('/api/config');
    expect(clientConfigSchema.parse(response.json())).toEqual({
      source: 'giphy',
      apiKey: 'test-key',
      apiUrl: 'http://127.0.0.1:9/v1',
      analyticsScriptUrl: 'https://stats.example.com/script.js',
      analyticsScriptIntegrity: 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
    });
  });

  it('defaults the GIPHY API base to GIPHY itself', async () => {
    testApp = await createTestApp({ GIPHY_API_KEY: 'k' });
    const body = (await testApp.app.inject('/api/config')).json();
    expect(body.apiUrl).toBe('https://api.giphy.com/v1');
  });

  it('tells /admin how to become an admin only on loopback with the local sign-in', () => {
    const oidc = {
      OIDC_ISSUER: 'https://issuer.example',
      OIDC_CLIENT_ID: 'sticky',
      OIDC_CLIENT_SECRET: 'secret',
    };
    const hintOf = (env: Record<string, string>) =>
      (buildClientConfig(loadConfig(env)) as { canBecomeAdminLocally?: boolean })
        .canBecomeAdminLocally;
    expect(hintOf({})).toBe(true);
    expect(hintOf(oidc)).toBe(false);
    expect(
      hintOf({ HOST: '0.0.0.0', PUBLIC_URL: 'https://gifs.example', LOCAL_SIGN_IN: '1' }),
    ).toBe(false);
  });
});
