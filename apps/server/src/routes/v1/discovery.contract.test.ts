import type { GiphyFetch } from '@giphy/js-fetch-api';
import {
  channelListEnvelopeSchema,
  cursorItemListEnvelopeSchema,
  randomIdEnvelopeSchema,
  relatedTagsEnvelopeSchema,
  singleItemEnvelopeSchema,
} from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { connectGiphySdk, sdkTestApiKey } from '../../test-support/giphy-sdk.ts';
import { insertCatalogItems, insertCreator } from '../../test-support/catalog-fixtures.ts';
import { signInAs } from '../../test-support/sign-in.ts';

/**
 * GIPHY's endpoints beyond search and trending (docs/api.md, "/v1"): emoji and their
 * variations, channels, translate, randomid and related tags, through GIPHY's own client where
 * it has a method, else as a GIPHY client reads them (a non-empty meta.response_id).
 */
describe('GIPHY emoji, channels, translate, randomid and related tags', () => {
  let testApp: TestApp;
  let origin: string;
  let gf: GiphyFetch;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    testApp = await createTestApp({ STICKY_API_KEYS: sdkTestApiKey });
    await insertCreator(testApp.database, {
      username: 'catmaker',
      displayName: 'The Cat Maker',
      description: 'Makes cat things',
      isVerified: true,
    });
    await insertCreator(testApp.database, { username: 'dogmaker', displayName: 'Dog Maker' });
    const entries = {
      dancingCat: {
        title: 'Dancing cat',
        tags: ['cat', 'dance', 'happy'],
        trendScore: 5,
        creator: 'catmaker',
      },
      sleepyCat: { title: 'Sleepy cat', tags: ['cat', 'sleep'], trendScore: 3 },
      catParty: { title: 'Cat party', tags: ['cat', 'party', 'dance'], trendScore: 2 },
      spicyCat: { title: 'Spicy cat', tags: ['cat'], trendScore: 1, rating: 'r' },
      thumbsUp: {
        type: 'sticker',
        title: 'Thumbs up',
        tags: ['thumbs up', 'emoji', '👍'],
        trendScore: 4,
      },
      thumbsUpMedium: {
        type: 'sticker',
        title: 'Thumbs up: medium skin tone',
        tags: ['thumbs up', 'emoji', '👍🏽'],
        trendScore: 1,
      },
      joy: { type: 'sticker', title: 'Tears of joy', tags: ['joy', 'emoji', '😂'], trendScore: 9 },
      catSticker: { type: 'sticker', title: 'Cat sticker', tags: ['cat'], trendScore: 8 },
    } as const;
    const names = Object.keys(entries) as (keyof typeof entries)[];
    const ids = await insertCatalogItems(
      testApp.database,
      names.map((name) => entries[name]),
    );
    names.forEach((name, index) => (id[name] = ids[index]!));

    ({ origin, gf } = await connectGiphySdk(testApp));
  });
  afterAll(async () => {
    await testApp.close();
  });

  const ids = (result: { data: { id: string | number }[] }) =>
    result.data.map((item) => String(item.id));
  const get = async (path: string) => {
    const response = await fetch(
      `${origin}${path}${path.includes('?') ? '&' : '?'}api_key=${sdkTestApiKey}`,
    );
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('lists the emoji stickers, v1 with GIPHY pagination and v2 with its cursor', async () => {
    const v1 = await gf.emoji({ limit: 2 });
    expect(ids(v1)).toEqual([id.joy, id.thumbsUp]);
    expect(v1.pagination).toMatchObject({ total_count: 3, count: 2, offset: 0 });
    const v2 = await gf.emojiDefaultVariations({ limit: 2, offset: 1 });
    expect(ids(v2)).toEqual([id.thumbsUp, id.thumbsUpMedium]);
    const raw = cursorItemListEnvelopeSchema.parse((await get('/v2/emoji?limit=2')).body);
    expect(raw.pagination).toEqual({ count: 2, offset: 0, next_cursor: 2 });
    expect(raw.meta.response_id).not.toBe('');
  });

  it('gives an emoji in each skin tone, the default first, and 404 for what is no emoji', async () => {
    const variations = await gf.emojiVariations(id.thumbsUpMedium!);
    expect(ids(variations)).toEqual([id.thumbsUp, id.thumbsUpMedium]);
    expect(ids(await gf.emojiVariations(id.joy!))).toEqual([id.joy]);
    const error = await gf.emojiVariations(id.catSticker!).then(
      () => undefined,
      (caught: unknown) => caught as { message: string; status: number },
    );
    expect(error).toMatchObject({
      status: 404,
      message: `@giphy/js-fetch-api: No emoji with id ${id.catSticker}`,
    });
    // Unknown /v2/emoji paths answer in GIPHY's envelope, not Tenor's.
    const missing = await get('/v2/emoji/nothing/here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ meta: { status: 404 } });
  });

  it("finds creators as GIPHY's channels, with their most popular item", async () => {
    const result = await gf.channels('cat');
    const channels = channelListEnvelopeSchema.parse(result).data;
    expect(channels.map((channel) => channel.slug)).toEqual(['catmaker']);
    expect(channels[0]).toMatchObject({
      display_name: 'The Cat Maker',
      type: 'community',
      user: { username: 'catmaker', is_verified: true },
      featured_gif: { id: id.dancingCat },
    });
    expect((await gf.channels('maker')).data).toHaveLength(2);
    expect((await gf.channels('zzqx')).data).toEqual([]);
  });

  it('translates a phrase into its best GIF or sticker, weirdness reaching further down', async () => {
    const best = singleItemEnvelopeSchema.parse(
      (await get('/v1/gifs/translate?s=dancing%20cat')).body,
    );
    expect(best.data.id).toBe(id.dancingCat);
    const weird = singleItemEnvelopeSchema.parse(
      (await get('/v1/gifs/translate?s=cat&weirdness=10&rating=g')).body,
    );
    expect([id.sleepyCat, id.catParty, id.dancingCat]).toContain(weird.data.id);
    expect(weird.data.id).not.toBe(id.spicyCat);
    const again = singleItemEnvelopeSchema.parse(
      (await get('/v1/gifs/translate?s=cat&weirdness=10&rating=g')).body,
    );
    expect(again.data.id).toBe(weird.data.id);
    const sticker = singleItemEnvelopeSchema.parse(
      (await get('/v1/stickers/translate?s=cat')).body,
    );
    expect(sticker.data.id).toBe(id.catSticker);
    expect((await get('/v1/gifs/translate?s=zzqxvj')).status).toBe(404);
    expect((await get('/v1/gifs/translate')).status).toBe(400);
    expect((await get('/v1/gifs/translate?s=cat&weirdness=11')).status).toBe(400);
    expect((await get(`/v1/gifs/translate?s=${'x'.repeat(51)}`)).status).toBe(414);
  });

  it("counts a signed-in person's click and send through an item's analytics URLs, once a day", async () => {
    const item = singleItemEnvelopeSchema.parse((await get(`/v1/gifs/${id.sleepyCat}`)).body).data;
    expect(item.analytics?.onclick.url).toBe(
      `${testApp.config.publicUrl}/v1/pingback_simple?gif_id=${id.sleepyCat}&action_type=CLICK`,
    );
    const { cookie } = await signInAs(testApp);
    const ping = async (url: string, headers: Record<string, string> = { cookie }) => {
      const target = new URL(url);
      const response = await fetch(`${origin}${target.pathname}${target.search}`, { headers });
      return { status: response.status, body: (await response.json()) as { data?: unknown } };
    };
    const countOf = async (kind: string) => {
      const result = await testApp.database.pool.query(
        'SELECT count(*)::int AS n FROM item_events WHERE item_id = $1 AND kind = $2',
        [id.sleepyCat, kind],
      );
      return (result.rows[0] as { n: number }).n;
    };
    expect((await ping(item.analytics!.onload.url)).body.data).toEqual({ counted: false });
    expect((await ping(item.analytics!.onclick.url)).body.data).toEqual({ counted: true });
    expect((await ping(item.analytics!.onclick.url)).body.data).toEqual({ counted: false });
    expect((await ping(item.analytics!.onsent.url)).body.data).toEqual({ counted: true });
    expect([await countOf('view'), await countOf('copy')]).toEqual([1, 1]);
    // Another site cannot make a signed-in browser count, and an app's key counts no one.
    const other = await signInAs(testApp);
    const crossSite = await ping(item.analytics!.onclick.url, {
      cookie: other.cookie,
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.body.data).toEqual({ counted: false });
    // Nor can it when the browser sends no Sec-Fetch-Site, only where it comes from.
    const referred = await ping(item.analytics!.onclick.url, {
      cookie: other.cookie,
      referer: 'https://evil.example/page',
    });
    expect(referred.body.data).toEqual({ counted: false });
    const keyOnly = await ping(`${item.analytics!.onsent.url}&api_key=${sdkTestApiKey}`, {});
    expect(keyOnly.body.data).toEqual({ counted: false });
    expect([await countOf('view'), await countOf('copy')]).toEqual([1, 1]);
    expect(
      (await ping(`${origin}/v1/pingback_simple?gif_id=${id.sleepyCat}&action_type=LIKED`)).status,
    ).toBe(400);
    expect(
      (await ping(`${origin}/v1/pingback_simple?gif_id=missing12345&action_type=CLICK`)).status,
    ).toBe(404);
    expect((await ping(item.analytics!.onclick.url, {})).status).toBe(401);
  });

  it('gives a new random id each time, and tags that go with a term', async () => {
    const first = randomIdEnvelopeSchema.parse((await get('/v1/randomid')).body);
    const second = randomIdEnvelopeSchema.parse((await get('/v1/randomid')).body);
    expect(first.data.random_id).toMatch(/^[0-9a-f]{32}$/);
    expect(first.data.random_id).not.toBe(second.data.random_id);
    const related = relatedTagsEnvelopeSchema.parse((await get('/v1/tags/related/Cat')).body);
    expect(related.data.map((tag) => tag.name)).toEqual(['dance', 'happy', 'party', 'sleep']);
    const limited = relatedTagsEnvelopeSchema.parse(
      (await get('/v1/tags/related/cat?limit=1')).body,
    );
    expect(limited.data).toEqual([{ name: 'dance' }]);
    expect(relatedTagsEnvelopeSchema.parse((await get('/v1/tags/related/zzqx')).body).data).toEqual(
      [],
    );
  });
});
