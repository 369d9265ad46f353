import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { createTestDatabase } from '../../test-support/database.ts';
import type { TestDatabase } from '../../test-support/database.ts';
import { loadConfig } from '../../config/env.ts';
import type { CatalogDeps } from './items.ts';
import { createPopularityScales, stemSliceSql } from './popularity-slices.ts';
import type { Slice } from './popularity-slices.ts';

/**
 * A slice's matches found by their stem-and-tier keys (migration 0017) are exactly the items
 * whose stems match and whose tier is in the slice: a search's first pages depend on it.
 */
describe('matching a slice by stem-and-tier keys', () => {
  let database: TestDatabase;
  const words = ['apple', 'banana', 'cherry', 'dancing', 'danced', 'eagle'];

  beforeAll(async () => {
    database = await createTestDatabase();
    // A fixed pseudo-random catalog: each item a few of the words, popularity from never
    // viewed (tiers below zero) to 60 (tier 480 and up), in half-unit steps.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    await insertCatalogItems(
      database,
      Array.from({ length: 600 }, (_, index) => {
        const own = words.filter(() => next() < 0.3);
        return {
          title: `${own.slice(0, 2).join(' ')} ${index}`,
          tags: own.slice(2),
          trendScore: next() < 0.2 ? 0 : Math.floor(next() * 120) / 2,
          renditions: 'none' as const,
        };
      }),
    );
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const readIds = async (where: ReturnType<typeof sql>) => {
    const result = await database.db.execute<{ id: string }>(sql`
      SELECT i.id FROM items i
      WHERE ${where} AND i.type = 'gif' AND i.is_indexable AND NOT i.is_dynamic
      ORDER BY i.id`);
    return result.rows.map((row) => row.id);
  };

  it('finds the items of the slice whose stems match, and only those', async () => {
    const tiers = (
      await database.pool.query<{ tier: number }>(
        'SELECT DISTINCT popularity_tier AS tier FROM items ORDER BY 1 DESC',
      )
    ).rows.map((row) => row.tier);
    expect(tiers.length).toBeGreaterThan(100);
    const queries = ['apple', 'danc', 'apple & eagle', 'banana | cherry', 'eagl & (appl | danc)'];
    const slices: Slice[] = [
      { lower: tiers[5], upper: undefined },
      { lower: tiers[40], upper: tiers[5] },
      { lower: tiers[41], upper: tiers[40] },
      { lower: tiers.at(-3), upper: tiers[41] },
      { lower: -64, upper: undefined },
    ];
    for (const query of queries) {
      for (const slice of slices) {
        const label = `${query} in [${slice.lower}, ${slice.upper ?? 'top'})`;
        const expected = await readIds(
          sql`i.search_vector_stem @@ ${query}::tsquery AND i.popularity_tier >= ${slice.lower}
            ${slice.upper === undefined ? sql`` : sql`AND i.popularity_tier < ${slice.upper}`}`,
        );
        const byKeys = stemSliceSql(sql`${query}::tsquery`, slice, ['gif']);
        expect(byKeys, label).toBeDefined();
        expect(await readIds(byKeys!), label).toEqual(expected);
        expect(expected.length, label).toBeLessThan(600);
      }
    }
  });

  it('keeps a lexeme with a quote in it, and an empty slice matches nothing', async () => {
    const { rows } = await database.pool.query<Record<string, boolean>>(`
      SELECT
        sticky_stem_tiers(array_to_tsvector(ARRAY['it''s']), 100::smallint)
          @@ sticky_stem_tier_query($$'it''s'$$::tsquery, 90, 110) AS inside,
        sticky_stem_tiers(array_to_tsvector(ARRAY['it''s']), 100::smallint)
          @@ sticky_stem_tier_query($$'it''s'$$::tsquery, 101, 110) AS outside,
        sticky_stem_tiers(array_to_tsvector(ARRAY['it''s']), 100::smallint)
          @@ sticky_stem_tier_query($$'it''s'$$::tsquery, 100, 100) AS empty`);
    expect(rows[0]).toEqual({ inside: true, outside: false, empty: false });
  });

  it('leaves out stems too long to key, and still stores their items', async () => {
    // Keyed, it would be past a lexeme's 2 KB, and writing the item would fail.
    const word = 'a'.repeat(2_040);
    const [id] = await insertCatalogItems(database, [
      { title: `${word} apple`, trendScore: 10, renditions: 'none' },
    ]);
    const { rows } = await database.pool.query<{ keyed: string[] }>(
      `SELECT tsvector_to_array(sticky_stem_tiers(search_vector_stem, popularity_tier)) AS keyed
       FROM items WHERE id = $1`,
      [id],
    );
    expect(rows[0]!.keyed.length).toBeGreaterThan(0);
    expect(rows[0]!.keyed.every((lexeme) => lexeme.startsWith('appl@'))).toBe(true);
  });

  it('is not used for a slice open below or for several types', () => {
    expect(stemSliceSql(sql`'apple'::tsquery`, { lower: undefined, upper: 10 }, ['gif'])).toBe(
      undefined,
    );
    expect(stemSliceSql(sql`'apple'::tsquery`, { lower: 10, upper: undefined }, undefined)).toBe(
      undefined,
    );
    expect(
      stemSliceSql(sql`'apple'::tsquery`, { lower: 10, upper: undefined }, ['gif', 'sticker']),
    ).toBe(undefined);
  });
});

/**
 * A scale is remade when it is old, or when the catalog it was made from grew or shrank: not
 * for every change, since a sample at a million items, made beside a request, delays it.
 */
describe('popularity scales', () => {
  let database: TestDatabase;
  let deps: CatalogDeps;
  let clock = 0;
  const scales = createPopularityScales({ now: () => clock });
  const types = ['gif'] as const;

  beforeAll(async () => {
    database = await createTestDatabase();
    deps = { database, config: loadConfig({}, '/srv/sticky') };
    await insertCatalogItems(
      database,
      Array.from({ length: 20 }, (_, index) => ({
        title: `Item ${index}`,
        trendScore: index,
        renditions: 'none' as const,
      })),
    );
  });
  afterAll(async () => {
    await scales.whenIdle();
    await database?.destroy();
  });

  /** The scale as read at `version`, once what that read started in the background is done. */
  const settle = async (version: number) => {
    await scales.read(deps, types, version);
    await scales.whenIdle();
    return scales.read(deps, types, version);
  };

  it('keeps its scale through changes that leave the catalog about its size', async () => {
    const first = await scales.read(deps, types, 1);
    expect(first.total).toBe(20);
    // A change, seen before it is 30 s old and after: nothing to remake.
    clock += 5_000;
    expect(await settle(2)).toBe(first);
    clock += 30_000;
    await database.db.execute(sql`UPDATE items SET title = 'Renamed' WHERE title = 'Item 3'`);
    expect(await settle(3)).toBe(first);
    await insertCatalogItems(database, [{ title: 'One more', renditions: 'none' }]);
    clock += 31_000;
    expect(await settle(4)).toBe(first);
  });

  it('is remade once the catalog grew by more than a tenth, and when it is ten minutes old', async () => {
    const before = await scales.read(deps, types, 4);
    await insertCatalogItems(
      database,
      Array.from({ length: 10 }, (_, index) => ({
        title: `Imported ${index}`,
        renditions: 'none' as const,
      })),
    );
    clock += 31_000;
    const grown = await settle(5);
    expect(grown).not.toBe(before);
    expect(grown.total).toBe(31);

    clock += 10 * 60_000 + 1;
    const aged = await settle(5);
    expect(aged).not.toBe(grown);
    expect(aged.total).toBe(31);
  });
});
