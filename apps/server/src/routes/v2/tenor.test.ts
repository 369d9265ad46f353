import { tenorErrorSchema, tenorResultsSchema } from '@sticky/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { items, renditions } from '../../db/schema.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems, insertCategory } from '../../test-support/catalog-fixtures.ts';
import { recordCatalogReads } from '../../test-support/database.ts';
import { decodeBody } from '../../test-support/envelopes.ts';
import { signInAs } from '../../test-support/sign-in.ts';

describe('/v2 (Tenor v2)', () => {
  let testApp: TestApp;
  let ids: string[];

  beforeAll(async () => {
    testApp = await createTestApp({ STICKY_API_KEYS: 'tenor-key-0123456789abcdefghijklmnopq' });
    ids = await insertCatalogItems(testApp.database, [
      ...Array.from({ length: 7 }, (_, index) => ({
        title: `Cat number ${index}`,
        tags: ['cat'],
        trendScore: 10 + index,
        hasMp4: true,
        altText: `A cat, number ${index}`,
      })),
      { title: 'Spicy cat', tags: ['cat'], trendScore: 100, rating: 'r' as const },
      { title: 'Cat sticker', tags: ['cat'], type: 'sticker' as const, trendScore: 5 },
      // 2:1, inside Tenor's wide range and outside its standard one.
      {
        title: 'Panorama view',
        tags: ['panorama'],
        width: 400,
        height: 200,
        rating: 'pg' as const,
      },
    ]);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const get = async (url: string) => {
    const response = await testApp.app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };

  it('answers 401 in Tenor error shape without a key, 400 for a bad value', async () => {
    for (const url of ['/v2/featured', '/v2/search?q=cat', '/v2/search?q=cat&key=wrong']) {
      const { status, body } = await get(url);
      expect(status).toBe(401);
      expect(tenorErrorSchema.parse(body).error).toMatchObject({
        code: 401,
        status: 'UNAUTHENTICATED',
      });
    }
    for (const url of [
      '/v2/search?key=tenor-key-0123456789abcdefghijklmnopq&q=cat&limit=51',
      '/v2/search?key=tenor-key-0123456789abcdefghijklmnopq&q=cat&contentfilter=extreme',
      '/v2/search?key=tenor-key-0123456789abcdefghijklmnopq&q=cat&pos=abc',
      '/v2/search?key=tenor-key-0123456789abcdefghijklmnopq&q=cat&pos=5000',
      '/v2/search?key=tenor-key-0123456789abcdefghijklmnopq',
      '/v2/featured?key=tenor-key-0123456789abcdefghijklmnopq&searchfilter=gifs',
    ]) {
      const { status, body } = await get(url);
      expect(status, url).toBe(400);
      expect(tenorErrorSchema.parse(body).error).toMatchObject({
        code: 400,
        status: 'INVALID_ARGUMENT',
      });
    }
    const missing = await get('/v2/nothing-here?key=tenor-key-0123456789abcdefghijklmnopq');
    expect(missing.status).toBe(404);
    expect(tenorErrorSchema.parse(missing.body).error.code).toBe(404);
    // The router rejects a broken escape before any plugin runs; the answer is still Tenor's shape.
    const broken = await get('/v2/posts%E0%A4%A?key=tenor-key-0123456789abcdefghijklmnopq');
    expect(broken.status).toBe(400);
    expect(tenorErrorSchema.parse(broken.body).error).toMatchObject({ code: 400 });
  });

  it('gives every result the gif and tinygif Tenor clients read, from the item itself while its smaller GIFs are not made yet', async () => {
    const [id] = (await insertCatalogItems(testApp.database, [
      {
        title: 'Small new tiny one',
        tags: ['smallnew'],
        isIndexable: false,
        width: 256,
        height: 192,
        renditions: 'none',
      },
    ])) as [string];
    await testApp.database.db.insert(renditions).values([
      {
        itemId: id,
        name: 'original',
        format: 'gif',
        width: 256,
        height: 192,
        bytes: 900,
        path: `${id.slice(0, 2)}/${id}/original.gif`,
      },
      {
        itemId: id,
        name: 'original_still',
        format: 'gif',
        width: 256,
        height: 192,
        frames: 1,
        bytes: 90,
        path: `${id.slice(0, 2)}/${id}/original_still.gif`,
      },
    ]);
    const { body } = await get(
      `/v2/posts?key=tenor-key-0123456789abcdefghijklmnopq&ids=${id}&media_filter=gif,tinygif`,
    );
    const formats = tenorResultsSchema.parse(body).results[0]!.media_formats;
    expect(formats.gif?.url).toMatch(/original\.gif$/);
    expect(formats.tinygif).toMatchObject({ dims: [256, 192] });
    expect(formats.tinygif?.url).toBe(formats.gif?.url);
  });

  it('keeps only the aspect ratios ar_range asks for, and shuffles a page when random', async () => {
    const search = async (query: string) =>
      tenorResultsSchema.parse(
        (await get(`/v2/search?key=tenor-key-0123456789abcdefghijklmnopq&${query}`)).body,
      ).results;
    expect(await search('q=panorama')).toHaveLength(1);
    expect(await search('q=panorama&ar_range=all')).toHaveLength(1);
    expect(await search('q=panorama&ar_range=wide')).toHaveLength(1);
    expect(await search('q=panorama&ar_range=standard')).toEqual([]);
    expect((await search('q=cat&ar_range=standard&limit=7')).length).toBe(7);
    expect(
      (await get('/v2/search?key=tenor-key-0123456789abcdefghijklmnopq&q=cat&ar_range=square'))
        .status,
    ).toBe(400);
    expect(
      (await get('/v2/search?key=tenor-key-0123456789abcdefghijklmnopq&q=cat&random=maybe')).status,
    ).toBe(400);

    const ordered = (await search('q=cat&limit=7')).map((result) => result.id);
    const orders = new Set<string>();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const shuffled = (await search('q=cat&limit=7&random=true')).map((result) => result.id);
      expect([...shuffled].sort()).toEqual([...ordered].sort());
      orders.add(shuffled.join());
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it("takes Tenor's tiny and nano formats from the renditions made for Tenor's sizes", async () => {
    const [gifId, stickerId] = (await insertCatalogItems(testApp.database, [
      { title: 'Sized one', tags: ['sizedone'], isIndexable: false, hasMp4: true },
      { title: 'Sized sticker', tags: ['sizedone'], type: 'sticker', isIndexable: false },
    ])) as [string, string];
    const file = (itemId: string, name: string, format: 'gif' | 'webp' | 'mp4' | 'webm') => {
      const [width, height] = name === 'tiny' ? [220, 165] : [120, 90];
      const path = `${itemId.slice(0, 2)}/${itemId}/${name}.${format}`;
      return { itemId, name, format, width, height, bytes: 321, path };
    };
    await testApp.database.db
      .insert(renditions)
      .values([
        ...(['tiny', 'nano'] as const).flatMap((name) => [
          file(gifId, name, 'gif'),
          file(gifId, name, 'mp4'),
          file(stickerId, name, 'gif'),
          file(stickerId, name, 'webp'),
          file(stickerId, name, 'webm'),
        ]),
      ]);
    const { body } = await get(
      `/v2/posts?key=tenor-key-0123456789abcdefghijklmnopq&ids=${gifId},${stickerId}`,
    );
    const [gif, sticker] = tenorResultsSchema.parse(body).results;
    expect(gif!.media_formats.tinygif).toMatchObject({ dims: [220, 165], size: 321 });
    expect(gif!.media_formats.tinygif?.url).toMatch(/\/tiny\.gif$/);
    expect(gif!.media_formats.nanogif?.url).toMatch(/\/nano\.gif$/);
    expect(gif!.media_formats.tinymp4?.url).toMatch(/\/tiny\.mp4$/);
    expect(gif!.media_formats.nanomp4).toMatchObject({ dims: [120, 90] });
    expect(gif!.media_formats.tinywebm).toBeUndefined();
    expect(sticker!.media_formats.tinygif_transparent?.url).toMatch(/\/tiny\.gif$/);
    expect(sticker!.media_formats.nanowebp_transparent?.url).toMatch(/\/nano\.webp$/);
    expect(sticker!.media_formats.tinywebm?.url).toMatch(/\/tiny\.webm$/);
    expect(sticker!.media_formats.nanowebm?.url).toMatch(/\/nano\.webm$/);
  });

  it('pages search with pos from next, never repeating or skipping, unknown params ignored', async () => {
    const seen: string[] = [];
    let pos = '';
    for (let page = 0; page < 10; page += 1) {
      const { status, body } = await get(
        `/v2/search?key=tenor-key-0123456789abcdefghijklmnopq&client_key=app&locale=en_US&whatever=1&q=cat&limit=3${pos ? `&pos=${pos}` : ''}`,
      );
      expect(status).toBe(200);
      const parsed = tenorResultsSchema.parse(body);
      seen.push(...parsed.results.map((result) => result.id));
      pos = parsed.next;
      if (!pos) break;
    }
    const gifIds = ids.slice(0, 8);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...gifIds].sort());
  });

  it('maps contentfilter to ratings and searchfilter to stickers', async () => {
    const high = tenorResultsSchema.parse(
      (
        await get(
          '/v2/featured?key=tenor-key-0123456789abcdefghijklmnopq&contentfilter=high&limit=50',
        )
      ).body,
    );
    expect(high.results.map((result) => result.title)).not.toContain('Spicy cat');
    expect(high.results).toHaveLength(7);
    const off = tenorResultsSchema.parse(
      (await get('/v2/featured?key=tenor-key-0123456789abcdefghijklmnopq&limit=50')).body,
    );
    expect(off.results[0]?.title).toBe('Spicy cat');
    expect(off.next).toBe('');
    const stickers = tenorResultsSchema.parse(
      (await get('/v2/featured?key=tenor-key-0123456789abcdefghijklmnopq&searchfilter=sticker'))
        .body,
    );
    expect(stickers.results.map((result) => result.title)).toEqual(['Cat sticker']);
    expect(stickers.results[0]?.flags).toEqual(['sticker']);
    expect(stickers.results[0]?.media_formats.gif_transparent?.url).toMatch(/\.gif$/);
    const statics = tenorResultsSchema.parse(
      (await get('/v2/featured?key=tenor-key-0123456789abcdefghijklmnopq&searchfilter=static'))
        .body,
    );
    expect(statics.results).toEqual([]);
  });

  it("gives Tenor's result object, formats from real renditions of the right type", async () => {
    const { body } = await get(
      `/v2/posts?key=tenor-key-0123456789abcdefghijklmnopq&ids=${ids[0]},${ids[8]}`,
    );
    const [gif, sticker] = tenorResultsSchema.parse(body).results;
    expect(gif).toMatchObject({
      id: ids[0],
      title: 'Cat number 0',
      content_description: 'A cat, number 0',
      tags: ['cat'],
      hasaudio: false,
      flags: [],
    });
    expect(gif!.itemurl).toMatch(/\/gif\//);
    expect(gif!.created).toBeGreaterThan(1_000_000_000);
    const formats = gif!.media_formats;
    expect(formats.gif?.url).toMatch(/original\.gif$/);
    expect(formats.tinygif).toMatchObject({ dims: [200, expect.any(Number)] });
    expect(formats.tinygif?.url).toMatch(/fixed_width\.gif$/);
    expect(formats.tinymp4?.url).toMatch(/fixed_width\.mp4$/);
    expect(formats.gif?.size).toBeGreaterThan(0);
    // Nano is the smallest GIF about 90 px high; no transparent formats for a GIF.
    expect(formats.nanogif).toMatchObject({ dims: [100, 75] });
    expect(formats.nanogif?.url).toMatch(/fixed_width_small\.gif$/);
    expect(formats.gif_transparent).toBeUndefined();
    expect(sticker?.id).toBe(ids[8]);

    const filtered = tenorResultsSchema.parse(
      (
        await get(
          `/v2/posts?key=tenor-key-0123456789abcdefghijklmnopq&ids=${ids[0]}&media_filter=gif,tinygif`,
        )
      ).body,
    );
    expect(Object.keys(filtered.results[0]!.media_formats).sort()).toEqual(['gif', 'tinygif']);
  });

  it('sends CORS to a keyed caller as /v1 does', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/v2/featured?key=tenor-key-0123456789abcdefghijklmnopq',
      headers: { origin: 'https://chat.example' },
    });
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers a featured or search page asked again from what it kept, in every coding, until the catalog changes', async () => {
    const key = 'key=tenor-key-0123456789abcdefghijklmnopq';
    const [id] = (await insertCatalogItems(testApp.database, [
      { title: 'Kept walrus', tags: ['keptwalrus'], trendScore: 1_000, hasMp4: true },
    ])) as [string];
    const ask = async (url: string, encoding: string) => {
      const response = await testApp.app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': encoding },
      });
      expect(response.statusCode, url).toBe(200);
      const coding = response.headers['content-encoding'];
      expect(coding).toBe(encoding === 'identity' ? undefined : encoding);
      return tenorResultsSchema.parse(JSON.parse(decodeBody(response)));
    };
    const catalogReads = (url: string) =>
      recordCatalogReads(testApp.database, () => ask(url, 'br'));

    for (const url of [`/v2/search?${key}&q=keptwalrus`, `/v2/featured?${key}&limit=3`]) {
      const first = await ask(url, 'gzip');
      expect(first.results[0]?.id).toBe(id);
      // Its Tenor sizes are not made yet: tinygif is the nearest GIPHY size.
      expect(first.results[0]?.media_formats.tinygif?.url).not.toMatch(/\/tiny\.gif$/);
      // Once the server knows the catalog's version, the page is sent from memory.
      await expect.poll(() => catalogReads(url)).toEqual([]);
      for (const encoding of ['br', 'gzip', 'identity']) {
        expect(await ask(url, encoding)).toEqual(first);
      }
      // Shaped per request from the kept page: formats, aspect ratios, order.
      const filtered = await ask(`${url}&media_filter=gif`, 'br');
      expect(filtered.results.map((result) => Object.keys(result.media_formats))).toEqual(
        first.results.map(() => ['gif']),
      );
      expect(
        (await ask(`${url}&random=true`, 'br')).results.map((result) => result.id).sort(),
      ).toEqual(first.results.map((result) => result.id).sort());
    }

    // Its Tenor-sized GIF made later, then a new title: each shows on the next request.
    const path = `${id.slice(0, 2)}/${id}/tiny.gif`;
    await testApp.database.db.insert(renditions).values({
      itemId: id,
      name: 'tiny',
      format: 'gif',
      width: 220,
      height: 165,
      bytes: 99,
      path,
    });
    await testApp.database.db
      .update(items)
      .set({ title: 'Kept walrus, renamed' })
      .where(eq(items.id, id));
    for (const url of [`/v2/search?${key}&q=keptwalrus`, `/v2/featured?${key}&limit=3`]) {
      await expect
        .poll(async () => {
          const [result] = (await ask(url, 'br')).results;
          return [result?.title, result?.media_formats.tinygif?.url.endsWith('/tiny.gif')];
        })
        .toEqual(['Kept walrus, renamed', true]);
    }
  });

  it('completes terms, shows featured categories with an image, and registers a share', async () => {
    const completed = await get('/v2/autocomplete?key=tenor-key-0123456789abcdefghijklmnopq&q=ca');
    expect(completed.status).toBe(200);
    expect(completed.body.results).toContain('cat');
    const suggested = await get(
      '/v2/search_suggestions?key=tenor-key-0123456789abcdefghijklmnopq&q=ca',
    );
    expect(suggested.body.results).toContain('cat');
    const trendingTerms = await get('/v2/trending_terms?key=tenor-key-0123456789abcdefghijklmnopq');
    expect(trendingTerms.status).toBe(200);
    expect(Array.isArray(trendingTerms.body.results)).toBe(true);

    await insertCategory(testApp.database, {
      name: 'Cats',
      position: 1,
      featuredItemId: ids[0],
      itemIds: [ids[0]!],
    });
    const categories = await get(
      '/v2/categories?key=tenor-key-0123456789abcdefghijklmnopq&type=featured',
    );
    expect(categories.status).toBe(200);
    expect(categories.body.tags).toEqual([
      expect.objectContaining({
        searchterm: 'cats',
        name: '#cats',
        path: '/v2/search?q=cats',
        image: expect.stringMatching(/fixed_width\.gif$/),
      }),
    ]);
    expect(
      (await get('/v2/categories?key=tenor-key-0123456789abcdefghijklmnopq&type=nope')).status,
    ).toBe(400);

    const { cookie } = await signInAs(testApp);
    const share = (id: string) =>
      testApp.app.inject({ url: `/v2/registershare?id=${id}&q=cat`, headers: { cookie } });
    expect((await share(ids[1]!)).json()).toEqual({ status: 'ok', counted: true });
    expect((await share(ids[1]!)).json()).toEqual({ status: 'ok', counted: false });
    expect((await share('no-such-item')).statusCode).toBe(404);
    // A share another site made the browser send counts nothing, as a /v1 pingback would not.
    const crossSite = (id: string) =>
      testApp.app.inject({
        url: `/v2/registershare?id=${id}`,
        headers: { cookie, 'sec-fetch-site': 'cross-site' },
      });
    expect((await crossSite(ids[2]!)).json()).toEqual({ status: 'ok', counted: false });
    expect((await crossSite('no-such-item')).statusCode).toBe(404);
    expect((await share(ids[2]!)).json()).toEqual({ status: 'ok', counted: true });
    const keyed = await get(
      `/v2/registershare?key=tenor-key-0123456789abcdefghijklmnopq&id=${ids[1]}`,
    );
    expect(keyed.body).toEqual({ status: 'ok', counted: false });
  });
});
