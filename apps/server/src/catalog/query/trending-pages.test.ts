import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { countStatements } from '../../test-support/database.ts';
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
      JSON.parse((await readTrendingPage(testApp.app.deps, options)).data.json) as Array<{
        title: string;
      }>
    ).map((item) => item.title);

  /** Counts the statements `run` sends through the app's pool. */
  const listenerPids = async () =>
    (
      await testApp.database.db.execute<{ pid: number }>(
        sql`SELECT pid FROM pg_stat_activity
            WHERE application_name = 'sticky-listener' AND datname = current_database()`,
      )
    ).rows.map((row) => row.pid);

  it('answers a repeat from memory, without the database, once the version is announced', async () => {
    await readTrendingPage(testApp.app.deps, options);
    await expect.poll(listenerPids).toHaveLength(1);
    await expect
      .poll(() =>
        countStatements(testApp.database, () => readTrendingPage(testApp.app.deps, options)),
      )
      .toBe(0);
    const page = await readTrendingPage(testApp.app.deps, options);
    expect(page.data.count).toBe(3);
    expect(page.totalCount).toBe(3);
  });

  it('shows every committed change at once: new items, titles, order, hiding, creators', async () => {
    const db = testApp.database.db;
    expect(await titles()).toEqual(['Waving cat', 'Dancing dog', 'Sleepy fox']);

    await insertCatalogItems(testApp.database, [{ title: 'Rising star', trendScore: 9 }]);
    await expect.poll(titles).toEqual(['Rising star', 'Waving cat', 'Dancing dog', 'Sleepy fox']);

    await db.execute(sql`UPDATE items SET title = 'Waving kitten' WHERE id = ${ids[0]}`);
    await db.execute(sql`UPDATE items SET trend_score = 10 WHERE id = ${ids[2]}`);
    await db.execute(sql`UPDATE items SET is_indexable = false WHERE id = ${ids[1]}`);
    await expect.poll(titles).toEqual(['Sleepy fox', 'Rising star', 'Waving kitten']);
    expect((await readTrendingPage(testApp.app.deps, options)).totalCount).toBe(3);

    await db.execute(sql`UPDATE creators SET display_name = 'The Studio'`);
    const thirdItem = async () =>
      (
        JSON.parse(
          (await readTrendingPage(testApp.app.deps, { ...options, offset: 2 })).data.json,
        ) as Array<{
          title: string;
          user?: { display_name: string };
        }>
      )[0];
    await expect
      .poll(thirdItem)
      .toMatchObject({ title: 'Waving kitten', user: { display_name: 'The Studio' } });

    await db.execute(sql`DELETE FROM items WHERE id = ${ids[2]}`);
    await expect.poll(titles).toEqual(['Rising star', 'Waving kitten']);
  });

  it('never serves a stale page when the listener loses its connection', async () => {
    await readTrendingPage(testApp.app.deps, options);
    await expect.poll(listenerPids).toHaveLength(1);
    const [pid] = await listenerPids();
    await testApp.database.db.execute(sql`SELECT pg_terminate_backend(${pid})`);
    await expect.poll(listenerPids).not.toEqual([pid]);

    // Whether or not it is back yet, a change made now is seen.
    await testApp.database.db.execute(
      sql`UPDATE items SET title = 'Lost and found' WHERE id = ${ids[0]}`,
    );
    await expect.poll(titles).toContain('Lost and found');
    // It reconnects (after a pause of a second) and the page is served from memory again.
    await expect.poll(listenerPids).toHaveLength(1);
    await expect
      .poll(() =>
        countStatements(testApp.database, () => readTrendingPage(testApp.app.deps, options)),
      )
      .toBe(0);
  });
});
