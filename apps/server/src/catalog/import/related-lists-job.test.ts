import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, readChangedVersions } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import type { FixtureItem } from '../../test-support/catalog-fixtures.ts';
import { countStatements } from '../../test-support/database.ts';
import type { ItemType } from '../query/items.ts';
import { relatedListLength } from '../query/related-lists.ts';
import { listRelatedItemIds } from '../query/related.ts';
import { refreshRelatedLists } from './related-lists-job.ts';

/**
 * Issue 15: an item's first related page from its keys' lists, built ahead (docs/catalog.md,
 * "Related"), answers exactly what the popularity slices answer, and falls back to them when
 * the lists cannot say.
 */

/** As an import would: nothing kept from before answers. */
const moveCatalogVersion = async (testApp: TestApp) => {
  await testApp.database.pool.query('SELECT sticky_catalog_version_bump()');
  await readChangedVersions(testApp);
};

const readState = async (testApp: TestApp) =>
  (
    await testApp.database.pool.query<{ changes: string; built_changes: string | null }>(
      'SELECT changes, built_changes FROM related_lists_state',
    )
  ).rows[0]!;

describe('related items from the lists built ahead', () => {
  let testApp: TestApp;
  let ids: string[];

  // 420 items: "pet" on all of them and "cat" on a third (lists cut at the list length), rare
  // "stripes" and "spots", title words shared by many; popularity in many ties, a tenth never
  // viewed (ties broken by id), a few stickers and pg items.
  const fixtureAt = (index: number): FixtureItem => {
    const animal = index % 3 === 0 ? 'Cat' : index % 3 === 1 ? 'Dog' : 'Bird';
    const tags = [
      'pet',
      ...(index % 3 === 0 ? ['cat'] : []),
      ...(index % 41 === 0 ? ['stripes'] : []),
    ];
    return {
      title: `${animal} ${index % 7 === 0 ? 'dancing' : 'sleeping'}`,
      tags: index % 53 === 0 ? [...tags, 'spots'] : tags,
      trendScore: index % 10 === 0 ? 0 : ((index * 37) % 101) * 0.25,
      rating: index % 11 === 0 ? 'pg' : 'g',
      type: index % 17 === 0 ? 'sticker' : 'gif',
      renditions: 'none',
    };
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    ids = await insertCatalogItems(
      testApp.database,
      Array.from({ length: 420 }, (_, index) => fixtureAt(index)),
    );
    await testApp.database.pool.query('ANALYZE items');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const related = (
    itemId: string,
    options: { offset?: number; limit?: number; types?: ItemType[]; rating?: 'g' } = {},
  ) =>
    listRelatedItemIds(testApp.app.deps, {
      itemId,
      types: options.types ?? ['gif'],
      rating: options.rating,
      limit: options.limit ?? 60,
      offset: options.offset ?? 0,
    });

  it('answers the first page exactly as the slices do, in one statement without a rating ceiling, and pages on without repeats', async () => {
    const sources = [0, 1, 2, 41, 53, 82, 106, 17].map((index) => ids[index]!);
    const requests = sources.flatMap((itemId) => [
      { itemId, types: ['gif'] as ItemType[] },
      { itemId, types: ['gif', 'sticker'] as ItemType[] },
      { itemId, types: ['gif'] as ItemType[], rating: 'g' as const },
    ]);
    // No lists yet: the slices answer.
    const fromSlices = [];
    const pagedFromSlices = [];
    for (const request of requests) {
      fromSlices.push(await related(request.itemId, request));
      const deeper = await related(request.itemId, { ...request, offset: 60 });
      pagedFromSlices.push(deeper.rows);
    }

    const built = await refreshRelatedLists(testApp.database);
    expect(built.isRebuilt).toBe(true);
    await moveCatalogVersion(testApp);
    let restsRead = 0;
    for (const [index, request] of requests.entries()) {
      const statements = await countStatements(testApp.database, () =>
        related(request.itemId, request),
      );
      // A rating ceiling can leave a head short of 60: the rest of its list is one more read.
      if (request.rating) {
        expect(statements, `request ${index}`).toBeLessThanOrEqual(2);
        if (statements === 2) restsRead += 1;
      } else expect(statements, `request ${index}`).toBe(1);
      const fromLists = await related(request.itemId, request);
      expect(fromLists.rows, `request ${index}`).toEqual(fromSlices[index]!.rows);
      expect(fromLists.rows.length).toBeGreaterThan(0);
      if (fromSlices[index]!.totalCount === fromSlices[index]!.rows.length) {
        expect(fromLists.totalCount).toBe(fromSlices[index]!.totalCount);
      } else {
        expect(fromLists.totalCount).toBeGreaterThan(fromLists.rows.length);
      }
      // Deeper pages still come from the slices, and follow the lists' first page.
      const deeper = await related(request.itemId, { ...request, offset: 60 });
      expect(deeper.rows).toEqual(pagedFromSlices[index]);
      expect(deeper.rows.filter((id) => fromLists.rows.includes(id))).toEqual([]);
    }
    // Some of them ranked the rest of a short head's list, read apart.
    expect(restsRead).toBeGreaterThan(0);
    // "pet" is on every item: its list is cut, most popular first.
    const pet = await testApp.database.pool.query<{ n: number; count: number }>(
      `SELECT cardinality(item_ids) AS n, item_count AS count FROM related_keys
       WHERE key = 't:pet' AND type = 'gif'`,
    );
    expect(pet.rows[0]!.n).toBe(relatedListLength);
    expect(pet.rows[0]!.count).toBeGreaterThan(relatedListLength);
  });

  it('never shows a hidden item, even while the lists are behind', async () => {
    await refreshRelatedLists(testApp.database);
    const source = ids[41]!;
    const before = await related(source);
    const hidden = before.rows[0]!;
    await testApp.database.db.execute(
      sql`UPDATE items SET hidden_at = now(), is_indexable = false WHERE id = ${hidden}`,
    );
    await readChangedVersions(testApp);
    const state = await readState(testApp);
    expect(state.built_changes).not.toBe(state.changes);
    const after = await related(source);
    expect(after.rows).not.toContain(hidden);
    // The others keep their order; the next one moves up into the page.
    expect(after.rows.slice(0, before.rows.length - 1)).toEqual(
      before.rows.filter((id) => id !== hidden),
    );
  });

  it('falls back to the slices when a rating ceiling leaves a cut list short', async () => {
    // 150 items tagged "tiger": the 120 most popular rated r, then 30 g ones.
    const tigers = await insertCatalogItems(
      testApp.database,
      Array.from({ length: 150 }, (_, index) => ({
        title: `Tiger ${index}`,
        tags: ['tiger'],
        trendScore: 200 - index,
        rating: index < 120 ? ('r' as const) : ('g' as const),
        renditions: 'none' as const,
      })),
    );
    await refreshRelatedLists(testApp.database);
    const list = await testApp.database.pool.query<{ item_ids: string[] }>(
      `SELECT item_ids FROM related_keys WHERE key = 't:tiger' AND type = 'gif'`,
    );
    const listed = new Set(list.rows[0]!.item_ids);
    const gTigers = tigers.slice(120);
    expect(gTigers.some((id) => listed.has(id))).toBe(false);

    const page = await related(tigers[0]!, { rating: 'g' });
    // Every g tiger, none of which the list holds, and nothing rated r.
    expect(new Set(page.rows)).toEqual(new Set(gTigers));
    expect(page.totalCount).toBe(30);
  });

  it('answers from the slices after a server from before the entries rebuilt the lists', async () => {
    await refreshRelatedLists(testApp.database);
    await moveCatalogVersion(testApp);
    const source = ids[41]!;
    const before = await related(source);
    // A rolling upgrade: an older server's rebuild writes the lists' ids, not their entries,
    // and moves built_changes alone (here its ids in another order, and an unrelated item).
    await insertCatalogItems(testApp.database, [
      { title: 'Zebra', tags: ['zebra'], renditions: 'none' },
    ]);
    await testApp.database.pool.query(
      `UPDATE related_keys SET item_ids = ARRAY(SELECT unnest(item_ids) ORDER BY 1)
       WHERE key = 't:pet' AND type = 'gif'`,
    );
    await testApp.database.pool.query('DELETE FROM related_lists_changes');
    await testApp.database.pool.query(
      'UPDATE related_lists_state SET built_changes = changes, list_length = $1, built_at = now()',
      [relatedListLength],
    );
    await moveCatalogVersion(testApp);
    const statements = await countStatements(testApp.database, () => related(source));
    expect(statements).toBeGreaterThan(1);
    expect((await related(source)).rows).toEqual(before.rows);
    // This server's job sees the lists as behind, and rebuilds them with their entries.
    const rebuilt = await refreshRelatedLists(testApp.database);
    expect(rebuilt.isRebuilt).toBe(true);
    await moveCatalogVersion(testApp);
    expect(await countStatements(testApp.database, () => related(source))).toBe(1);
    expect((await related(source)).rows).toEqual(before.rows);
  });
});

describe('the job that rebuilds the related lists', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({}, { hasJobs: true });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const isBuilt = async () => {
    const state = await readState(testApp);
    return state.built_changes !== null && state.built_changes === state.changes;
  };

  it('builds the lists at start, shows a new item at once, and takes it into the lists', async () => {
    const [source, friend] = await insertCatalogItems(testApp.database, [
      { title: 'Source owl', tags: ['owl', 'night'], renditions: 'none' },
      { title: 'Barn owl', tags: ['owl'], trendScore: 2, renditions: 'none' },
    ]);
    await expect.poll(isBuilt, { timeout: 15_000 }).toBe(true);
    const related = () =>
      listRelatedItemIds(testApp.app.deps, {
        itemId: source!,
        types: ['gif'],
        limit: 15,
        offset: 0,
      });
    expect((await related()).rows).toEqual([friend]);

    const [newcomer] = await insertCatalogItems(testApp.database, [
      { title: 'Night owl', tags: ['owl', 'night'], trendScore: 1, renditions: 'none' },
    ]);
    await readChangedVersions(testApp);
    // At once: items added since the lists were built are read beside them.
    expect((await related()).rows).toEqual([newcomer, friend]);
    // The job puts it in the lists, and no longer needs to read it beside them.
    await expect.poll(isBuilt, { timeout: 15_000 }).toBe(true);
    const changed = await testApp.database.pool.query('SELECT item_id FROM related_lists_changes');
    expect(changed.rows).toEqual([]);
    const owls = await testApp.database.pool.query<{ item_ids: string[] }>(
      `SELECT item_ids FROM related_keys WHERE key = 't:owl' AND type = 'gif'`,
    );
    expect(owls.rows[0]!.item_ids).toContain(newcomer);
    await moveCatalogVersion(testApp);
    // The lists' entries say what the page ranks by: no item is read.
    expect(await countStatements(testApp.database, related)).toBe(1);
    expect((await related()).rows).toEqual([newcomer, friend]);

    // A deleted item leaves at once, though the lists still hold it until the next rebuild.
    await testApp.database.pool.query('DELETE FROM items WHERE id = $1', [newcomer]);
    await readChangedVersions(testApp);
    expect((await related()).rows).toEqual([friend]);
  });

  it('numbers the keys listed, and lets a key no item has go', async () => {
    const hasNumber = async (key: string) =>
      (await testApp.database.pool.query('SELECT 1 FROM related_key_names WHERE key = $1', [key]))
        .rows.length > 0;
    const [passing] = await insertCatalogItems(testApp.database, [
      { title: 'Comet', tags: ['ephemeral'], renditions: 'none' },
    ]);
    await expect.poll(isBuilt, { timeout: 15_000 }).toBe(true);
    expect(await hasNumber('t:ephemeral')).toBe(true);
    await testApp.database.pool.query('DELETE FROM items WHERE id = $1', [passing]);
    await expect.poll(isBuilt, { timeout: 15_000 }).toBe(true);
    expect(await hasNumber('t:ephemeral')).toBe(false);
  });
});
