import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { countStatements } from '../../test-support/database.ts';
import { recordItemEvent } from '../activity/item-events.ts';
import { listRelatedItemIds } from './related.ts';
import { searchItemIds } from './search.ts';
import { serializeItemsJson } from './item-json.ts';
import { readTrendingPage } from './trending-pages.ts';

/**
 * Issue 16: counting a view or a favorite moved trend_score, and with it catalog_version,
 * emptying every kept answer. Popularity has its own version now (migration 0009).
 */
describe('popularity version', () => {
  let testApp: TestApp;
  let ids: string[];
  const trending = { types: ['gif'] as const, limit: 10, offset: 0 };
  const search = { q: 'cat', types: ['gif'] as const, limit: 25, offset: 0 };

  // Each test gets a catalog of its own: both change it.
  beforeEach(async () => {
    testApp = await createTestApp({ TRENDING_MAX_AGE_SECONDS: '2' });
    ids = await insertCatalogItems(testApp.database, [
      { title: 'Cat first', tags: ['cat'], trendScore: 3 },
      { title: 'Cat second', tags: ['cat'], trendScore: 2 },
      { title: 'Cat third', tags: ['cat'], trendScore: 1 },
    ]);
  });
  afterEach(async () => {
    await testApp?.close();
  });

  const deps = () => testApp.app.deps;
  const keptReads = () =>
    Promise.all([
      serializeItemsJson(deps(), ids),
      searchItemIds(deps(), search),
      listRelatedItemIds(deps(), { itemId: ids[0]!, types: ['gif'], limit: 15, offset: 0 }),
    ]);
  const trendingTitles = async () =>
    (
      JSON.parse((await readTrendingPage(deps(), trending)).data.json) as Array<{ title: string }>
    ).map((item) => item.title);

  async function addPeople(count: number): Promise<string[]> {
    const rows = Array.from({ length: count }, (_, index) => ({
      id: `person${index}${Date.now().toString(36)}`,
      issuer: 'test',
      subject: `subject-${index}-${Math.random()}`,
      email: `p${index}@example.com`,
      name: 'Person',
    }));
    await testApp.database.db.insert(users).values(rows);
    return rows.map((row) => row.id);
  }

  it('counting views and favorites keeps item JSON, search and related answers; trending follows within its maximum age', async () => {
    expect(await trendingTitles()).toEqual(['Cat first', 'Cat second', 'Cat third']);
    await keptReads();
    // Listening: kept answers cost no statement at all.
    await expect.poll(() => countStatements(testApp.database, keptReads)).toBe(0);
    const before = await deps().services.versions.read();

    // Many people favorite the third item (each counts once): it rises to the top.
    for (const userId of await addPeople(4)) {
      const counted = await recordItemEvent(
        { config: testApp.config, database: testApp.database },
        { userId, itemId: ids[2]!, kind: 'favorite' },
      );
      expect(counted).toEqual({ isFound: true, isCounted: true });
    }
    // Wait until this app has heard of the new popularity (it is announced after the commit).
    await expect
      .poll(async () => (await deps().services.versions.read()).popularity)
      .toBeGreaterThan(before.popularity!);
    const after = await deps().services.versions.read();
    expect(after.catalog).toBe(before.catalog);

    // The kept answers survived: not one statement.
    expect(await countStatements(testApp.database, keptReads)).toBe(0);
    // Trending follows within TRENDING_MAX_AGE_SECONDS (2 s here).
    await expect.poll(trendingTitles).toEqual(['Cat third', 'Cat first', 'Cat second']);
  });

  it('a change to the catalog itself still empties them at once', async () => {
    await keptReads();
    await testApp.database.db.execute(
      sql`UPDATE items SET title = 'Cat renamed' WHERE id = ${ids[1]}`,
    );
    await expect
      .poll(
        async () =>
          (
            JSON.parse((await serializeItemsJson(deps(), [ids[1]!])).json) as Array<{
              title: string;
            }>
          )[0]?.title,
      )
      .toBe('Cat renamed');
    await expect
      .poll(async () => (await searchItemIds(deps(), { ...search, q: 'renamed' })).rows)
      .toEqual([ids[1]]);
  });
});
