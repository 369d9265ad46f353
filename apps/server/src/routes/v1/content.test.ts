import { giphyItemSchema, listEnvelopeSchema, singleEnvelopeSchema } from '@sticky/contracts';
import type { GiphyItem } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems, insertCreator } from '../../test-support/catalog-fixtures.ts';
import { recordCatalogReads } from '../../test-support/database.ts';
import { decodeBody } from '../../test-support/envelopes.ts';
import { readFuzzSettings } from '../../test-support/fuzz.ts';
import { signInAs } from '../../test-support/sign-in.ts';

const listSchema = listEnvelopeSchema(giphyItemSchema);
const singleSchema = singleEnvelopeSchema(giphyItemSchema);
const fuzz = readFuzzSettings('v1 content');

describe('/v1 content: trending, search, by id, related, random, autocomplete', () => {
  let testApp: TestApp;
  let cookie: string;
  const id: Record<string, string> = {};
  const fillerIds: string[] = [];

  /**
   * Each group of tests gets a catalog of its own, made fresh (a new database), so no test
   * sees the rows another group added or the searches it recorded.
   */
  const useFreshCatalog = () => {
    beforeAll(startCatalog);
    afterAll(async () => {
      await testApp.close();
    });
  };

  async function startCatalog() {
    for (const key of Object.keys(id)) delete id[key];
    fillerIds.length = 0;
    testApp = await createTestApp({ PUBLIC_URL: 'https://sticky.example' });
    cookie = (await signInAs(testApp)).cookie;
    await insertCreator(testApp.database, {
      username: 'catlover',
      displayName: 'Cat Lover',
      avatarUrl: 'https://sticky.example/avatar.png',
      description: 'Cats, mostly.',
      isVerified: true,
    });
    const day = (n: number) => new Date(Date.UTC(2025, 0, n));
    const named = {
      dancingCat: {
        title: 'Dancing cat',
        tags: ['cat', 'dance', 'dancing', 'funny'],
        altText: 'A cat dancing on its hind legs',
        trendScore: 9,
        trendingAt: new Date(Date.UTC(2025, 5, 1, 12, 30, 5)),
        creator: 'catlover',
        sourceUrl: 'https://www.example.org/cats/1',
        createdAt: day(1),
      },
      catNap: { title: 'Cat nap', tags: ['cat', 'sleep'], trendScore: 5, createdAt: day(3) },
      happyDog: { title: 'Happy dog', tags: ['dog', 'happy', 'funny'], trendScore: 7 },
      catSticker: { type: 'sticker', title: 'Cat sticker', tags: ['cat'], trendScore: 4 },
      helloText: { type: 'text', title: 'Hello there', tags: ['hello', 'greeting'] },
      dynamicText: { type: 'text', title: 'Hello cat', isDynamic: true, isIndexable: false },
      hiddenCat: { title: 'Hidden cat', tags: ['cat'], isIndexable: false, trendScore: 99 },
      spicyCat: {
        title: 'Spicy cat',
        tags: ['cat'],
        rating: 'r',
        trendScore: 8,
        createdAt: day(2),
      },
    } as const;
    const names = Object.keys(named) as (keyof typeof named)[];
    const ids = await insertCatalogItems(
      testApp.database,
      names.map((name) => named[name]),
    );
    names.forEach((name, index) => (id[name] = ids[index]!));
    fillerIds.push(
      ...(await insertCatalogItems(
        testApp.database,
        Array.from({ length: 30 }, (_, index) => ({
          title: `Filler ${index}`,
          tags: ['filler'],
          trendScore: index % 3,
        })),
      )),
    );
  }

  /** The catalog's listable GIFs: the four named ones and the 30 fillers. */
  const listableGifCount = 4 + 30;

  const get = (url: string) => testApp.app.inject({ method: 'GET', url, headers: { cookie } });
  const list = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return listSchema.parse(response.json());
  };
  /** An answer as a client that accepts `encoding` gets it, for `decode`. */
  const getEncoded = (url: string, encoding: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'GET',
      url,
      headers: { cookie, 'accept-encoding': encoding, ...headers },
    });
  const decode = (response: Awaited<ReturnType<typeof getEncoded>>) =>
    listSchema.parse(JSON.parse(decodeBody(response)));
  const catalogReads = (run: () => Promise<unknown>) => recordCatalogReads(testApp.database, run);
  const expectError = async (url: string, status: number, msg: RegExp) => {
    const response = await get(url);
    expect(response.statusCode, url).toBe(status);
    const body = response.json();
    expect(body.meta.status).toBe(status);
    expect(body.meta.msg).toMatch(msg);
    expect(body.meta.response_id).not.toBe('');
  };

  describe('trending', () => {
    useFreshCatalog();

    it('lists indexable gifs by popularity then id, with exact pagination', async () => {
      const body = await list('/v1/gifs/trending?limit=4');
      expect(body.data.map((item) => item.id)).toEqual([
        id.dancingCat,
        id.spicyCat,
        id.happyDog,
        id.catNap,
      ]);
      expect(body.pagination).toEqual({ total_count: listableGifCount, count: 4, offset: 0 });
      expect(body.meta).toMatchObject({ status: 200, msg: 'OK' });
      expect(body.meta.response_id).toMatch(/^[0-9a-f]{40}$/);
      expect(body.data.every((item) => item.type === 'gif')).toBe(true);
    });

    it('pages through every item exactly once, in a stable order', async () => {
      const seen: string[] = [];
      for (let offset = 0; ; offset += 7) {
        const body = await list(`/v1/gifs/trending?limit=7&offset=${offset}`);
        expect(body.pagination.offset).toBe(offset);
        expect(body.pagination.count).toBe(body.data.length);
        expect(body.pagination.total_count).toBe(listableGifCount);
        seen.push(...body.data.map((item) => item.id));
        if (offset + body.pagination.count >= body.pagination.total_count) break;
      }
      expect(seen).toHaveLength(listableGifCount);
      expect(new Set(seen).size).toBe(listableGifCount);
      expect(seen).not.toContain(id.hiddenCat);
      const again = await list(`/v1/gifs/trending?limit=${listableGifCount}`);
      expect(again.data.map((item) => item.id)).toEqual(seen);
    });

    it('answers past the end with no items and the exact total', async () => {
      const body = await list('/v1/gifs/trending?offset=4999');
      expect(body.data).toEqual([]);
      expect(body.pagination).toEqual({ total_count: listableGifCount, count: 0, offset: 4999 });
    });

    it('applies the rating as a ceiling', async () => {
      const body = await list('/v1/gifs/trending?rating=pg-13&limit=50');
      expect(body.data.map((item) => item.id)).not.toContain(id.spicyCat);
      expect(body.pagination.total_count).toBe(listableGifCount - 1);
      const all = await list('/v1/gifs/trending?rating=R&limit=50');
      expect(all.data.map((item) => item.id)).toContain(id.spicyCat);
    });

    it('keeps stickers and text to their own segment, never on-the-fly renderings', async () => {
      const stickers = await list('/v1/stickers/trending');
      expect(stickers.data.map((item) => item.id)).toEqual([id.catSticker]);
      const text = await list('/v1/text/trending');
      expect(text.data.map((item) => item.id)).toEqual([id.helloText]);
    });

    it('defaults to 25 and serves a limit above 50 at 50', async () => {
      expect((await list('/v1/gifs/trending')).pagination.count).toBe(25);
      const many = await insertCatalogItems(
        testApp.database,
        Array.from({ length: 20 }, (_, index) => ({ title: `Extra ${index}`, tags: ['extra'] })),
      );
      try {
        const capped = await list('/v1/gifs/trending?limit=100');
        expect(capped.pagination).toEqual({
          total_count: listableGifCount + 20,
          count: 50,
          offset: 0,
        });
      } finally {
        // The rows this test added go with it: the other trending tests count the catalog.
        await testApp.database.db.execute(
          sql`DELETE FROM items WHERE id IN (${sql.join(
            many.map((extra) => sql`${extra}`),
            sql`, `,
          )})`,
        );
      }
    });

    it('ignores parameters it does not know, as the SDK sends several', async () => {
      const body = await list(
        '/v1/gifs/trending?rating=pg-13&limit=2&offset=0&type=stickers&api_key=whatever' +
          '&pingback_id=0123456789abcdef&excludeDynamicResults=undefined&fields=id',
      );
      expect(body.data.map((item) => item.id)).toEqual([id.dancingCat, id.happyDog]);
    });

    it('refuses bad values with 400 and a message naming the parameter', async () => {
      await expectError('/v1/gifs/trending?limit=abc', 400, /^limit must be a whole number/);
      await expectError('/v1/gifs/trending?limit=0', 400, /^limit/);
      await expectError('/v1/gifs/trending?limit=-3', 400, /^limit/);
      await expectError('/v1/gifs/trending?limit=2&limit=3', 400, /^limit must be given once/);
      await expectError('/v1/gifs/trending?offset=5000', 400, /^offset must be .* 0 to 4999/);
      await expectError('/v1/gifs/trending?offset=1.5', 400, /^offset/);
      await expectError('/v1/gifs/trending?rating=nc-17', 400, /^rating must be one of/);
    });
  });

  describe('search', () => {
    useFreshCatalog();

    it('finds matching gifs, best first, leaving out hidden items and other types', async () => {
      const body = await list('/v1/gifs/search?q=cat');
      // Each has the word in its title and as a whole tag, and Dancing cat in its alt text too:
      // then popularity (9, 8, 5) decides (docs/catalog.md, "Search", relevance). The hidden
      // cat (99) and the sticker would come first or between were they not left out.
      expect(body.data.map((item) => item.id)).toEqual([id.dancingCat, id.spicyCat, id.catNap]);
      expect(body.pagination).toEqual({ total_count: 3, count: 3, offset: 0 });
    });

    it('ranks title over tags over alt text, then popularity', async () => {
      await insertCatalogItems(testApp.database, [
        { title: 'Sunset', tags: [], altText: 'a zebra at sunset', trendScore: 50 },
        { title: 'Plains', tags: ['zebra'], trendScore: 10 },
        { title: 'Zebra crossing', tags: ['road'], trendScore: 1 },
      ]);
      const body = await list('/v1/gifs/search?q=zebra');
      expect(body.data.map((item) => item.title)).toEqual(['Zebra crossing', 'Plains', 'Sunset']);
    });

    it('tolerates typos and matches the last word as a prefix while typing', async () => {
      expect((await list('/v1/gifs/search?q=dacning%20cat')).data[0]?.id).toBe(id.dancingCat);
      expect((await list('/v1/gifs/search?q=dancnig')).data[0]?.id).toBe(id.dancingCat);
      expect((await list('/v1/gifs/search?q=cat%20danc')).data[0]?.id).toBe(id.dancingCat);
      expect((await list('/v1/gifs/search?q=cats%20dancing')).data[0]?.id).toBe(id.dancingCat);
      expect((await list('/v1/gifs/search?q=qwxzv')).data).toEqual([]);
    });

    it('matches a word being typed as every catalog word it begins, and their stems', async () => {
      // Made-up words, so nothing else in the catalog begins with them.
      const [blorpyDog, blorpiness, swoozer, swoozingOtter] = await insertCatalogItems(
        testApp.database,
        [
          { title: 'Blorpy dog', tags: ['pets'] },
          { title: 'Blorpiness', tags: [] },
          { title: 'Swoozer on stage', tags: [] },
          { title: 'Swoozing otter', tags: [] },
        ],
      );
      const idsFor = async (q: string) =>
        new Set((await list(`/v1/gifs/search?q=${encodeURIComponent(q)}`)).data.map((i) => i.id));
      expect(await idsFor('blorp')).toEqual(new Set([blorpyDog, blorpiness]));
      // "blorpi" begins blorpiness only, whose English stem (blorpi) is blorpy's too.
      expect(await idsFor('blorpi')).toEqual(new Set([blorpyDog, blorpiness]));
      expect(await idsFor('swooz')).toEqual(new Set([swoozer, swoozingOtter]));
      expect(await idsFor('otters swooz')).toEqual(new Set([swoozingOtter]));
      expect(await idsFor('pet blorp')).toEqual(new Set([blorpyDog]));
      // A word begun by more catalog words than are matched one by one: matched as a prefix.
      const zetas = await insertCatalogItems(
        testApp.database,
        Array.from({ length: 70 }, (_, index) => ({ title: `Zetq${index} glyph`, tags: [] })),
      );
      const broad = await list('/v1/gifs/search?q=zetq&limit=50');
      expect(broad.pagination.total_count).toBe(70);
      expect(broad.data.every((item) => zetas.includes(item.id))).toBe(true);
      // A word that has just come into the catalog is found while typed.
      const [quokka] = await insertCatalogItems(testApp.database, [{ title: 'Quokkas', tags: [] }]);
      expect(await idsFor('quok')).toEqual(new Set([quokka]));
    });

    it('ignores accents and finds other forms of a word', async () => {
      const [cafe] = await insertCatalogItems(testApp.database, [
        { title: 'Café crème', tags: ['coffee'] },
      ]);
      expect((await list('/v1/gifs/search?q=cafe%20creme')).data[0]?.id).toBe(cafe);
      expect((await list('/v1/gifs/search?q=CAFÉ')).data[0]?.id).toBe(cafe);
      expect((await list('/v1/gifs/search?q=coffees')).data[0]?.id).toBe(cafe);
    });

    it('filters by type segment and rating', async () => {
      const stickers = await list('/v1/stickers/search?q=cat');
      expect(stickers.data.map((item) => item.id)).toEqual([id.catSticker]);
      const text = await list('/v1/text/search?q=hello&excludeDynamicResults=true');
      // Catalog text first; what follows are renderings of the query made on the fly.
      expect(text.data[0]?.id).toBe(id.helloText);
      expect(text.data.map((item) => item.id)).not.toContain(id.dynamicText);
      expect(
        text.data.slice(1).every((item) => item.type === 'text' && item.is_dynamic === 1),
      ).toBe(true);
      const mild = await list('/v1/gifs/search?q=cat&rating=pg');
      expect(mild.data.map((item) => item.id)).not.toContain(id.spicyCat);
    });

    it('sorts by recency when asked', async () => {
      const body = await list('/v1/gifs/search?q=cat&sort=recent&lang=en');
      expect(body.data.map((item) => item.id)).toEqual([id.catNap, id.spicyCat, id.dancingCat]);
    });

    it('pages without repeating an item', async () => {
      const first = await list('/v1/gifs/search?q=filler&limit=20');
      const second = await list('/v1/gifs/search?q=filler&limit=20&offset=20');
      expect(first.pagination).toEqual({ total_count: 30, count: 20, offset: 0 });
      expect(second.pagination).toEqual({ total_count: 30, count: 10, offset: 20 });
      const ids = [...first.data, ...second.data].map((item) => item.id);
      expect(new Set(ids)).toEqual(new Set(fillerIds));
      const past = await list('/v1/gifs/search?q=filler&offset=40');
      expect(past.pagination).toEqual({ total_count: 30, count: 0, offset: 40 });
    });

    it('records first-page searches that found something', async () => {
      // The counted one last: counts are written behind the reply (content.ts), so the test
      // waits for its row; those that must not count were answered before it.
      await list('/v1/gifs/search?q=happy%20dog&offset=1');
      await list('/v1/gifs/search?q=nothingmatchesthis');
      await list('/v1/gifs/search?q=Happy%20%20Dog');
      const readRows = async () =>
        (
          await testApp.database.db.execute<{ query: string; count: number }>(
            sql`SELECT query, count FROM search_queries WHERE query LIKE '%dog%' OR query LIKE 'nothing%'`,
          )
        ).rows;
      await expect.poll(readRows).not.toEqual([]);
      expect(await readRows()).toEqual([{ query: 'happy dog', count: 1 }]);
      // The first page that found nothing is counted apart, for the admin overview.
      const misses = await testApp.database.db.execute<{ query: string; count: number }>(
        sql`SELECT query, count FROM search_misses WHERE query = 'nothingmatchesthis'`,
      );
      expect(misses.rows).toEqual([{ query: 'nothingmatchesthis', count: 1 }]);
    });

    it('answers any query text without failing: operators, quotes, emoji, accents', async () => {
      for (const q of [
        `"dancing`,
        `cat -dog`,
        `cat OR "nap"`,
        `'`,
        `\\`,
        `a:*`,
        `&|!<->`,
        `🐈 cat`,
        `Ĉàt`,
        `the`,
        `-`,
        `x-ray o'clock`,
      ]) {
        const response = await get(`/v1/gifs/search?q=${encodeURIComponent(q)}`);
        expect(response.statusCode, q).toBe(200);
      }
      await fc.assert(
        fc.asyncProperty(
          fc.string({ minLength: 1, maxLength: 50, unit: 'grapheme' }),
          async (q) => {
            const response = await get(`/v1/stickers/search?q=${encodeURIComponent(q)}`);
            expect([200, 400, 414]).toContain(response.statusCode);
          },
        ),
        { numRuns: fuzz.runs * 5, seed: fuzz.seed },
      );
    });

    it('refuses a missing query, a long one (414) and bad parameters', async () => {
      await expectError('/v1/gifs/search', 400, /^q is required/);
      await expectError('/v1/gifs/search?q=%20%20', 400, /^q is required/);
      await expectError(`/v1/gifs/search?q=${'a'.repeat(51)}`, 414, /^q must be at most 50/);
      await expectError('/v1/gifs/search?q=cat&sort=best', 400, /^sort must be relevant or recent/);
      await expectError('/v1/gifs/search?q=cat&lang=english', 400, /^lang must be/);
      await expectError('/v1/stickers/search?q=cat&offset=x', 400, /^offset/);
      expect((await get(`/v1/gifs/search?q=${'a'.repeat(50)}`)).statusCode).toBe(200);
    });
  });

  describe('kept search pages', () => {
    useFreshCatalog();

    it('serves a search asked again as the page it sent, in every coding, without reading the catalog', async () => {
      const url = '/v1/gifs/search?q=cat&limit=2';
      const first = await getEncoded(url, 'br, gzip');
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-encoding']).toBe('br');
      expect(first.headers.vary).toMatch(/accept-encoding/i);
      const sent = decode(first);
      expect(sent.data.map((item) => item.id)).toEqual([id.dancingCat, id.spicyCat]);
      expect(sent.pagination).toEqual({ total_count: 3, count: 2, offset: 0 });

      // Once the server knows the catalog's version, the same search (any spelling of it) is
      // the same page, response_id included, and reads nothing.
      await expect
        .poll(() => catalogReads(() => getEncoded('/v1/gifs/search?q=CAT&limit=2', 'br')))
        .toEqual([]);
      for (const encoding of ['br', 'gzip', 'identity']) {
        const again = await getEncoded(url, encoding);
        expect(again.headers['content-encoding']).toBe(
          encoding === 'identity' ? undefined : encoding,
        );
        expect(decode(again)).toEqual(sent);
      }

      // Kept in the coding its first request accepted, and sent in any other from it.
      for (const [q, first] of [
        ['nap', 'gzip'],
        ['dancing', 'identity'],
      ]) {
        const made = await getEncoded(`/v1/gifs/search?q=${q}`, first!);
        const page = decode(made);
        expect(page.data).not.toEqual([]);
        for (const encoding of ['identity', 'br', 'gzip', first!]) {
          expect(decode(await getEncoded(`/v1/gifs/search?q=${q}`, encoding))).toEqual(page);
        }
      }

      // Another page, size or rating is another answer.
      const second = decode(await getEncoded('/v1/gifs/search?q=cat&limit=2&offset=2', 'br'));
      expect(second.data.map((item) => item.id)).toEqual([id.catNap]);
      const rated = decode(await getEncoded('/v1/gifs/search?q=cat&limit=2&rating=g', 'br'));
      expect(rated.data.map((item) => item.id)).toEqual([id.dancingCat, id.catNap]);
      expect(rated.meta.response_id).not.toBe(sent.meta.response_id);
    });

    it('never serves a kept page after a change to what it shows', async () => {
      const url = '/v1/gifs/search?q=cat&limit=2';
      const titles = async () => decode(await getEncoded(url, 'br')).data.map((item) => item.title);
      expect(await titles()).toEqual(['Dancing cat', 'Spicy cat']);
      await expect.poll(() => catalogReads(() => getEncoded(url, 'br'))).toEqual([]);

      await testApp.database.db.execute(
        sql`UPDATE items SET title = 'Dancing cat in a hat' WHERE id = ${id.dancingCat}`,
      );
      await expect.poll(titles).toEqual(['Dancing cat in a hat', 'Spicy cat']);
      await testApp.database.db.execute(
        sql`UPDATE items SET is_indexable = false WHERE id = ${id.spicyCat}`,
      );
      await expect.poll(titles).toEqual(['Dancing cat in a hat', 'Cat nap']);
    });

    it('counts each person who searches, though the page was kept', async () => {
      const url = '/v1/gifs/search?q=funny';
      const other = (await signInAs(testApp)).cookie;
      expect(decode(await getEncoded(url, 'br')).pagination.total_count).toBe(2);
      await expect.poll(() => catalogReads(() => getEncoded(url, 'br'))).toEqual([]);
      expect((await getEncoded(url, 'br', { cookie: other })).statusCode).toBe(200);
      const count = async () =>
        (
          await testApp.database.db.execute<{ count: number }>(
            sql`SELECT count FROM search_queries WHERE query = 'funny'`,
          )
        ).rows[0]?.count;
      await expect.poll(count).toBe(2);
    });
  });

  describe('by id', () => {
    useFreshCatalog();

    it('serves one item in GIPHY shape, even when it is not listed', async () => {
      const response = await get(`/v1/gifs/${id.dancingCat}`);
      expect(response.statusCode).toBe(200);
      const body = singleSchema.parse(response.json());
      const item: GiphyItem = body.data;
      expect(item).toMatchObject({
        id: id.dancingCat,
        type: 'gif',
        title: 'Dancing cat',
        slug: `dancing-cat-${id.dancingCat}`,
        url: `https://sticky.example/gif/dancing-cat-${id.dancingCat}`,
        username: 'catlover',
        source: 'https://www.example.org/cats/1',
        source_tld: 'www.example.org',
        rating: 'g',
        is_sticker: 0,
        is_indexable: 1,
        tags: ['cat', 'dance', 'dancing', 'funny'],
        alt_text: 'A cat dancing on its hind legs',
        import_datetime: '2025-01-01 00:00:00',
        trending_datetime: '2025-06-01 12:30:05',
        user: {
          username: 'catlover',
          display_name: 'Cat Lover',
          avatar_url: 'https://sticky.example/avatar.png',
          description: 'Cats, mostly.',
          is_verified: true,
        },
      });
      expect(item).not.toHaveProperty('analytics_response_payload');
      expect(item.images.original).toMatchObject({
        width: '480',
        height: '360',
        frames: '12',
        url: expect.stringMatching(/^https:\/\/sticky\.example\/media\/.+\/original\.gif$/),
        webp: expect.stringMatching(/^https:\/\/sticky\.example\/media\/.+\/original\.webp$/),
      });
      expect(item.images.fixed_width).toMatchObject({ width: '200', height: '150' });
      expect(item.images.fixed_height).toMatchObject({ width: '267', height: '200' });
      for (const rendition of Object.values(item.images)) {
        for (const key of ['width', 'height', 'size', 'webp_size', 'frames'] as const) {
          if (key in rendition) expect(typeof rendition[key]).toBe('string');
        }
      }

      const hidden = singleSchema.parse((await get(`/v1/gifs/${id.hiddenCat}`)).json());
      expect(hidden.data).toMatchObject({ id: id.hiddenCat, is_indexable: 0 });
      expect(hidden.data.trending_datetime).toBe('0000-00-00 00:00:00');
      expect(hidden.data).not.toHaveProperty('user');
      const dynamic = singleSchema.parse((await get(`/v1/gifs/${id.dynamicText}`)).json());
      expect(dynamic.data).toMatchObject({ type: 'text', is_dynamic: 1, is_sticker: 1 });
    });

    it('says 404 for an unknown id and 400 for a malformed one', async () => {
      await expectError('/v1/gifs/doesNotExist123', 404, /^No item with id doesNotExist123/);
      await expectError('/v1/gifs/bad%20id!', 400, /^id is not a valid item id/);
    });

    it('serves several ids in the order asked, hidden ones included, unknown ones left out', async () => {
      const body = await list(
        `/v1/gifs?ids=${id.catNap},unknownId1,${id.hiddenCat},${id.catSticker},${id.catNap}`,
      );
      expect(body.data.map((item) => item.id)).toEqual([id.catNap, id.hiddenCat, id.catSticker]);
      expect(body.pagination).toEqual({ total_count: 3, count: 3, offset: 0 });
    });

    it('serves a list of ids asked again as it sent it, in every coding, until an item in it changes', async () => {
      const url = `/v1/gifs?ids=${id.catNap},${id.dancingCat}`;
      const first = await getEncoded(url, 'br, gzip');
      expect(first.headers['content-encoding']).toBe('br');
      const sent = decode(first);
      expect(sent.data.map((item) => item.id)).toEqual([id.catNap, id.dancingCat]);
      // Once the server knows the catalog's version, the same list reads nothing, response_id
      // included, in any coding.
      await expect.poll(() => catalogReads(() => getEncoded(url, 'br'))).toEqual([]);
      for (const encoding of ['br', 'gzip', 'identity']) {
        expect(decode(await getEncoded(url, encoding))).toEqual(sent);
      }
      // Another order is another answer, in that order.
      const reversed = decode(await getEncoded(`/v1/gifs?ids=${id.dancingCat},${id.catNap}`, 'br'));
      expect(reversed.data.map((item) => item.id)).toEqual([id.dancingCat, id.catNap]);

      // An edit of an item in the list shows on the next request.
      await testApp.database.db.execute(
        sql`UPDATE items SET title = 'Renamed nap' WHERE id = ${id.catNap}`,
      );
      await expect
        .poll(async () => decode(await getEncoded(url, 'br')).data.map((item) => item.title))
        .toContain('Renamed nap');
    });

    it('refuses missing or malformed ids', async () => {
      await expectError('/v1/gifs', 400, /^ids is required/);
      await expectError('/v1/gifs?ids=,,', 400, /^ids is required/);
      await expectError('/v1/gifs?ids=abc,d%3Ce', 400, /^ids contains an invalid id/);
      const tooMany = Array.from({ length: 101 }, (_, index) => `id${index}`).join(',');
      await expectError(`/v1/gifs?ids=${tooMany}`, 400, /^ids can list at most 100/);
    });
  });

  describe('related', () => {
    useFreshCatalog();

    it('ranks by shared tags, then title words, never the item itself', async () => {
      const [twin, cousin, wordOnly] = await insertCatalogItems(testApp.database, [
        { title: 'Twirl', tags: ['cat', 'dance', 'funny'] },
        { title: 'Kitten', tags: ['cat'], trendScore: 40 },
        { title: 'Dancing queen', tags: ['music'] },
      ]);
      const body = await list(`/v1/gifs/related?gif_id=${id.dancingCat}&limit=50`);
      const ids = body.data.map((item) => item.id);
      expect(ids[0]).toBe(twin);
      expect(ids).not.toContain(id.dancingCat);
      expect(ids).not.toContain(id.hiddenCat);
      expect(ids).not.toContain(id.catSticker);
      expect(ids.indexOf(id.happyDog!)).toBeLessThan(ids.indexOf(wordOnly!));
      expect(ids.indexOf(cousin!)).toBeLessThan(ids.indexOf(wordOnly!));
      expect(ids).toContain(wordOnly);
      expect(body.pagination.total_count).toBe(ids.length);

      const page = await list(`/v1/gifs/related?gif_id=${id.dancingCat}&limit=2&offset=1`);
      expect(page.data.map((item) => item.id)).toEqual(ids.slice(1, 3));
      const stickers = await list(`/v1/stickers/related?gif_id=${id.dancingCat}`);
      expect(stickers.data.map((item) => item.id)).toEqual([id.catSticker]);
    });

    it('serves a related page asked again as it sent it, in every coding, until an item in it changes', async () => {
      const url = `/v1/gifs/related?gif_id=${id.dancingCat}&limit=3`;
      const first = await getEncoded(url, 'br, gzip');
      expect(first.headers['content-encoding']).toBe('br');
      const sent = decode(first);
      expect(sent.data).toHaveLength(3);
      // Once the server knows the catalog's version, the same page reads nothing, response_id
      // included, in any coding.
      await expect.poll(() => catalogReads(() => getEncoded(url, 'br'))).toEqual([]);
      for (const encoding of ['br', 'gzip', 'identity']) {
        expect(decode(await getEncoded(url, encoding))).toEqual(sent);
      }
      // Another page, size, rating or type is another answer.
      const next = decode(await getEncoded(`${url}&offset=3`, 'br'));
      expect(next.pagination.offset).toBe(3);
      expect(next.data.map((item) => item.id)).not.toContain(sent.data[0]!.id);
      const stickers = decode(await getEncoded(url.replace('/gifs/', '/stickers/'), 'br'));
      expect(stickers.data.map((item) => item.id)).toEqual([id.catSticker]);

      // An edit of an item on the page shows on the next request.
      const [top] = sent.data;
      await testApp.database.db.execute(
        sql`UPDATE items SET title = 'Renamed, still related' WHERE id = ${top!.id}`,
      );
      await expect
        .poll(async () => decode(await getEncoded(url, 'br')).data.map((item) => item.title))
        .toContain('Renamed, still related');
    });

    it('refuses a missing or unknown gif_id', async () => {
      await expectError('/v1/gifs/related', 400, /^gif_id is required/);
      await expectError('/v1/gifs/related?gif_id=nope123', 404, /^No item with gif_id nope123/);
    });
  });

  describe('random', () => {
    useFreshCatalog();

    it('picks one listable item, matching the tag when one is given', async () => {
      // The GIFs tagged cat, listable and rated up to pg-13: every draw is one of these, and
      // drawing long enough meets each (missing one in 200 fair draws: about 2^-199).
      const eligible = new Set([id.dancingCat, id.catNap]);
      const seen = new Set<string>();
      for (let attempt = 0; attempt < 200 && seen.size < eligible.size; attempt += 1) {
        const response = await get('/v1/gifs/random?tag=cat&rating=pg-13');
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('no-store');
        const { data } = singleSchema.parse(response.json());
        expect(data).toMatchObject({ type: 'gif', is_indexable: 1 });
        expect(data.tags).toContain('cat');
        expect(data.rating).not.toBe('r');
        expect(eligible.has(data.id), data.id).toBe(true);
        seen.add(data.id);
      }
      expect(seen).toEqual(eligible);
      const sticker = singleSchema.parse((await get('/v1/stickers/random')).json());
      expect(sticker.data.id).toBe(id.catSticker);
    });

    it('says 404 when nothing matches, 414 for a long tag', async () => {
      await expectError('/v1/gifs/random?tag=qwxzv', 404, /^No GIFs found for tag qwxzv/);
      await expectError(`/v1/gifs/random?tag=${'b'.repeat(51)}`, 414, /^tag must be at most 50/);
    });
  });

  describe('autocomplete and trending searches', () => {
    useFreshCatalog();

    it('suggests tags that start with what was typed, most used first', async () => {
      const body = (await get('/v1/gifs/search/tags?q=Fu')).json();
      expect(body.data).toEqual([{ name: 'funny' }]);
      expect(body.pagination).toEqual({ total_count: 1, count: 1, offset: 0 });
      const d = (await get('/v1/gifs/search/tags?q=d&limit=1')).json();
      expect(d.data).toEqual([{ name: 'dance' }]);
      expect(d.pagination).toEqual({ total_count: 3, count: 1, offset: 0 });
      const next = (await get('/v1/gifs/search/tags?q=d&limit=5&offset=1')).json();
      expect(next.data).toEqual([{ name: 'dancing' }, { name: 'dog' }]);
      await expectError('/v1/gifs/search/tags', 400, /^q is required/);
    });

    it('suggests no phrase only a few people searched, nor one only drawn as animated text', async () => {
      const search = async (cookie: string, url: string) => {
        const response = await testApp.app.inject({ method: 'GET', url, headers: { cookie } });
        expect(response.statusCode).toBe(200);
        expect(response.json().pagination.total_count).toBeGreaterThan(0);
      };
      const countSearchers = async (query: string) =>
        (
          await testApp.database.pool.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM search_query_searchers WHERE query = $1',
            [query],
          )
        ).rows[0]!.n;
      for (let person = 0; person < 6; person += 1) {
        const { cookie } = await signInAs(testApp);
        // Animated text always finds something: the phrase drawn (docs/catalog.md, "Trending").
        await search(cookie, '/v1/text/search?q=free%20robux');
        // Three accounts that found GIFs are still a few people.
        if (person < 3) await search(cookie, '/v1/gifs/search?q=funny%20dance');
      }
      await expect.poll(() => countSearchers('funny dance')).toBe(3);
      expect(await countSearchers('free robux')).toBe(0);
      const suggested = (await get('/v1/trending/searches')).json().data;
      expect(suggested).not.toContain('free robux');
      expect(suggested).not.toContain('funny dance');
      // Drawing the phrase the first time takes a while on a busy machine.
    }, 120_000);

    it('lists queries searched often lately, then popular titles', async () => {
      // Trending counts people, not requests (catalog/activity/search-queries.ts): five.
      for (let count = 0; count < 5; count += 1) {
        const someone = (await signInAs(testApp)).cookie;
        const response = await testApp.app.inject({
          method: 'GET',
          url: '/v1/stickers/search?q=cat',
          headers: { cookie: someone },
        });
        expect(response.statusCode).toBe(200);
      }
      // Searches are counted behind their replies: the fifth count lands a moment later.
      await expect
        .poll(async () => (await get('/v1/trending/searches')).json().data[0])
        .toBe('cat');
      const response = await get('/v1/trending/searches');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.meta.response_id).not.toBe('');
      expect(body).not.toHaveProperty('pagination');
      expect(body.data[0]).toBe('cat');
      expect(body.data).toContain('dancing cat');
      expect(body.data).not.toContain('spicy cat');
      expect(body.data).not.toContain('hidden cat');
      expect(body.data.length).toBeLessThanOrEqual(20);
    });
  });
});
