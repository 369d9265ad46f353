import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { signInAs } from '../../test-support/sign-in.ts';

describe('/v1 access', () => {
  let testApp: TestApp;
  let cookie: string;
  let itemId: string;

  beforeAll(async () => {
    testApp = await createTestApp({
      STICKY_API_KEYS:
        'key-one-0123456789abcdefghijklmnopqrstu, key-two-0123456789abcdefghijklmnopqrstu',
    });
    cookie = (await signInAs(testApp)).cookie;
    [itemId] = (await insertCatalogItems(testApp.database, [{ title: 'Wave' }])) as [string];
  });
  afterAll(async () => {
    await testApp.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, headers });

  it('refuses a caller with neither a session nor a known api_key, in GIPHY shape', async () => {
    for (const url of [
      '/v1/gifs/trending',
      '/v1/gifs/search?q=wave',
      `/v1/gifs/${itemId}`,
      '/v1/gifs/categories',
      '/v1/trending/searches',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json().meta).toEqual({
        status: 401,
        msg: 'Sign in, or pass an api_key this server knows.',
        response_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      });
    }
    const wrongKey = await get('/v1/gifs/trending?api_key=nope');
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.json().meta.msg).toBe('Invalid api_key.');
    expect(wrongKey.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves a listed api_key to any site, without credentials', async () => {
    const response = await get(
      '/v1/gifs/trending?api_key=key-two-0123456789abcdefghijklmnopqrstu',
      {
        origin: 'https://other.example',
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(response.json().data.map((item: { id: string }) => item.id)).toEqual([itemId]);

    const preflight = await testApp.app.inject({
      method: 'OPTIONS',
      url: '/v1/gifs/search?api_key=key-one-0123456789abcdefghijklmnopqrstu&q=wave',
      headers: { origin: 'https://other.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('serves a signed-in user whatever api_key the SPA sends, with no CORS grant', async () => {
    const response = await get('/v1/gifs/trending?api_key=anything-at-all', {
      cookie,
      origin: 'https://other.example',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers an unknown /v1 path with a GIPHY 404', async () => {
    const response = await get('/v1/gifs/translate/nothing', { cookie });
    expect(response.statusCode).toBe(404);
    expect(response.json().meta).toMatchObject({ status: 404 });
  });
});
