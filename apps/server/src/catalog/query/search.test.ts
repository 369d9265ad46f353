import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { countStatements } from '../../test-support/database.ts';
import { searchItemIds } from './search.ts';

/** A query's ranking is kept while the catalog is unchanged, and never past a change. */
describe('search rankings', () => {
  let testApp: TestApp;
  const options = { q: 'cat', types: ['gif'] as const, limit: 2, offset: 0 };

  beforeAll(async () => {
    testApp = await createTestApp();
    await insertCatalogItems(
      testApp.database,
      Array.from({ length: 5 }, (_, index) => ({
        title: `Cat number ${index + 1}`,
        trendScore: 10 - index,
      })),
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const titlesOf = async (ids: readonly string[]) =>
    (
      await testApp.database.db.execute<{ id: string; title: string }>(
        sql`SELECT id, title FROM items WHERE id IN ${sql.raw(`('${ids.join("','")}')`)}`,
      )
    ).rows
      .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
      .map((row) => row.title);

  it('serves the next pages and repeats from memory, the same as ranking them again', async () => {
    const first = await searchItemIds(testApp.app.deps, options);
    expect(first.totalCount).toBe(5);
    expect(await titlesOf(first.rows)).toEqual(['Cat number 1', 'Cat number 2']);

    await expect
      .poll(() =>
        countStatements(testApp.database, () =>
          searchItemIds(testApp.app.deps, { ...options, offset: 2 }),
        ),
      )
      .toBe(0);
    const second = await searchItemIds(testApp.app.deps, { ...options, offset: 2 });
    const last = await searchItemIds(testApp.app.deps, { ...options, offset: 4 });
    expect(await titlesOf([...second.rows, ...last.rows])).toEqual([
      'Cat number 3',
      'Cat number 4',
      'Cat number 5',
    ]);
    expect(last.totalCount).toBe(5);
  });

  it('ranks a query once however many ask for it at the same moment', async () => {
    // Listening, so a kept ranking costs nothing: what is counted below is the ranking alone.
    await expect
      .poll(() => countStatements(testApp.database, () => searchItemIds(testApp.app.deps, options)))
      .toBe(0);
    const once = await countStatements(testApp.database, () =>
      searchItemIds(testApp.app.deps, { ...options, q: 'number 1' }),
    );
    const together = await countStatements(testApp.database, () =>
      Promise.all(
        Array.from({ length: 5 }, () =>
          searchItemIds(testApp.app.deps, { ...options, q: 'number 2' }),
        ),
      ),
    );
    expect(once).toBeGreaterThan(0);
    expect(together).toBe(once);
  });

  it('keeps rankings apart by what was asked: type, rating, sort and the words as typed', async () => {
    await insertCatalogItems(testApp.database, [
      { title: 'Cat sticker', type: 'sticker', trendScore: 50 },
      { title: 'Catnap', trendScore: 60 },
    ]);
    const stickers = await searchItemIds(testApp.app.deps, { ...options, types: ['sticker'] });
    expect(await titlesOf(stickers.rows)).toEqual(['Cat sticker']);
    // "cat" typed without a space may still be "catnap"; "cat " is the whole word.
    await expect
      .poll(
        async () => (await searchItemIds(testApp.app.deps, { ...options, q: 'cat' })).totalCount,
      )
      .toBe(6);
    expect((await searchItemIds(testApp.app.deps, { ...options, q: 'cat ' })).totalCount).toBe(5);
  });

  it('never serves a ranking past a change to the catalog', async () => {
    await searchItemIds(testApp.app.deps, { ...options, q: 'cat ' });
    const [newcomer] = await insertCatalogItems(testApp.database, [
      { title: 'Cat newcomer', trendScore: 100 },
    ]);
    await expect
      .poll(async () => (await searchItemIds(testApp.app.deps, { ...options, q: 'cat ' })).rows[0])
      .toBe(newcomer);
    await testApp.database.db.execute(
      sql`UPDATE items SET is_indexable = false WHERE id = ${newcomer}`,
    );
    await expect
      .poll(
        async () => (await searchItemIds(testApp.app.deps, { ...options, q: 'cat ' })).totalCount,
      )
      .toBe(5);
  });
});

/**
 * A plain query is matched by its English stems alone when every word has one (search.ts,
 * relevanceSql): that holds only while an item with a word always has that word's stem.
 */
describe('matching by stems', () => {
  let testApp: TestApp;
  const find = async (q: string) =>
    (await searchItemIds(testApp.app.deps, { q, types: ['gif'], limit: 25, offset: 0 })).rows;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('finds every word of an item through that word’s stem, whatever its script or form', async () => {
    await insertCatalogItems(testApp.database, [
      { title: 'Café crème brûlée', tags: ['naïve', 'Ünïcödé'], altText: 'Déjà vu' },
      { title: 'Ice-cream in 100x slow motion', tags: ['e-mail', 'don’t', "can't"] },
      { title: 'Привет мир', tags: ['日本語', 'Ελληνικά'], altText: 'ПРЫГАЮЩИЙ КОТ' },
      { title: 'Running dancers celebrating', tags: ['2024', 'v2.0', 'ßtraße'] },
      { title: 'THE CATS’ PAJAMAS', altText: 'Ｆｕｌｌｗｉｄｔｈ letters and ﬁ ligatures' },
    ]);
    const missing = await testApp.database.db.execute<{ title: string; word: string }>(sql`
      SELECT i.title, words.word
      FROM items i, unnest(tsvector_to_array(i.search_vector)) AS words(word)
      WHERE NOT tsvector_to_array(to_tsvector('sticky_english', words.word))
        <@ tsvector_to_array(i.search_vector_stem)`);
    expect(missing.rows).toEqual([]);
    expect(await find('creme brulee')).toHaveLength(1);
    expect(await find('Ice cream 100x')).toHaveLength(1);
    expect(await find('привет')).toHaveLength(1);
  });

  it('finds queries with punctuation between or inside their words, typed or whole', async () => {
    const [animals, plusOne, cpp, version, mail, percent] = await insertCatalogItems(
      testApp.database,
      [
        { title: 'Animals & Nature' },
        { title: '+1 from me' },
        { title: 'C++ rocks' },
        { title: 'Release v2.0' },
        { title: 'Write to foo@bar.example' },
        { title: '100% done, #1 fan' },
      ],
    );
    expect(await find('animals & nature')).toEqual([animals]);
    expect(await find('animals & nat')).toEqual([animals]);
    expect(await find('food & drink & animals ')).toEqual([]);
    // Punctuation inside a word can make one lexeme of it: those are matched as written too.
    expect(await find('+1 from')).toEqual([plusOne]);
    expect(await find('c++ rocks')).toEqual([cpp]);
    expect(await find('release v2.0')).toEqual([version]);
    expect(await find('foo@bar.example')).toEqual([mail]);
    expect(await find('100% done, #1')).toEqual([percent]);
  });

  it('still finds a stop word, typed or whole, that has no stem', async () => {
    const [you, young] = await insertCatalogItems(testApp.database, [
      { title: 'You', trendScore: 5 },
      { title: 'Young cat', trendScore: 4 },
    ]);
    // `yo` begins "you" (a stop word: no stem) and "young" (stem young).
    expect((await find('yo')).sort()).toEqual([you, young].sort());
    expect(await find('you ')).toEqual([you]);
    expect(await find('young ')).toEqual([young]);
  });
});
