import { giphyItemSchema } from '@sticky/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { items } from '../../db/schema.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems, insertCreator } from '../../test-support/catalog-fixtures.ts';
import { recordStatements } from '../../test-support/database.ts';
import { loadItemsByIds } from './items.ts';
import { serializeItemsJson } from './item-json.ts';
import { mediaUrl, serializeItems } from './serialize.ts';

/**
 * Issue 15: a cold page of items cost as long again as its ranking, outside the statements
 * (three reads one after the other, every row mapped twice, every URL made again per slot).
 */
describe('serializing items', () => {
  let testApp: TestApp;
  let ids: string[];
  let hiddenId: string;

  beforeAll(async () => {
    testApp = await createTestApp({ PUBLIC_URL: 'https://sticky.example' });
    await insertCreator(testApp.database, {
      username: 'catlover',
      displayName: 'Cat Lover',
      avatarUrl: 'https://sticky.example/avatar.png',
      isVerified: true,
    });
    ids = await insertCatalogItems(testApp.database, [
      {
        title: 'Dancing cat',
        tags: ['cat', 'dance'],
        creator: 'catlover',
        sourceUrl: 'https://www.example.org/cats/1',
        trendingAt: new Date(Date.UTC(2025, 5, 1, 12, 30, 5, 987)),
        createdAt: new Date(Date.UTC(2025, 0, 2, 3, 4, 5)),
        hasMp4: true,
      },
      { title: 'Cat nap', tags: ['cat'], type: 'sticker', trendingAt: null },
      { title: 'Happy dog', creator: 'catlover', renditions: 'none' },
      { title: 'Hidden cat' },
    ]);
    hiddenId = ids[3]!;
    await testApp.database.db
      .update(items)
      .set({ hiddenAt: new Date() })
      .where(eq(items.id, hiddenId));
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const deps = () => testApp.app.deps;

  it('reads a cold page as its kept documents, in one statement; before they are kept, as items with their creators and renditions sent together', async () => {
    const [dancingCat, catNap] = ids;
    const readsOf = async (run: () => Promise<unknown>) =>
      (await recordStatements(testApp.database, run)).filter(
        ({ text }) =>
          /^\s*SELECT/.test(text) && /\b(items|renditions|creators|item_documents)\b/.test(text),
      );
    const page = [catNap!, dancingCat!];
    const cold = await readsOf(async () => {
      expect(await serializeItemsJson(deps(), page)).toMatchObject({ count: 2 });
    });
    expect(cold).toHaveLength(3);
    expect(cold[0]!.text).toMatch(/\bFROM item_documents\b/);
    const [, ...made] = cold;
    expect(made.map(({ text }) => /\bFROM renditions\b/.test(text)).sort()).toEqual([false, true]);
    expect(made.find(({ text }) => /\bFROM items\b/.test(text))!.text).toMatch(/JOIN creators/);

    await deps().services.itemDocuments.flush();
    deps().services.itemJson.clear();
    const kept = await readsOf(async () => {
      expect(await serializeItemsJson(deps(), page)).toMatchObject({ count: 2 });
    });
    expect(kept).toHaveLength(1);
    expect(kept[0]!.text).toMatch(/\bFROM item_documents\b/);
  });

  it('sends the JSON of serializeItems, in the order asked, leaving out hidden, unknown and half-made items', async () => {
    testApp.app.deps.services.itemJson.clear();
    const asked = [ids[1]!, 'unknownid123456789', hiddenId, ids[2]!, ids[0]!];
    const page = await serializeItemsJson(deps(), asked);
    const expected = await serializeItems(deps(), await loadItemsByIds(deps(), asked));
    expect(page.count).toBe(2);
    expect(JSON.parse(page.json)).toEqual(expected);
    expect(expected.map((item) => item.id)).toEqual([ids[1], ids[0]]);

    const [catNap, dancingCat] = expected.map((item) => giphyItemSchema.parse(item));
    expect(dancingCat!.user).toMatchObject({
      username: 'catlover',
      display_name: 'Cat Lover',
      is_verified: true,
    });
    expect(dancingCat!.username).toBe('catlover');
    expect(dancingCat!.trending_datetime).toBe('2025-06-01 12:30:05');
    expect(dancingCat!.create_datetime).toBe('2025-01-02 03:04:05');
    expect(dancingCat!.images.original.mp4).toMatch(/^https:\/\/sticky\.example\/media\/.+\.mp4$/);
    expect(catNap!.user).toBeUndefined();
    expect(catNap!.trending_datetime).toBe('0000-00-00 00:00:00');
    // Kept JSON is the same text as the JSON made cold.
    expect((await serializeItemsJson(deps(), asked)).json).toBe(page.json);
  });

  it('makes media URLs as encodeURIComponent would, per segment', () => {
    const { config } = testApp;
    expect(mediaUrl(config, 'ab/cd/abcdef0123.webp')).toBe(
      'https://sticky.example/media/ab/cd/abcdef0123.webp',
    );
    expect(mediaUrl(config, 'ab//c d/é#?.gif')).toBe(
      'https://sticky.example/media/ab/c%20d/%C3%A9%23%3F.gif',
    );
    expect(mediaUrl({ ...config, mediaPublicUrl: 'https://cdn.example' }, 'a_b/c~d-e.f')).toBe(
      'https://cdn.example/a_b/c~d-e.f',
    );
  });
});
