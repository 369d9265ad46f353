import { itemEventResponseSchema } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordItemEvent } from '../catalog/activity/item-events.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { signInAs } from '../test-support/sign-in.ts';

describe('POST /api/events and trending', () => {
  let testApp: TestApp;
  let first: string, second: string, third: string;

  beforeAll(async () => {
    // A long rate-limit window: no budget renews in the middle of a burst on a slow machine.
    // Trending follows every counted event at once here (TRENDING_MAX_AGE_SECONDS=0).
    testApp = await createTestApp(
      { TRENDING_MAX_AGE_SECONDS: '0' },
      { rateLimitWindowMs: 60 * 60_000 },
    );
    [first, second, third] = (await insertCatalogItems(testApp.database, [
      { title: 'First' },
      { title: 'Second' },
      { title: 'Third' },
    ])) as [string, string, string];
  });
  afterAll(async () => {
    await testApp.close();
  });

  const post = (body: unknown, cookie?: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/events',
      headers: cookie ? { cookie } : {},
      payload: body as object,
    });
  const trendingIds = async (cookie: string) =>
    (await testApp.app.inject({ method: 'GET', url: '/v1/gifs/trending', headers: { cookie } }))
      .json()
      .data.map((item: { id: string }) => item.id);

  it('refuses anyone not signed in', async () => {
    const response = await post({ type: 'view', id: first });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'unauthorized' } });
  });

  it('refuses a bad body and an unknown item', async () => {
    const { cookie } = await signInAs(testApp);
    const badType = await post({ type: 'like', id: first }, cookie);
    expect(badType.statusCode).toBe(400);
    expect(badType.json().error.message).toMatch(/^Invalid request body: type: /);
    const badId = await post({ type: 'view', id: 'not an id!' }, cookie);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error.message).toMatch(/^Invalid request body: id: id must be an item id/);
    const unknown = await post({ type: 'view', id: 'missing123' }, cookie);
    expect(unknown.statusCode).toBe(404);
    const rows = await testApp.database.db.execute(sql`SELECT * FROM item_events`);
    expect(rows.rows).toEqual([]);
  });

  it('counts each user, item, kind and day once, and moves the item up trending', async () => {
    const alice = await signInAs(testApp);
    const bob = await signInAs(testApp);
    expect(new Set(await trendingIds(alice.cookie))).toEqual(new Set([first, second, third]));

    const counted = await post({ type: 'view', id: third }, alice.cookie);
    expect(counted.statusCode).toBe(200);
    expect(itemEventResponseSchema.parse(counted.json())).toEqual({ success: true, counted: true });
    const again = await post({ type: 'view', id: third }, alice.cookie);
    expect(again.json()).toEqual({ success: true, counted: false });
    expect((await trendingIds(alice.cookie))[0]).toBe(third);

    // Two people downloading outweighs one view.
    await post({ type: 'download', id: second }, alice.cookie);
    await post({ type: 'download', id: second }, bob.cookie);
    expect((await trendingIds(alice.cookie)).slice(0, 2)).toEqual([second, third]);

    const item = await testApp.app.inject({
      method: 'GET',
      url: `/v1/gifs/${second}`,
      headers: { cookie: alice.cookie },
    });
    expect(item.json().data.trending_datetime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(item.json().data.trending_datetime).not.toBe('0000-00-00 00:00:00');

    const events = await testApp.database.db.execute<{ n: string }>(
      sql`SELECT count(*) AS n FROM item_events`,
    );
    expect(Number(events.rows[0]?.n)).toBe(3);
  });

  it('lets the favourites service count a favourite, ignoring ids not in the catalog', async () => {
    const { user, cookie } = await signInAs(testApp);
    expect(
      await recordItemEvent(testApp, { userId: user.id, itemId: first, kind: 'favorite' }),
    ).toEqual({ isFound: true, isCounted: true });
    expect(
      await recordItemEvent(testApp, { userId: user.id, itemId: first, kind: 'favorite' }),
    ).toEqual({ isFound: true, isCounted: false });
    expect(
      await recordItemEvent(testApp, { userId: user.id, itemId: 'giphyId42', kind: 'favorite' }),
    ).toEqual({ isFound: false, isCounted: false });
    // A favourite (5) outweighs two downloads (3 + 3) only when newer; all are today, so not.
    // Counted outside a request, the app hears of it by notification, a moment after the
    // commit (docs/catalog.md, "Caches and versions"): until then the kept page answers.
    await expect
      .poll(async () => (await trendingIds(cookie)).slice(0, 3), { timeout: 10_000 })
      .toEqual([second, first, third]);
  });

  it('decays: an older burst of events ranks below a fresher, smaller one', async () => {
    const [old, fresh, unseen] = (await insertCatalogItems(testApp.database, [
      { title: 'Old news' },
      { title: 'Fresh' },
      { title: 'Unseen' },
    ])) as [string, string, string];
    const { user, cookie } = await signInAs(testApp);
    await recordItemEvent(testApp, { userId: user.id, itemId: fresh, kind: 'view' });
    // Ten people downloaded it three weeks (seven half-lives) ago: 30 × 2^-7 ≈ 0.23 of a view
    // today. Without the decay it would count 30 views and lead.
    const threeWeeksAgo = new Date(Date.now() - 21 * 86_400_000);
    for (let person = 0; person < 10; person += 1) {
      const { user: downloader } = await signInAs(testApp);
      expect(
        await recordItemEvent(testApp, {
          userId: downloader.id,
          itemId: old,
          kind: 'download',
          at: threeWeeksAgo,
        }),
      ).toEqual({ isFound: true, isCounted: true });
    }
    // Written outside a request: trending follows once the app hears of it (as above). Old
    // news still ranks above an item nobody saw, which shows its events were heard.
    const mine = new Set([old, fresh, unseen]);
    await expect
      .poll(async () => (await trendingIds(cookie)).filter((id: string) => mine.has(id)), {
        timeout: 10_000,
      })
      .toEqual([fresh, old, unseen]);
  });

  it('rate-limits one user', async () => {
    const { cookie } = await signInAs(testApp);
    let status = 0;
    for (let attempt = 0; attempt < 125 && status !== 429; attempt += 1) {
      status = (await post({ type: 'view', id: first }, cookie)).statusCode;
    }
    expect(status).toBe(429);
  });
});
