import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { countItemRowsRead } from '../../test-support/database.ts';
import { loadItemsByIds } from './items.ts';
import { listRelatedItemIds } from './related.ts';
import { searchItemIds } from './search.ts';

/**
 * Issue 15: a search or a related row reads a bounded number of items however many match
 * (docs/catalog.md, "Search", "Related"). 2,000 pets, with SEARCH_RANK_CANDIDATES=20: a word
 * hundreds of items share is ranked from its most popular matches, twenty at a time, paging
 * walks every match once, and a page reads about what it needs, not every match.
 */
describe('rankings that read a bounded part of the catalog', () => {
  const blockSize = 20;
  const petCount = 2_000;
  let testApp: TestApp;
  let petIds: string[];
  let sourceId: string;
  let zebraIds: string[];

  beforeAll(async () => {
    testApp = await createTestApp({ SEARCH_RANK_CANDIDATES: String(blockSize) });
    // Popularity 1 to 1000.5 in steps of half a unit: each pet in a popularity tier of its own,
    // so "most popular first" is one order. Cats: one in five says so in its title, one in five
    // in its tags.
    petIds = await insertCatalogItems(
      testApp.database,
      Array.from({ length: petCount }, (_, index) => ({
        title: index % 5 === 0 ? `Cat ${index}` : `Animal ${index}`,
        tags: index % 5 === 1 ? ['pet', 'cat'] : ['pet'],
        trendScore: 1 + index * 0.5,
        renditions: 'none' as const,
      })),
    );
    // An item and three zebras nobody ever viewed, which share the rare tag "stripes".
    sourceId = (
      await insertCatalogItems(testApp.database, [
        { title: 'Source', tags: ['stripes', 'pet'], trendScore: 0, renditions: 'none' },
      ])
    )[0]!;
    zebraIds = await insertCatalogItems(
      testApp.database,
      Array.from({ length: 3 }, (_, index) => ({
        title: `Zebra ${index}`,
        tags: ['stripes', 'pet'],
        trendScore: 0,
        renditions: 'none' as const,
      })),
    );
    // The statistics autovacuum keeps on a real catalog, which the planner goes by.
    await testApp.database.pool.query('ANALYZE items');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const search = (q: string, offset: number, limit = 25) =>
    searchItemIds(testApp.app.deps, { q, types: ['gif'], limit, offset });
  const related = (itemId: string, offset: number) =>
    listRelatedItemIds(testApp.app.deps, { itemId, types: ['gif'], limit: 15, offset });
  const isCat = (index: number) => index % 5 === 0 || index % 5 === 1;

  it('ranks the most popular matches by relevance, a block at a time, and pages without repeats or gaps', async () => {
    const seen: string[] = [];
    let total = Number.POSITIVE_INFINITY;
    for (let offset = 0; offset < total; offset += 25) {
      const page = await search('cat ', offset);
      total = page.totalCount;
      if (page.rows.length === 0) break;
      seen.push(...page.rows);
    }
    const cats = petIds.filter((_, index) => isCat(index));
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set(cats));
    expect(total).toBe(cats.length);

    // Most popular first, in blocks of 20: each block holds the next 20 most popular cats...
    const byPopularity = [...cats].reverse();
    for (const block of [0, 1, 7]) {
      const range = [block * blockSize, (block + 1) * blockSize] as const;
      expect(new Set(seen.slice(...range))).toEqual(new Set(byPopularity.slice(...range)));
    }
    // ...ordered by relevance: titles that say "cat" before tags that do, popular first.
    const titles = (await loadItemsByIds(testApp, seen.slice(0, blockSize))).map(
      (row) => row.title,
    );
    expect(titles.slice(0, 3)).toEqual(['Cat 1995', 'Cat 1990', 'Cat 1985']);
    expect(titles.slice(10).every((title) => title.startsWith('Animal'))).toBe(true);
  });

  it('reads about as many items for a word every item has as the page needs', async () => {
    await search('pet ', 0);
    await testApp.database.pool.query('SELECT sticky_catalog_version_bump()');
    // The kept ranking needs 250 ids: 13 blocks of 20, 260 pets, of 2,004.
    const read = await countItemRowsRead(testApp.database, () => search('pet', 0));
    expect(read).toBeGreaterThanOrEqual(260);
    expect(read).toBeLessThan(2 * 260);
  });

  it('reads as little for an inflected, misspelt or half-typed form of a broad word', async () => {
    // None of these is a word of the catalog; each finds every pet through its stem ("pets"),
    // its typo correction ("pett") or its prefix ("pe"), so each is as broad as "pet" and must
    // be read a slice at a time too, not whole as a rare word would be. "other" is an English
    // stop word: the stem matcher finds every pet without it, however rare it is as written.
    for (const q of ['pets ', 'pett ', 'pe', 'other pets ']) {
      await testApp.database.pool.query('SELECT sticky_catalog_version_bump()');
      const read = await countItemRowsRead(testApp.database, () => search(q, 0));
      expect(read, q).toBeGreaterThanOrEqual(260);
      expect(read, q).toBeLessThan(2 * 260);
      expect((await search(q, 0)).totalCount, q).toBeGreaterThan(260);
    }
  });

  it('ranks exactly by relevance when fewer items match than a block holds', async () => {
    const page = await search('zebra', 0);
    expect(page.totalCount).toBe(3);
    expect(new Set(page.rows)).toEqual(new Set(zebraIds));
  });

  it('counts exactly what it read whole, and estimates a broad word past that', async () => {
    const broad = await search('pet', 0);
    expect(broad.totalCount).toBeGreaterThan(260);
    const last = await search('pet', 2_000);
    expect(last.totalCount).toBe(petCount + 4);
    expect(last.rows).toHaveLength(4);
  });

  it('relates the items that share a rare tag before those that share a common one', async () => {
    const page = await related(sourceId, 0);
    // The three zebras share both tags: first, although nobody ever viewed them.
    expect(new Set(page.rows.slice(0, 3))).toEqual(new Set(zebraIds));
    expect(page.rows).not.toContain(sourceId);
    // "pet" is on every item: it brings its most popular ones, never all 2,000.
    const read = await countItemRowsRead(testApp.database, () => related(petIds[7]!, 0));
    expect(read).toBeLessThan(300);
  });

  it('pages through related items without repeats or gaps', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 600; offset += 15) {
      const page = await related(zebraIds[0]!, offset);
      seen.push(...page.rows);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(600);
    expect(new Set(seen.slice(0, 3))).toEqual(new Set([sourceId, ...zebraIds.slice(1)]));
  });
});

