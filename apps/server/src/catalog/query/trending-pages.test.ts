import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { readTrendingPage } from './trending-pages.ts';

/** Trending pages are kept serialised, and must never outlive a change to what they show. */
describe('trending pages', () => {
  let testApp: TestApp;
  let ids: string[];
  const options = { types: ['gif'] as const, limit: 10, offset: 0 };

  beforeAll(async () => {
    testApp = await createTestApp();
    ids = await insertCatalogItems(testApp.database, [
      { title: 'Waving cat', trendScore: 3, creator: 'studio' },
      { title: 'Dancing dog', trendScore: 2 },
      { title: 'Sleepy fox', trendScore: 1 },
    ]);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const titles = async () =>
    (
      JSON.parse((await readTrendingPage(testApp, options)).dataJson) as Array<{
        title: string;
      }>
    ).map((item) => item.title);

  it('answers a repeat from memory: one small read instead of the page', async () => {
    await readTrendingPage(testApp, options);
    const pool = testApp.database.pool;
    const query = pool.query.bind(pool);
    let statements = 0;
    pool.query = ((...args: Parameters<typeof query>) => {
      statements += 1;
      return query(...args);
    }) as typeof pool.query;
    try {
      const page = await readTrendingPage(testApp, options);
      expect(page.count).toBe(3);
      expect(page.totalCount).toBe(3);
    } finally {
      pool.query = query;
    }
    expect(statements).toBe(1);
  });

  it('shows every committed change at once: new items, titles, order, hiding, creators', async () => {
    const db = testApp.database.db;
    expect(await titles()).toEqual(['Waving cat', 'Dancing dog', 'Sleepy fox']);

    await insertCatalogItems(testApp.database, [{ title: 'Rising star', trendScore: 9 }]);
    expect(await titles()).toEqual(['Rising star', 'Waving cat', 'Dancing dog', 'Sleepy fox']);

    await db.execute(sql`UPDATE items SET title = 'Waving kitten' WHERE id = ${ids[0]}`);
    await db.execute(sql`UPDATE items SET trend_score = 10 WHERE id = ${ids[2]}`);
    await db.execute(sql`UPDATE items SET is_indexable = false WHERE id = ${ids[1]}`);
    expect(await titles()).toEqual(['Sleepy fox', 'Rising star', 'Waving kitten']);
    expect((await readTrendingPage(testApp, options)).totalCount).toBe(3);

    await db.execute(sql`UPDATE creators SET display_name = 'The Studio'`);
    const [first] = JSON.parse(
      (await readTrendingPage(testApp, { ...options, offset: 2 })).dataJson,
    ) as Array<{ title: string; user?: { display_name: string } }>;
    expect(first).toMatchObject({ title: 'Waving kitten', user: { display_name: 'The Studio' } });

    await db.execute(sql`DELETE FROM items WHERE id = ${ids[2]}`);
    expect(await titles()).toEqual(['Rising star', 'Waving kitten']);
  });
});
