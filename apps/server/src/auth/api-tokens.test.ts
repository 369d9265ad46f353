import { createTokenResponseSchema } from '@sticky/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { App } from '../app.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';

/**
 * An allow-list needs a real provider (config/env.ts); nothing here signs in through it, so
 * it need not answer.
 */
const issuerEnv = {
  OIDC_ISSUER: 'http://127.0.0.1:9/oidc',
  OIDC_CLIENT_ID: 'sticky',
  OIDC_CLIENT_SECRET: 'not-used-by-these-tests-0123456789',
};

/** docs/security.md, "API tokens": the allow-list is read again each time a token is used. */
describe('personal API tokens and the allow-list', () => {
  let testApp: TestApp | undefined;
  let restarted: App | undefined;
  afterEach(async () => {
    await restarted?.close();
    await testApp?.close();
    restarted = undefined;
    testApp = undefined;
  });

  const makeToken = async (app: App, cookie: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { cookie },
      payload: { name: 'script' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return createTokenResponseSchema.parse(response.json()).secret;
  };
  // What a default (`upload`) token may read: its owner's uploads.
  const me = (app: App, secret: string) =>
    app.inject({ url: '/api/uploads', headers: { authorization: `Bearer ${secret}` } });

  it('refuses with 401 the token of an email taken off ALLOWED_EMAILS, and only that one', async () => {
    testApp = await createTestApp({
      ...issuerEnv,
      ALLOWED_EMAILS: 'keeper@example.com,leaver@example.com',
    });
    const leaver = await signInAs(testApp, { email: 'leaver@example.com' });
    const keeper = await signInAs(testApp, { email: 'keeper@example.com' });
    const leaverToken = await makeToken(testApp.app, leaver.cookie);
    const keeperToken = await makeToken(testApp.app, keeper.cookie);
    expect((await me(testApp.app, leaverToken)).statusCode).toBe(200);

    // The operator takes leaver@ off the list and restarts the server on the same database.
    restarted = await buildApp({
      config: { ...testApp.config, allowedEmails: ['keeper@example.com'] },
      database: testApp.database,
      media: testApp.media,
      sessionSecret: testApp.config.sessionSecret!,
    });
    const refused = await me(restarted, leaverToken);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      success: false,
      error: {
        code: 'unauthorized',
        message: 'This API token is not valid: it was revoked or mistyped.',
      },
    });
    const kept = await me(restarted, keeperToken);
    expect(kept.statusCode).toBe(200);
  });
});
