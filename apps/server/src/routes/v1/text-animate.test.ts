import fs from 'node:fs';
import path from 'node:path';
import { giphyItemSchema, listEnvelopeSchema } from '@sticky/contracts';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textStyleIds } from '../../catalog/text/styles.ts';
import { renditions } from '../../db/schema.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { signInAs } from '../../test-support/sign-in.ts';

const listSchema = listEnvelopeSchema(giphyItemSchema);
const styles = textStyleIds.length;

describe('/v1/text/animate and the Text tab search', () => {
  let testApp: TestApp;
  let cookie: string;
  const catalogText: string[] = [];

  beforeAll(async () => {
    // A long rate-limit window: no budget renews in the middle of a test on a slow machine.
    testApp = await createTestApp(
      { PUBLIC_URL: 'https://sticky.example' },
      { rateLimitWindowMs: 60 * 60_000 },
    );
    cookie = (await signInAs(testApp)).cookie;
    catalogText.push(
      ...(await insertCatalogItems(testApp.database, [
        { type: 'text', title: 'Thanks a lot', tags: ['thanks', 'thank you'], trendScore: 3 },
        { type: 'text', title: 'Thank you!', tags: ['thanks', 'thank you'], trendScore: 2 },
        { type: 'gif', title: 'Thanks cat', tags: ['thanks'] },
      ])),
    );
  }, 60_000);
  afterAll(async () => {
    await testApp.close();
  });

  const get = (url: string, headers: Record<string, string> = { cookie }) =>
    testApp.app.inject({ method: 'GET', url, headers });
  const itemCount = async () =>
    Number(
      (await testApp.database.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM items`))
        .rows[0]!.n,
    );
  /** Draws `phrase` (or reads it back): the ids of its renderings, one per style. */
  const animate = async (phrase: string) => {
    const response = await get(`/v1/text/animate?m=${encodeURIComponent(phrase)}`);
    expect(response.statusCode, response.body).toBe(200);
    return listSchema.parse(response.json());
  };

  it('answers like the rest of /v1 without a session: 401 in the meta envelope', async () => {
    const response = await get('/v1/text/animate?m=hello', {});
    expect(response.statusCode).toBe(401);
    expect(response.json().meta).toMatchObject({ status: 401 });
  });

  it('draws nothing for a signed-in browser another site sent here, and says why', async () => {
    const before = await itemCount();
    const crossSite = { cookie, 'sec-fetch-site': 'cross-site' };
    const animated = await get(
      `/v1/text/animate?m=${encodeURIComponent('Made elsewhere')}`,
      crossSite,
    );
    expect(animated.statusCode).toBe(403);
    expect(animated.json().meta.msg).toBe(
      'New animated text is drawn only for requests made from this site or with an app key.',
    );
    // The Text tab's search answers what the catalog has, without the query drawn.
    const searched = listSchema.parse(
      (await get('/v1/text/search?q=thanks%20again', crossSite)).json(),
    );
    expect(searched.data.every((item) => item.is_dynamic === 0)).toBe(true);
    expect(searched.pagination.total_count).toBe(searched.data.length);
    expect(await itemCount()).toBe(before);
  });

  it('draws nothing for a signed-in browser another site sent here without Sec-Fetch-Site, known by its Origin or Referer', async () => {
    const before = await itemCount();
    // A first page holding only catalog items draws nothing, but counts the renderings it
    // would add: 2 + styles when the query may be drawn, 2 when not.
    const countTextResults = async (headers: Record<string, string>) =>
      listSchema.parse((await get('/v1/text/search?q=thanks&limit=1', headers)).json()).pagination
        .total_count;
    const elsewhere: Array<Record<string, string>> = [
      { cookie, referer: 'https://evil.example/funny-page' },
      { cookie, origin: 'https://evil.example' },
      // A sandboxed frame or a privacy redirect: an origin that is nobody's.
      { cookie, origin: 'null' },
      // Our name on another scheme or port is another site.
      { cookie, referer: 'http://sticky.example:8080/' },
    ];
    for (const headers of elsewhere) {
      const animated = await get(
        `/v1/text/animate?m=${encodeURIComponent('Sent from afar')}`,
        headers,
      );
      expect(animated.statusCode, JSON.stringify(headers)).toBe(403);
      expect(await countTextResults(headers), JSON.stringify(headers)).toBe(2);
    }
    expect(await itemCount()).toBe(before);
    // Sent from one of our own pages (or with neither header), the query may be drawn.
    expect(
      await countTextResults({ cookie, referer: 'https://sticky.example/search/thanks' }),
    ).toBe(2 + styles);
    expect(await countTextResults({ cookie, origin: 'https://sticky.example' })).toBe(2 + styles);
    expect(await countTextResults({ cookie })).toBe(2 + styles);
  });

  it('refuses an empty phrase with 400 and a phrase over 50 characters with 414', async () => {
    const before = await itemCount();
    for (const url of ['/v1/text/animate', '/v1/text/animate?m=', '/v1/text/animate?m=%20%20']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().meta.msg).toMatch(/\bm\b/);
      expect(response.json().meta.response_id).not.toBe('');
    }
    const tooLong = await get(`/v1/text/animate?m=${'a'.repeat(51)}`);
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json().meta).toMatchObject({ status: 414 });
    // Characters are counted as people count them: 50 emoji are 50 characters.
    const fifty = encodeURIComponent('👍🏽'.repeat(51));
    expect((await get(`/v1/text/animate?m=${fifty}`)).statusCode).toBe(414);
    expect(await itemCount()).toBe(before);
  });

  it('draws the phrase once per style, as dynamic text items stored with their renditions', async () => {
    const body = await animate('Hello 👋 wörld');
    expect(body.data).toHaveLength(styles);
    expect(body.pagination).toEqual({ total_count: styles, count: styles, offset: 0 });
    for (const item of body.data) {
      expect(item).toMatchObject({
        type: 'text',
        is_dynamic: 1,
        is_indexable: 0,
        title: 'Hello 👋 wörld',
        rating: 'g',
      });
      expect(item.user?.display_name).toBe('Sticky Studio');
      expect(Number(item.images.original.width)).toBe(320);
      expect(Number(item.images.fixed_width.width)).toBe(200);
      expect(item.images.original.webp).toBeTruthy();
    }
    const firstIds = body.data.map((item) => item.id);
    expect(new Set(firstIds).size).toBe(styles);
    // Every rendition is a real file in the media folder.
    const files = await testApp.database.db
      .select({ path: renditions.path })
      .from(renditions)
      .where(inArray(renditions.itemId, firstIds));
    expect(files.length).toBeGreaterThanOrEqual(styles * 9);
    for (const { path: file } of files) {
      expect(fs.existsSync(path.join(testApp.config.mediaDir, file)), file).toBe(true);
    }
    // Renderings are served by id but never listed.
    const trending = listSchema.parse((await get('/v1/text/trending')).json());
    expect(trending.data.map((item) => item.id)).not.toContain(firstIds[0]);
    const byId = await get(`/v1/gifs/${firstIds[0]}`);
    expect(byId.statusCode).toBe(200);
  });

  it('serves a repeat from storage: same items, nothing new drawn', async () => {
    const firstIds = (await animate('See you later')).data.map((item) => item.id);
    const before = await itemCount();
    // Spacing differences make no new rendering either.
    const body = await animate('  See  you   later ');
    expect(body.data.map((item) => item.id)).toEqual(firstIds);
    expect(await itemCount()).toBe(before);
    const page = listSchema.parse(
      (
        await get(`/v1/text/animate?m=${encodeURIComponent('See you later')}&limit=2&offset=3`)
      ).json(),
    );
    expect(page.data.map((item) => item.id)).toEqual(firstIds.slice(3, 5));
    expect(page.pagination).toEqual({ total_count: styles, count: 2, offset: 3 });
  });

  it('Text tab search: matching catalog text first, then the query itself animated', async () => {
    const body = listSchema.parse(
      (await get('/v1/text/search?q=thanks&excludeDynamicResults=true')).json(),
    );
    const ids = body.data.map((item) => item.id);
    expect(ids.slice(0, 2)).toEqual(catalogText.slice(0, 2));
    expect(body.data.slice(2)).toHaveLength(styles);
    for (const item of body.data.slice(2)) {
      expect(item).toMatchObject({ type: 'text', is_dynamic: 1, title: 'thanks' });
    }
    expect(body.pagination).toEqual({ total_count: 2 + styles, count: 2 + styles, offset: 0 });
  });

  it('Text tab search pages exactly across the catalog items and the renderings', async () => {
    const all = listSchema.parse((await get('/v1/text/search?q=thanks')).json());
    const pages = [];
    for (let offset = 0; offset < 2 + styles; offset += 3) {
      const page = listSchema.parse(
        (await get(`/v1/text/search?q=thanks&limit=3&offset=${offset}`)).json(),
      );
      expect(page.pagination.total_count).toBe(2 + styles);
      expect(page.pagination.count).toBe(page.data.length);
      pages.push(...page.data.map((item) => item.id));
    }
    expect(pages).toEqual(all.data.map((item) => item.id));
    const past = listSchema.parse((await get('/v1/text/search?q=thanks&offset=40')).json());
    expect(past.data).toEqual([]);
    expect(past.pagination.total_count).toBe(2 + styles);
  });

  it('is rate-limited per user more tightly than the rest of /v1', async () => {
    const other = (await signInAs(testApp)).cookie;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 32; attempt += 1) {
      statuses.push((await get('/v1/text/animate?m=', { cookie: other })).statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const limited = await get('/v1/text/animate?m=', { cookie: other });
    expect(limited.json().meta).toMatchObject({ status: 429 });
    // Others are not affected.
    expect((await get('/v1/text/animate?m=')).statusCode).toBe(400);
  });

  it('a query with no catalog match still gets its renderings', async () => {
    const drawn = (await animate('Good night 🌙')).data.map((item) => item.id);
    const body = listSchema.parse(
      (await get(`/v1/text/search?q=${encodeURIComponent('Good night 🌙')}`)).json(),
    );
    expect(body.data.map((item) => item.id)).toEqual(drawn);
    expect(body.pagination.total_count).toBe(styles);
  });
});
