import { giphyItemSchema, listEnvelopeSchema, tenorResultsSchema } from '@sticky/contracts';
import { reactions } from '@sticky/contracts/reactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { countStatements } from '../../test-support/database.ts';
import { signInAs } from '../../test-support/sign-in.ts';
import { searchItemIds } from './search.ts';
import { listExpansionCandidates, readSynonymMap, toEmojiKey } from './synonyms.ts';

const apiKey = 'synonym-key-0123456789abcdefghijklmnop';

/** Synonyms and emoji keywords (docs/catalog.md, "Synonyms and emoji"). */
describe('search by synonyms and emoji', () => {
  let testApp: TestApp;
  let cookie: string;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    // Blocks of 2: an exact match less popular than an expansion's would sit in a later block.
    testApp = await createTestApp({ STICKY_API_KEYS: apiKey, SEARCH_RANK_CANDIDATES: '2' });
    cookie = (await signInAs(testApp)).cookie;
    const named = {
      gladExact: { title: 'So glad', tags: ['glad'], trendScore: 1 },
      gladToo: { title: 'Glad you came', tags: ['glad', 'party'], trendScore: 0 },
      happyKid: { title: 'Happy kid', tags: ['happy', 'kid'], trendScore: 90 },
      happyDay: { title: 'Sunny day', tags: ['happy', 'sunny'], trendScore: 80 },
      laughingBaby: { title: 'Laughing baby', tags: ['laughing', 'baby'], trendScore: 30 },
      tinyPup: { title: 'Tiny pup', tags: ['pup'], trendScore: 2 },
      goodDog: { title: 'Good dog', tags: ['dog'], trendScore: 60 },
      catNap: { title: 'Cat nap', tags: ['cat', 'sleep'], trendScore: 5 },
      dancingCat: { title: 'Dancing cat', tags: ['cat', 'dance'], trendScore: 9 },
      feline: { title: 'Feline grace', tags: ['feline'], trendScore: 50 },
    };
    const ids = await insertCatalogItems(testApp.database, Object.values(named));
    Object.keys(named).forEach((key, index) => (id[key] = ids[index]!));
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const search = (q: string, page: { limit?: number; offset?: number } = {}) =>
    searchItemIds(testApp.app.deps, { q, limit: page.limit ?? 25, offset: page.offset ?? 0 });
  const idsOf = async (q: string) => (await search(q)).rows;

  it('finds "happy" items for "glad", below every item tagged "glad"', async () => {
    const { rows, totalCount } = await search('glad');
    // Exact matches by relevance first, then the expansions by theirs (popularity breaks ties).
    expect(rows).toEqual([id.gladExact, id.gladToo, id.happyKid, id.happyDay]);
    expect(totalCount).toBe(4);
    // As typed, with a space after it, in any case.
    expect(await idsOf('Glad ')).toEqual(rows);
  });

  it('finds "laughing" items for 😂 and "dog" items for "pup"', async () => {
    expect(await idsOf('😂')).toContain(id.laughingBaby);
    expect(await idsOf('😂')).not.toContain(id.catNap);
    expect(await idsOf('pup')).toEqual([id.tinyPup, id.goodDog]);
  });

  it('never ranks an expansion above an exact match, on any page, without repeats or gaps', async () => {
    const whole = await search('glad');
    const paged: string[] = [];
    for (let offset = 0; offset < whole.totalCount; offset += 1) {
      const page = await search('glad', { limit: 1, offset });
      expect(page.totalCount).toBe(whole.totalCount);
      paged.push(...page.rows);
    }
    expect(paged).toEqual(whole.rows);
    expect(new Set(paged).size).toBe(paged.length);
    const exact = new Set([id.gladExact, id.gladToo]);
    const firstExpansion = paged.findIndex((row) => !exact.has(row));
    expect(paged.slice(firstExpansion).some((row) => exact.has(row))).toBe(false);
    // Newest first too: every exact match before any expansion.
    const recent = await searchItemIds(testApp.app.deps, {
      q: 'glad',
      sort: 'recent',
      limit: 25,
      offset: 0,
    });
    expect(new Set(recent.rows.slice(0, 2))).toEqual(exact);
    expect(recent.totalCount).toBe(4);
  });

  it('answers a query without synonyms in the catalog as before: its own matches only', async () => {
    // "cat" has WordNet relatives, none of them in this catalog ("feline" is a hypernym).
    expect(await search('cat')).toMatchObject({ rows: [id.dancingCat, id.catNap], totalCount: 2 });
    expect((await search('sleep')).rows).toEqual([id.catNap]);
    // Operators keep their meaning: no expansion.
    expect(await idsOf('glad -party ')).toEqual([id.gladExact]);
    expect(await idsOf('"glad"')).toEqual([id.gladExact, id.gladToo]);
  });

  it('costs a query without synonyms in the catalog no statement more, one with them one', async () => {
    // A new query each time (rankings are kept): the statements of one cold search.
    const statements = (q: string, isExpanded?: boolean) =>
      countStatements(testApp.database, () =>
        searchItemIds(testApp.app.deps, { q, limit: 25, offset: 0, isExpanded }),
      );
    expect(await statements('sleep nap ')).toBe(await statements('nap sleep', false));
    // Its expansions ranked after its exact matches: "glad kid" finds the happy kid.
    expect(await statements('glad kid ')).toBe((await statements('kid glad', false)) + 1);
    expect((await search('glad kid')).rows).toEqual([id.happyKid]);
  });

  it('answers the same through the web app, /v1 and /v2', async () => {
    const giphyList = listEnvelopeSchema(giphyItemSchema);
    const get = (url: string, headers: Record<string, string> = {}) =>
      testApp.app.inject({ method: 'GET', url, headers });
    for (const [q, found] of [
      ['glad', id.happyKid],
      ['pup', id.goodDog],
      ['😂', id.laughingBaby],
    ] as const) {
      const expected = await idsOf(q);
      expect(expected).toContain(found);
      const query = encodeURIComponent(q);
      // The web app searches through /v1 with its session (docs/api.md, "/api").
      const web = giphyList.parse((await get(`/v1/gifs/search?q=${query}`, { cookie })).json());
      const v1 = giphyList.parse(
        (await get(`/v1/gifs/search?q=${query}&api_key=${apiKey}`)).json(),
      );
      const v2 = tenorResultsSchema.parse(
        (await get(`/v2/search?q=${query}&key=${apiKey}`)).json(),
      );
      for (const ids of [
        web.data.map((item) => item.id),
        v1.data.map((item) => item.id),
        v2.results.map((result) => result.id),
      ]) {
        expect(ids, q).toEqual(expected);
      }
    }
  });
});

describe('synonym map', () => {
  it('expands words and emoji, and nothing of a query with operators', () => {
    const map = readSynonymMap();
    expect(map.words.glad).toContain('happy');
    expect(map.words.pup).toContain('dog');
    expect(map.emoji['😂']).toEqual(expect.arrayContaining(['laugh', 'joy']));
    const expanded = (q: string) => listExpansionCandidates(map, q).map((found) => found.token);
    expect(expanded('glad 👍🏽 cat')).toEqual(['glad', '👍🏽', 'cat']);
    expect(expanded('glad or sad')).toEqual([]);
    expect(expanded('qwxzv')).toEqual([]);
    // Never an inherited property.
    expect(expanded('constructor tostring')).toEqual([]);
  });

  it("names each reaction chip's emoji by the chip's query (the home page's strip)", () => {
    const map = readSynonymMap();
    for (const { query, emoji } of reactions) {
      const keywords = map.emoji[toEmojiKey(emoji)] ?? [];
      const words = query.split(' ');
      expect(
        keywords.some((keyword) => words.some((word) => keyword.startsWith(word))),
        `${emoji} ${query}: ${keywords.join(', ')}`,
      ).toBe(true);
    }
  });
});
