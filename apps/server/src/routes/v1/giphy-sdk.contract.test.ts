import fs from 'node:fs';
import path from 'node:path';
import { GiphyFetch, setServerUrl } from '@giphy/js-fetch-api';
import { giphyItemSchema, renditionNames } from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import {
  insertCatalogItems,
  insertCategory,
  insertCreator,
} from '../../test-support/catalog-fixtures.ts';

/** Real GIPHY responses recorded into the repository (fixtures/giphy/SOURCES.md). */
const fixturesDir = path.resolve(import.meta.dirname, '../../../../../fixtures/giphy');

/**
 * GIPHY's own client (`@giphy/js-fetch-api`, the one the SPA uses) against a listening server:
 * every method the issue lists, its error cases, and the shape of what it receives.
 */
describe('GIPHY SDK contract', () => {
  let testApp: TestApp;
  let origin: string;
  let gf: GiphyFetch;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    testApp = await createTestApp({ STICKY_API_KEYS: 'sdk-test-key-0123456789abcdefghijklm' });
    await insertCreator(testApp.database, {
      username: 'maker',
      displayName: 'The Maker',
      avatarUrl: 'https://example.org/a.png',
      profileUrl: 'https://example.org/maker',
      websiteUrl: 'https://example.org',
      description: 'Makes things',
    });
    const entries = {
      dancingCat: {
        title: 'Dancing cat',
        tags: ['cat', 'dance'],
        trendScore: 3,
        creator: 'maker',
        sourceUrl: 'https://example.org/cat',
        hasMp4: true,
      },
      sleepyCat: { title: 'Sleepy cat', tags: ['cat', 'sleep'], trendScore: 2 },
      dog: { title: 'Good dog', tags: ['dog'], trendScore: 1, rating: 'pg' },
      catSticker: { type: 'sticker', title: 'Cat sticker', tags: ['cat'] },
      dogSticker: { type: 'sticker', title: 'Dog sticker', tags: ['dog', 'cat'] },
      hello: { type: 'text', title: 'Hello world', tags: ['hello'] },
      hidden: { title: 'Hidden cat', tags: ['cat'], isIndexable: false },
    } as const;
    const names = Object.keys(entries) as (keyof typeof entries)[];
    const ids = await insertCatalogItems(
      testApp.database,
      names.map((name) => entries[name]),
    );
    names.forEach((name, index) => (id[name] = ids[index]!));
    const reactions = await insertCategory(testApp.database, {
      name: 'Reactions',
      itemIds: [id.dog!],
    });
    await insertCategory(testApp.database, {
      name: 'Happy Cats',
      parentId: reactions.id,
      itemIds: [id.dancingCat!, id.sleepyCat!],
    });

    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const address = testApp.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    origin = `http://127.0.0.1:${address.port}`;
    setServerUrl(`${origin}/v1/`);
    gf = new GiphyFetch('sdk-test-key-0123456789abcdefghijklm');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const ids = (result: { data: { id: string | number }[] }) =>
    result.data.map((item) => String(item.id));

  it('trending: gifs, stickers and text', async () => {
    const gifs = await gf.trending({ limit: 2 });
    expect(ids(gifs)).toEqual([id.dancingCat, id.sleepyCat]);
    expect(gifs.pagination).toEqual({ total_count: 3, count: 2, offset: 0 });
    expect(gifs.meta.response_id).not.toBe('');
    // The SDK normalises: 0/1 flags become booleans, sizes become numbers.
    expect(gifs.data[0]).toMatchObject({ is_sticker: false, is_indexable: true });
    expect(gifs.data[0]?.images.fixed_width.width).toBe(200);
    expect(gifs.data[0]?.response_id).toBe(gifs.meta.response_id);
    const next = await gf.trending({ limit: 2, offset: 2 });
    expect(ids(next)).toEqual([id.dog]);
    expect(ids(await gf.trending({ type: 'stickers' })).sort()).toEqual(
      [id.catSticker, id.dogSticker].sort(),
    );
    expect(ids(await gf.trending({ type: 'text' }))).toEqual([id.hello]);
  });

  it('search: gifs, stickers and text, with pagination and rating', async () => {
    const cats = await gf.search('cat', { limit: 25, lang: 'en', sort: 'relevant' });
    expect(ids(cats).sort()).toEqual([id.dancingCat, id.sleepyCat].sort());
    expect(cats.pagination).toEqual({ total_count: 2, count: 2, offset: 0 });
    const second = await gf.search('cat', { limit: 1, offset: 1 });
    expect(second.pagination).toEqual({ total_count: 2, count: 1, offset: 1 });
    expect(ids(second)).toEqual([ids(cats)[1]]);
    const stickers = await gf.search('cat', { type: 'stickers' });
    expect(ids(stickers)[0]).toBe(id.catSticker);
    expect(ids(stickers).sort()).toEqual([id.catSticker, id.dogSticker].sort());
    // Catalog text first; renderings of the query follow it (text-animate.test.ts).
    expect(ids(await gf.search('hello', { type: 'text', limit: 1 }))).toEqual([id.hello]);
    expect(ids(await gf.search('dog', { rating: 'g' }))).toEqual([]);
    expect(ids(await gf.search('dacning cat'))).toEqual([id.dancingCat]);
  });

  it('gif and gifs by id, hidden items included', async () => {
    const one = await gf.gif(id.dancingCat!);
    expect(one.data).toMatchObject({ id: id.dancingCat, title: 'Dancing cat', type: 'gif' });
    expect(one.data.user).toMatchObject({ username: 'maker', display_name: 'The Maker' });
    expect((await gf.gif(id.hidden!)).data.id).toBe(id.hidden);
    const several = await gf.gifs([id.hello!, id.hidden!, id.dog!]);
    expect(ids(several)).toEqual([id.hello, id.hidden, id.dog]);
    expect(several.pagination).toEqual({ total_count: 3, count: 3, offset: 0 });
  });

  it('categories, subcategories and a subcategory’s gifs', async () => {
    const categories = await gf.categories();
    expect(categories.data).toHaveLength(1);
    expect(categories.data[0]).toMatchObject({
      name: 'Reactions',
      name_encoded: 'reactions',
      subcategories: [{ name: 'Happy Cats', name_encoded: 'happy-cats' }],
    });
    // Categories are not normalised by the SDK: the featured gif keeps GIPHY's wire shape.
    expect(giphyItemSchema.parse(categories.data[0]?.gif).id).toBe(id.dancingCat);
    const subcategories = await gf.subcategories('reactions', { limit: 10 });
    expect(subcategories.data.map((category) => category.name_encoded)).toEqual(['happy-cats']);
    expect(subcategories.pagination).toEqual({ total_count: 1, count: 1, offset: 0 });
    const items = await gf.gifs('reactions', 'happy-cats');
    expect(ids(items)).toEqual([id.dancingCat, id.sleepyCat]);
  });

  it('related and random', async () => {
    const related = await gf.related(id.dancingCat!, { limit: 15 });
    expect(ids(related)[0]).toBe(id.sleepyCat);
    expect(ids(related)).not.toContain(id.dancingCat);
    expect(related.pagination.count).toBe(related.data.length);
    const relatedStickers = await gf.related(id.dancingCat!, { type: 'stickers' });
    expect(ids(relatedStickers).sort()).toEqual([id.catSticker, id.dogSticker].sort());
    const random = await gf.random({ tag: 'cat' });
    expect([id.dancingCat, id.sleepyCat]).toContain(String(random.data.id));
    const randomSticker = await gf.random({ type: 'stickers', tag: 'dog' });
    expect(String(randomSticker.data.id)).toBe(id.dogSticker);
  });

  it("turns our errors into the SDK's messages: '@giphy/js-fetch-api: ' + meta.msg", async () => {
    const cases: Array<[() => Promise<unknown>, number, string]> = [
      [() => gf.gif('missing12345'), 404, 'No item with id missing12345'],
      [() => gf.search('x'.repeat(51)), 414, 'q must be at most 50 characters'],
      [
        () => gf.trending({ offset: 5000 }),
        400,
        'offset must be a whole number from 0 to 4999, got "5000"',
      ],
      [() => gf.related('missing12345'), 404, 'No item with gif_id missing12345'],
      [() => gf.random({ tag: 'zzzqqq' }), 404, 'No GIFs found for tag zzzqqq'],
      [() => gf.subcategories('nope'), 404, 'No category named nope'],
      [() => gf.gifs('reactions', 'nope'), 404, 'No subcategory named nope in Reactions'],
      [() => new GiphyFetch('wrong-key').trending({ limit: 3 }), 401, 'Invalid api_key.'],
    ];
    for (const [call, status, msg] of cases) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught as { message: string; status: number },
      );
      expect(error, msg).toBeDefined();
      expect(error?.message).toBe(`@giphy/js-fetch-api: ${msg}`);
      expect(error?.status).toBe(status);
    }
  });

  describe('our objects carry the fields of GIPHY’s real responses that apply to us', () => {
    /**
     * GIPHY-only: its pingback payload (the SDK would send it to GIPHY), GIPHY's tag curation, a
     * 2019 search score, old Twitter. `analytics` applies: its URLs are ours.
     */
    const notApplicable = new Set([
      'analytics_response_payload',
      'featured_tags',
      'user_tags',
      '_score',
      'twitter',
    ]);

    function fixtureGifs(): Record<string, unknown>[] {
      return fs
        .readdirSync(fixturesDir)
        .filter((file) => file.startsWith('v1-gifs') && file.endsWith('.json'))
        .flatMap((file) => {
          const body = JSON.parse(fs.readFileSync(path.join(fixturesDir, file), 'utf8'));
          return Array.isArray(body.data) ? body.data : [body.data];
        });
    }

    async function rawItem(itemId: string) {
      const response = await fetch(
        `${origin}/v1/gifs/${itemId}?api_key=sdk-test-key-0123456789abcdefghijklm`,
      );
      const body = (await response.json()) as {
        data: Record<string, unknown> & {
          images: Record<string, Record<string, unknown>>;
          user: Record<string, unknown>;
        };
      };
      return body.data;
    }

    it('item, user and rendition keys', async () => {
      const gifs = fixtureGifs();
      expect(gifs.length).toBeGreaterThan(30);
      const ours = await rawItem(id.dancingCat!);

      const itemKeys = new Set(gifs.flatMap((gif) => Object.keys(gif)));
      const missing = [...itemKeys].filter((key) => !notApplicable.has(key) && !(key in ours));
      expect(missing).toEqual([]);

      const userKeys = new Set(
        gifs.flatMap((gif) => Object.keys((gif.user as object | undefined) ?? {})),
      );
      const missingUser = [...userKeys].filter(
        (key) => !notApplicable.has(key) && !(key in ours.user),
      );
      expect(missingUser).toEqual([]);

      // Every rendition GIPHY names (contracts' renditionNames), with the fields GIPHY gives it.
      const expectedNames = [...renditionNames];
      expect(Object.keys(ours.images).sort()).toEqual(expectedNames.sort());
      for (const name of expectedNames) {
        const fixtureFields = new Set(
          gifs.flatMap((gif) => Object.keys((gif.images as Record<string, object>)[name] ?? {})),
        );
        expect(fixtureFields.size, name).toBeGreaterThan(0);
        const missingFields = [...fixtureFields].filter((field) => !(field in ours.images[name]!));
        expect(missingFields, name).toEqual([]);
        for (const value of Object.values(ours.images[name]!)) expect(typeof value).toBe('string');
      }
      expect(giphyItemSchema.parse(ours)).toBeTruthy();
    });
  });
});
