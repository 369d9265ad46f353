import { maxFavoritesPerUser } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';

describe('/api/favorites', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  const call = (
    method: 'GET' | 'PUT' | 'DELETE' | 'POST',
    url: string,
    cookie?: string,
    body?: unknown,
  ) =>
    testApp.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });

  it('refuses every call without a session, with the API error shape', async () => {
    for (const [method, url] of [
      ['GET', '/api/favorites'],
      ['PUT', '/api/favorites/abc'],
      ['DELETE', '/api/favorites/abc'],
      ['POST', '/api/favorites/merge'],
    ] as const) {
      const response = await call(
        method,
        url,
        undefined,
        method === 'POST' ? { ids: [] } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({
        success: false,
        error: { code: 'unauthorized', message: expect.any(String) },
      });
    }
  });

  it('starts empty, adds idempotently, lists newest first and removes idempotently', async () => {
    const { cookie } = await signInAs(testApp);
    expect((await call('GET', '/api/favorites', cookie)).json()).toEqual({
      success: true,
      ids: [],
    });

    // Each request has its own transaction, so created_at grows; were two to share a
    // microsecond, the tie-break (item id, descending) keeps this order too.
    for (const id of ['first1', 'second2', 'third3']) {
      const response = await call('PUT', `/api/favorites/${id}`, cookie);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, id, isFavorite: true });
    }
    const again = await call('PUT', '/api/favorites/second2', cookie);
    expect(again.statusCode).toBe(200);

    const list = await call('GET', '/api/favorites', cookie);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.json()).toEqual({ success: true, ids: ['third3', 'second2', 'first1'] });

    for (let i = 0; i < 2; i++) {
      const removed = await call('DELETE', '/api/favorites/second2', cookie);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ success: true, id: 'second2', isFavorite: false });
    }
    expect((await call('GET', '/api/favorites', cookie)).json().ids).toEqual(['third3', 'first1']);
  });

  it('counts a new favourite of a catalog item towards trending, once', async () => {
    const { cookie, user } = await signInAs(testApp);
    const [itemId] = await insertCatalogItems(testApp.database, [{ title: 'Dancing cat' }]);
    const events = async () =>
      (
        await testApp.database.db.execute<{ kind: string }>(sql`
          SELECT kind FROM item_events WHERE user_id = ${user.id} AND item_id = ${itemId!}`)
      ).rows.map((row) => row.kind);
    await call('PUT', `/api/favorites/${itemId}`, cookie);
    await call('PUT', `/api/favorites/${itemId}`, cookie);
    expect(await events()).toEqual(['favorite']);
    // Ids that are not ours (GIPHY's, in giphy mode) are kept but not counted.
    expect((await call('PUT', '/api/favorites/notInCatalog1', cookie)).statusCode).toBe(200);
  });

  it('keeps each account to itself', async () => {
    const alice = await signInAs(testApp, { email: 'alice@example.com' });
    const bob = await signInAs(testApp, { email: 'bob@example.com' });
    await call('PUT', '/api/favorites/alicesOwn', alice.cookie);
    expect((await call('GET', '/api/favorites', bob.cookie)).json().ids).toEqual([]);
    await call('DELETE', '/api/favorites/alicesOwn', bob.cookie);
    expect((await call('GET', '/api/favorites', alice.cookie)).json().ids).toEqual(['alicesOwn']);
  });

  it('rejects malformed ids with a clear 400', async () => {
    const { cookie } = await signInAs(testApp);
    for (const bad of ['has%20space', 'semi%3Bcolon', 'x'.repeat(65), '%F0%9F%98%80']) {
      const response = await call('PUT', `/api/favorites/${bad}`, cookie);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().error.code).toBe('bad_request');
      expect(response.json().error.message).toMatch(/item id/);
    }
  });

  it('refuses a favourite beyond the cap with 409, and still accepts re-adding one it has', async () => {
    const { cookie, user } = await signInAs(testApp);
    await testApp.database.db.execute(sql`
      INSERT INTO favorites (user_id, item_id)
      SELECT ${user.id}, 'bulk' || g FROM generate_series(1, ${maxFavoritesPerUser}) g
    `);
    const over = await call('PUT', '/api/favorites/oneTooMany', cookie);
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toContain(String(maxFavoritesPerUser));
    expect((await call('PUT', '/api/favorites/bulk7', cookie)).statusCode).toBe(200);
  });

  describe('merge of the browser copy', () => {
    it('merges once, keeps the browser order (last = newest) below existing ones, ignores later calls', async () => {
      const { cookie } = await signInAs(testApp);
      await call('PUT', '/api/favorites/onAccount', cookie);
      const first = await call('POST', '/api/favorites/merge', cookie, {
        ids: ['old1', 'mid2', 'onAccount', 'new3', 'mid2'],
      });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        success: true,
        merged: true,
        ids: ['onAccount', 'new3', 'mid2', 'old1'],
      });

      const second = await call('POST', '/api/favorites/merge', cookie, { ids: ['late4'] });
      expect(second.json()).toEqual({
        success: true,
        merged: false,
        ids: ['onAccount', 'new3', 'mid2', 'old1'],
      });
    });

    it('marks the account merged even when the browser had nothing', async () => {
      const { cookie } = await signInAs(testApp);
      expect((await call('POST', '/api/favorites/merge', cookie, { ids: [] })).json().merged).toBe(
        true,
      );
      expect((await call('POST', '/api/favorites/merge', cookie, { ids: ['a1'] })).json()).toEqual({
        success: true,
        merged: false,
        ids: [],
      });
    });

    it('runs once under concurrent calls from two tabs', async () => {
      const { cookie } = await signInAs(testApp);
      const [a, b] = await Promise.all([
        call('POST', '/api/favorites/merge', cookie, { ids: ['tabA'] }),
        call('POST', '/api/favorites/merge', cookie, { ids: ['tabB'] }),
      ]);
      expect([a.json().merged, b.json().merged].sort()).toEqual([false, true]);
      expect((await call('GET', '/api/favorites', cookie)).json().ids).toHaveLength(1);
    });

    it('rejects bad bodies with 400 and merges nothing', async () => {
      const { cookie } = await signInAs(testApp);
      for (const body of [{}, { ids: 'abc' }, { ids: ['ok', 'not ok'] }, { ids: [1] }]) {
        const response = await call('POST', '/api/favorites/merge', cookie, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().error.code).toBe('bad_request');
      }
      const tooMany = Array.from({ length: maxFavoritesPerUser + 1 }, (_, i) => `id${i}`);
      expect(
        (await call('POST', '/api/favorites/merge', cookie, { ids: tooMany })).statusCode,
      ).toBe(400);
      expect(
        (await call('POST', '/api/favorites/merge', cookie, { ids: ['fine'] })).json().merged,
      ).toBe(true);
    });
  });
});
