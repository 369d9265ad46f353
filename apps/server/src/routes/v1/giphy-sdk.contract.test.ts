import fs from 'node:fs';
import path from 'node:path';
import { GiphyFetch } from '@giphy/js-fetch-api';
import { giphyItemSchema, renditionNames } from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMedia } from '../../catalog/import/import-media.ts';
import { makeLaterRenditions } from '../../catalog/import/later-renditions.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { connectGiphySdk, sdkTestApiKey } from '../../test-support/giphy-sdk.ts';
import {
  insertCatalogItems,
  insertCategory,
  insertCreator,
} from '../../test-support/catalog-fixtures.ts';
import { makeAnimation } from '../../test-support/media.ts';

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
    testApp = await createTestApp({ STICKY_API_KEYS: sdkTestApiKey });
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

    ({ origin, gf } = await connectGiphySdk(testApp));
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

    function readFixtures(prefix: string): Record<string, unknown>[] {
      return fs
        .readdirSync(fixturesDir)
        .filter((file) => file.startsWith(prefix) && file.endsWith('.json'))
        .flatMap((file) => {
          const body = JSON.parse(fs.readFileSync(path.join(fixturesDir, file), 'utf8'));
          return Array.isArray(body.data) ? body.data : [body.data];
        });
    }
    const fixtureGifs = () => readFixtures('v1-gifs');

    async function rawItem(itemId: string) {
      const response = await fetch(`${origin}/v1/gifs/${itemId}?api_key=${sdkTestApiKey}`);
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

    it('trending searches and channels: the envelope and fields of GIPHY’s recorded ones', async () => {
      const readBody = (file: string) =>
        JSON.parse(fs.readFileSync(path.join(fixturesDir, file), 'utf8')) as {
          data: Record<string, unknown>[];
          meta: object;
        };
      const get = async (route: string) =>
        (await (await fetch(`${origin}/v1/${route}&api_key=${sdkTestApiKey}`)).json()) as {
          data: Record<string, unknown>[];
          meta: object;
        };

      const searches = readBody('v1-trending-searches.giphy-js.json');
      const ourSearches = await get('trending/searches?limit=20');
      expect(Object.keys(ourSearches).sort()).toEqual(Object.keys(searches).sort());
      expect(Object.keys(ourSearches.meta).sort()).toEqual(Object.keys(searches.meta).sort());
      for (const term of ourSearches.data) expect(typeof term).toBe('string');

      const channels = readBody('v1-channels-search_nba.giphy-js.json');
      const ourChannels = await get('channels/search?q=maker');
      expect(Object.keys(ourChannels).sort()).toEqual(Object.keys(channels).sort());
      expect(ourChannels.data.length).toBeGreaterThan(0);
      const channelKeys = new Set(channels.data.flatMap((channel) => Object.keys(channel)));
      // GIPHY's live events, screensaver and channel tree: a creator has none of them, and our
      // channels do not send them (empty or null) yet.
      const notSent = new Set([
        'live_since_datetime',
        'live_until_datetime',
        'screensaver_gif',
        'ancestors',
        'syncable_tags',
      ]);
      const missing = [...channelKeys].filter(
        (key) => !notSent.has(key) && !(key in ourChannels.data[0]!),
      );
      expect(missing).toEqual([]);
    });

    /** Every media URL of an item's slots answers with its file: the type and size it claims. */
    async function expectWorkingUrls(images: Record<string, Record<string, unknown>>) {
      const checked = new Map<string, { type: string | null; bytes: number }>();
      for (const [name, slot] of Object.entries(images)) {
        for (const [field, sizeField, type] of [
          ['url', 'size', /^image\/(gif|webp|png|jpeg)$/],
          ['webp', 'webp_size', /^image\/(webp|gif)$/],
          ['mp4', 'mp4_size', /^video\/mp4$/],
          ['webm', 'webm_size', /^video\/webm$/],
        ] as const) {
          const url = slot[field];
          if (typeof url !== 'string') continue;
          const label = `${name}.${field}`;
          let answer = checked.get(url);
          if (!answer) {
            const response = await fetch(`${origin}${new URL(url).pathname}`);
            expect(response.status, label).toBe(200);
            answer = {
              type: response.headers.get('content-type'),
              bytes: (await response.arrayBuffer()).byteLength,
            };
            checked.set(url, answer);
          }
          expect(answer.type, label).toMatch(type);
          if (slot[sizeField] !== undefined)
            expect(slot[sizeField], label).toBe(String(answer.bytes));
        }
      }
    }

    it('a sticker: GIPHY’s sticker fields, its video as WebM (VP9 alpha), never an MP4, no broken URL', async () => {
      // GIPHY's stickers (and emoji, which are stickers) as recorded: fixtures/giphy/SOURCES.md.
      const stickers = readFixtures('v2-emoji').filter((item) => item.is_sticker === 1);
      expect(stickers.length).toBeGreaterThanOrEqual(10);
      // docs/api.md, "Renditions": where GIPHY gives a sticker an H.264 MP4 (on a flat colour),
      // we give the WebM with alpha beside GIPHY's fields, and no `mp4` at all.
      const ourField = (field: string) =>
        field === 'mp4' ? 'webm' : field === 'mp4_size' ? 'webm_size' : field;

      // A real sticker, made as an upload is: first what the grid and the item page show. With
      // the app's deps, the app hears of each change as its own workers' (docs/catalog.md,
      // "Caches and versions").
      const imported = await importMedia(
        testApp.app.deps,
        {
          bytes: await makeAnimation({ frames: 8, width: 120, isTransparent: true, seed: 5 }),
          fileName: 'waving.gif',
          // Not listed: the lists the other tests count stay as they are.
          metadata: {
            title: 'Waving sticker',
            tags: ['wave'],
            type: 'sticker',
            isIndexable: false,
          },
        },
        { phase: 'ready' },
      );
      if (imported.status !== 'imported') throw new Error(JSON.stringify(imported));
      const stickerId = imported.itemId;
      const videoSlots = renditionNames.filter((name) =>
        stickers.some((item) => 'mp4' in ((item.images as Record<string, object>)[name] ?? {})),
      );
      expect(videoSlots).toEqual(expect.arrayContaining(['original_mp4', 'preview', 'looping']));

      // Before its WebM is made, a video slot is the nearest image: a working URL, no video.
      const early = await rawItem(stickerId);
      expect(early.is_sticker).toBe(1);
      for (const name of videoSlots) {
        const slot = early.images[name]!;
        expect(slot.mp4, name).toBeUndefined();
        expect(slot.url ?? slot.webm, name).toEqual(expect.any(String));
      }
      await expectWorkingUrls(early.images);
      // Beside GIPHY's fields, the stills the grid and the item page show carry their WebP (a
      // poster usually a fraction of the GIF's bytes; docs/api.md, "Renditions"), which works.
      for (const name of ['original_still', 'fixed_width_still']) {
        const slot = early.images[name]!;
        expect(slot.webp, name).toMatch(/\.webp$/);
        expect(Number(slot.webp_size), name).toBeGreaterThan(0);
      }

      // Once every rendition is made, each slot GIPHY's stickers have carries their fields.
      expect(await makeLaterRenditions(testApp.app.deps, stickerId)).toMatchObject({
        status: 'made',
      });
      const ours = await rawItem(stickerId);
      for (const name of renditionNames) {
        const fixtureFields = new Set(
          stickers.flatMap((item) =>
            Object.keys((item.images as Record<string, object>)[name] ?? {}),
          ),
        );
        expect(fixtureFields.size, name).toBeGreaterThan(0);
        const slot = ours.images[name]!;
        const missing = [...fixtureFields].map(ourField).filter((field) => !(field in slot));
        expect(missing, name).toEqual([]);
        expect(slot.mp4, name).toBeUndefined();
        expect(slot.mp4_size, name).toBeUndefined();
      }
      for (const name of videoSlots) expect(ours.images[name]!.webm, name).toMatch(/\.webm$/);
      await expectWorkingUrls(ours.images);
      expect(giphyItemSchema.parse(ours)).toBeTruthy();

      // GIPHY's client hands the same to an app: no `mp4` to load, the WebM beside.
      const viaSdk = (await gf.gif(stickerId)).data;
      expect(viaSdk.is_sticker).toBe(true);
      expect(viaSdk.images.original_mp4.mp4).toBeUndefined();
      expect((viaSdk.images.original_mp4 as { webm?: string }).webm).toBe(
        ours.images.original_mp4!.webm,
      );
    });
  });
});