/**
 * Issue 15: paging without repeats or gaps across the first 5,000 results, as /v1 pages (50 at
 * a time). 6,500 items, 6,000 of them dogs, in blocks of 40: the first pages come from the kept
 * ranking, the rest from deep pages each ranked on its own (search.ts, `searchItemIds`), and a
 * page of 50 straddles blocks.
 */
describe('paging through the first 5,000 results of a word', () => {
  const blockSize = 40;
  const itemCount = 6_500;
  const pageSize = 50;
  const depth = 5_000;
  let testApp: TestApp;
  let ids: string[];

  beforeAll(async () => {
    testApp = await createTestApp({ SEARCH_RANK_CANDIDATES: String(blockSize) });
    // Each item a popularity tier of its own, so "most popular first" is one order. Dogs: half
    // say so in their title, half in their tags; one item in thirteen is a bird.
    ids = await insertCatalogItems(
      testApp.database,
      Array.from({ length: itemCount }, (_, index) => ({
        title:
          index % 13 === 0 ? `Bird ${index}` : index % 2 === 0 ? `Dog ${index}` : `Pet ${index}`,
        tags: index % 13 === 0 ? ['bird'] : ['dog'],
        trendScore: 1 + index * 0.5,
        renditions: 'none' as const,
      })),
    );
    await testApp.database.pool.query('ANALYZE items');
  }, 60_000);
  afterAll(async () => {
    await testApp?.close();
  });

  it('walks offsets 0 to 4,999 fifty at a time: 5,000 distinct ids, the most popular dogs, one ranking', async () => {
    const search = (offset: number, limit: number) =>
      searchItemIds(testApp.app.deps, { q: 'dog', types: ['gif'], limit, offset });
    const seen: string[] = [];
    for (let offset = 0; offset < depth; offset += pageSize) {
      const page = await search(offset, pageSize);
      expect(page.rows, `offset ${offset}`).toHaveLength(pageSize);
      expect(page.totalCount, `offset ${offset}`).toBeGreaterThan(offset + pageSize);
      seen.push(...page.rows);
    }
    expect(seen).toHaveLength(depth);
    expect(new Set(seen).size).toBe(depth);

    // No gaps: the 5,000 most popular of the 6,000 dogs (blocks depend on the catalog only).
    const dogsByPopularity = ids.filter((_, index) => index % 13 !== 0).reverse();
    expect(dogsByPopularity).toHaveLength(6_000);
    for (let start = 0; start < depth; start += blockSize) {
      expect(new Set(seen.slice(start, start + blockSize)), `block at ${start}`).toEqual(
        new Set(dogsByPopularity.slice(start, start + blockSize)),
      );
    }
    // One ranking: the pages, put end to end, are the first 5,000 ranked at once.
    expect(seen).toEqual((await search(0, depth)).rows);
  }, 120_000);
});
