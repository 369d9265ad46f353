import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { suggestTags, tagMatchesSql } from './autocomplete.ts';

/**
 * Issue 16: tag autocomplete read every tag of every item. It reads catalog_tags now, kept by
 * triggers on items (migration 0009), through an index on the tag's prefix.
 */
const fixtures = [
  { title: 'One', tags: ['cat', 'cats', 'catnap'] },
  { title: 'Two', tags: ['cat', 'dog'] },
  { title: 'Three', tags: ['cats', 'cat'], rating: 'pg-13' as const },
  { title: 'Hidden', tags: ['catastrophe'], isIndexable: false },
  { title: 'Rendered', tags: ['cathedral'], isDynamic: true },
];

/** Each test gets a catalog of its own (one of them changes it). */
describe('tag autocomplete', () => {
  let testApp: TestApp;
  let ids: string[];

  beforeEach(async () => {
    testApp = await createTestApp();
    ids = await insertCatalogItems(testApp.database, fixtures);
  });
  afterEach(async () => {
    await testApp?.close();
  });

  const suggest = async (q: string, rating?: 'g' | 'pg-13') =>
    suggestTags(testApp, { q, rating, limit: 10, offset: 0 });

  /** What the old full scan answered: the truth catalog_tags must agree with. */
  const scanItems = async (q: string) =>
    (
      await testApp.database.db.execute<{ tag: string; uses: string }>(sql`
        SELECT tag, count(*) AS uses FROM items i, LATERAL (SELECT DISTINCT unnest(i.tags) AS tag) t
        WHERE i.is_indexable AND NOT i.is_dynamic AND tag LIKE ${`${q}%`}
        GROUP BY tag ORDER BY (tag = ${q}) DESC, count(*) DESC, tag`)
    ).rows.map((row) => row.tag);

  it('suggests listable tags that start with the text, the exact one first, then the most used', async () => {
    expect(await suggest('cat')).toEqual({ rows: ['cat', 'cats', 'catnap'], totalCount: 3 });
    // The rating is a ceiling: pg-13 items count only when asked for.
    expect((await suggest('cats', 'g')).rows).toEqual(['cats']);
    expect(await suggest('cat', 'pg-13')).toEqual({
      rows: ['cat', 'cats', 'catnap'],
      totalCount: 3,
    });
    expect(await suggest('cat')).toMatchObject({ rows: await scanItems('cat') });
    // LIKE's wildcards are text like any other.
    expect(await suggest('c%')).toEqual({ rows: [], totalCount: 0 });
  });

  it('follows every change to items: tags, rating, hiding, deleting, truncating', async () => {
    const db = testApp.database.db;
    await db.execute(sql`UPDATE items SET tags = ARRAY['catnap', 'catwalk'] WHERE id = ${ids[1]}`);
    await db.execute(sql`UPDATE items SET is_indexable = true WHERE id = ${ids[3]}`);
    await db.execute(sql`UPDATE items SET trend_score = trend_score + 1`);
    expect((await suggest('cat', 'pg-13')).rows).toEqual(await scanItems('cat'));
    expect((await suggest('cat', 'pg-13')).rows).toContain('catastrophe');
    await db.execute(sql`UPDATE items SET rating = 'r' WHERE id = ${ids[2]}`);
    expect((await suggest('cats', 'pg-13')).rows).toEqual(['cats']);
    await db.execute(sql`DELETE FROM items WHERE id = ${ids[0]}`);
    expect((await suggest('cats', 'pg-13')).rows).toEqual([]);
    const counts = await db.execute<{ n: string }>(
      sql`SELECT count(*) AS n FROM catalog_tags WHERE uses <= 0`,
    );
    expect(Number(counts.rows[0]!.n)).toBe(0);
    await db.execute(sql`TRUNCATE items CASCADE`);
    expect(await suggest('cat', 'pg-13')).toEqual({ rows: [], totalCount: 0 });
  });

  it('reads only catalog_tags, through its prefix index, never the items', async () => {
    const query = new PgDialect().sqlToQuery(tagMatchesSql({ q: 'cat' }));
    const client = await testApp.database.pool.connect();
    try {
      // A tiny table is cheaper to read whole; forbid that to see which index the plan uses.
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) ${query.sql}`,
        query.params,
      );
      const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
      expect(plan).not.toContain('"Relation Name":"items"');
      expect(plan).toContain('"Index Name":"catalog_tags_prefix_idx"');
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});
