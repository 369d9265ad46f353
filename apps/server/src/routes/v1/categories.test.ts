import { categorySchema, giphyItemSchema, listEnvelopeSchema } from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems, insertCategory } from '../../test-support/catalog-fixtures.ts';
import { signInAs } from '../../test-support/sign-in.ts';

const categoriesSchema = listEnvelopeSchema(categorySchema);
const itemsSchema = listEnvelopeSchema(giphyItemSchema);

describe('/v1/gifs/categories', () => {
  let testApp: TestApp;
  let cookie: string;
  let happy: string, sad: string, ecstatic: string, hidden: string, spicy: string, news: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    cookie = (await signInAs(testApp)).cookie;
    [happy, sad, ecstatic, hidden, spicy, news] = (await insertCatalogItems(testApp.database, [
      { title: 'Happy', tags: ['happy'], trendScore: 3 },
      { title: 'Sad', tags: ['sad'], trendScore: 5, type: 'sticker' },
      { title: 'Ecstatic', tags: ['happy', 'joy'], trendScore: 1 },
      { title: 'Hidden', tags: ['happy'], trendScore: 50, isIndexable: false },
      { title: 'Spicy', tags: ['happy'], trendScore: 40, rating: 'r' },
      { title: 'Debate', tags: ['politics'], trendScore: 2 },
    ])) as [string, string, string, string, string, string];
    const reactions = await insertCategory(testApp.database, {
      name: 'Reactions',
      position: 1,
      itemIds: [ecstatic, hidden, spicy],
    });
    await insertCategory(testApp.database, {
      name: 'Happy',
      parentId: reactions.id,
      itemIds: [happy],
      position: 1,
    });
    await insertCategory(testApp.database, {
      name: 'Sad',
      parentId: reactions.id,
      itemIds: [sad],
      position: 2,
    });
    await insertCategory(testApp.database, {
      name: 'Empty one',
      parentId: reactions.id,
      position: 3,
    });
    await insertCategory(testApp.database, {
      name: 'News & Politics',
      position: 2,
      featuredItemId: news,
      itemIds: [news, happy],
    });
    await insertCategory(testApp.database, { name: 'Nothing yet', position: 3 });
    await insertCategory(testApp.database, { name: 'Only hidden', position: 4, itemIds: [hidden] });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const get = (url: string) => testApp.app.inject({ method: 'GET', url, headers: { cookie } });

  it('lists top-level categories with subcategories and a featured gif', async () => {
    const response = await get('/v1/gifs/categories');
    expect(response.statusCode).toBe(200);
    const body = categoriesSchema.parse(response.json());
    // "Nothing yet", "Only hidden" and "Empty one" hold no listable item: not shown
    // (docs/catalog.md, "Categories").
    expect(body.pagination).toEqual({ total_count: 2, count: 2, offset: 0 });
    expect(body.meta.response_id).not.toBe('');
    const [reactions, newsAndPolitics] = body.data;
    expect(body.data).toHaveLength(2);
    expect(reactions).toMatchObject({
      name: 'Reactions',
      name_encoded: 'reactions',
      subcategories: [
        { name: 'Happy', name_encoded: 'happy' },
        { name: 'Sad', name_encoded: 'sad' },
      ],
    });
    // The most popular listable item, its subcategories' included; hidden and r never.
    expect(reactions?.gif?.id).toBe(sad);
    expect(newsAndPolitics).toMatchObject({
      name: 'News & Politics',
      name_encoded: 'news-politics',
    });
    expect(newsAndPolitics?.gif?.id).toBe(news);
    expect(newsAndPolitics?.subcategories).toEqual([]);

    const withR = categoriesSchema.parse((await get('/v1/gifs/categories?rating=r')).json());
    expect(withR.data[0]?.gif?.id).toBe(spicy);
  });

  it('pages categories exactly', async () => {
    const body = categoriesSchema.parse((await get('/v1/gifs/categories?limit=1&offset=1')).json());
    expect(body.data.map((category) => category.name)).toEqual(['News & Politics']);
    expect(body.pagination).toEqual({ total_count: 2, count: 1, offset: 1 });
  });

  it('lists the subcategories of a category', async () => {
    const response = await get('/v1/gifs/categories/reactions');
    expect(response.statusCode).toBe(200);
    const body = categoriesSchema.parse(response.json());
    expect(
      body.data.map(({ name, name_encoded, subcategories }) => ({
        name,
        name_encoded,
        subcategories,
      })),
    ).toEqual([
      { name: 'Happy', name_encoded: 'happy', subcategories: [] },
      { name: 'Sad', name_encoded: 'sad', subcategories: [] },
    ]);
    // Happy holds its own item and its parent's items tagged "happy".
    expect(body.data[0]?.gif?.id).toBe(happy);
    expect(body.data[1]?.gif?.id).toBe(sad);
    expect(body.pagination).toEqual({ total_count: 2, count: 2, offset: 0 });
    const none = categoriesSchema.parse((await get('/v1/gifs/categories/news-politics')).json());
    expect(none.data).toEqual([]);
  });

  it("lists a subcategory's items, most popular first", async () => {
    const response = await get('/v1/gifs/categories/reactions/happy');
    expect(response.statusCode).toBe(200);
    const body = itemsSchema.parse(response.json());
    expect(body.data.map((item) => item.id)).toEqual([happy, ecstatic]);
    expect(body.pagination).toEqual({ total_count: 2, count: 2, offset: 0 });
    const page = itemsSchema.parse(
      (await get('/v1/gifs/categories/Reactions/happy?limit=1&offset=1')).json(),
    );
    expect(page.data.map((item) => item.id)).toEqual([ecstatic]);
    expect(page.pagination).toEqual({ total_count: 2, count: 1, offset: 1 });
    const spicyToo = itemsSchema.parse(
      (await get('/v1/gifs/categories/reactions/happy?rating=r')).json(),
    );
    expect(spicyToo.data.map((item) => item.id)).toEqual([spicy, happy, ecstatic]);
  });

  it('says 404 for an unknown category or subcategory, 400 for bad parameters', async () => {
    for (const [url, msg] of [
      ['/v1/gifs/categories/nope', 'No category named nope'],
      ['/v1/gifs/categories/nope/happy', 'No category named nope'],
      ['/v1/gifs/categories/reactions/nope', 'No subcategory named nope in Reactions'],
      ['/v1/gifs/categories/happy/reactions', 'No category named happy'],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().meta).toMatchObject({ status: 404, msg });
    }
    const bad = await get('/v1/gifs/categories?limit=many');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().meta.msg).toMatch(/^limit must be/);
  });
});
