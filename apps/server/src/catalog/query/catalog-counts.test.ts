import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { listTrendingItems } from './trending.ts';

/**
 * catalog_counts is what trending's total_count reads: it must always equal counting the
 * listable items, whatever writes the catalog (inserts, updates, deletes, truncation).
 */
describe('catalog counts', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  async function expectCountsToMatchItems() {
    const db = testApp.database.db;
    const counted = await db.execute<{ type: string; rating: string; count: string }>(sql`
      SELECT type, rating, count(*)::text AS count FROM items
      WHERE is_indexable AND NOT is_dynamic GROUP BY type, rating`);
    const kept = await db.execute<{ type: string; rating: string; count: string }>(sql`
      SELECT type, rating, count::text AS count FROM catalog_counts WHERE count <> 0`);
    const byKey = (rows: Array<{ type: string; rating: string; count: string }>) =>
      Object.fromEntries(rows.map((row) => [`${row.type}/${row.rating}`, Number(row.count)]));
    expect(byKey(kept.rows)).toEqual(byKey(counted.rows));
  }

  it('follows inserts, updates and deletes, and trending totals agree', async () => {
    const ids = await insertCatalogItems(testApp.database, [
      { title: 'Cat one', rating: 'g' },
      { title: 'Cat two', rating: 'pg' },
      { title: 'Cat three', rating: 'pg-13' },
      { title: 'Cat four', rating: 'r' },
      { title: 'Sticker one', type: 'sticker' },
      { title: 'Hidden cat', isIndexable: false },
      { title: 'Rendered text', type: 'text', isDynamic: true },
    ]);
    await expectCountsToMatchItems();

    const trending = (rating?: 'g' | 'pg-13') =>
      listTrendingItems(testApp, { types: ['gif'], rating, limit: 2, offset: 0 });
    expect((await trending('g')).totalCount).toBe(1);
    expect((await trending('pg-13')).totalCount).toBe(3);
    expect((await trending()).totalCount).toBe(4);

    const db = testApp.database.db;
    // Moved between groups, hidden, shown, and a change that moves nothing (trend score).
    await db.execute(sql`UPDATE items SET rating = 'g' WHERE id = ${ids[1]}`);
    await db.execute(sql`UPDATE items SET type = 'sticker' WHERE id = ${ids[2]}`);
    await db.execute(sql`UPDATE items SET is_indexable = false WHERE id = ${ids[3]}`);
    await db.execute(sql`UPDATE items SET is_indexable = true WHERE id = ${ids[5]}`);
    await db.execute(sql`UPDATE items SET trend_score = trend_score + 1`);
    await expectCountsToMatchItems();
    expect((await trending('g')).totalCount).toBe(3);

    await db.execute(sql`DELETE FROM items WHERE id IN (${ids[0]}, ${ids[4]})`);
    await expectCountsToMatchItems();
    expect((await trending()).totalCount).toBe(2);

    await db.execute(sql`TRUNCATE items CASCADE`);
    await expectCountsToMatchItems();
    expect((await trending()).totalCount).toBe(0);
  });

  it('counts a multi-row insert of mixed types and ratings in one go', async () => {
    await insertCatalogItems(
      testApp.database,
      Array.from({ length: 60 }, (_, index) => ({
        title: `Item ${index}`,
        type: (['gif', 'sticker', 'text'] as const)[index % 3],
        rating: (['g', 'pg', 'pg-13', 'r'] as const)[index % 4],
        isIndexable: index % 7 !== 0,
      })),
    );
    await expectCountsToMatchItems();
  });
});
