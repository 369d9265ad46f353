import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { countStatements } from '../../test-support/database.ts';
import { loadItemsByIds } from './items.ts';
import { listRelatedItemIds } from './related.ts';

describe('related items', () => {
  let testApp: TestApp;
  let ids: string[];

  beforeAll(async () => {
    testApp = await createTestApp();
    ids = await insertCatalogItems(testApp.database, [
      { title: 'Source cat', tags: ['cat', 'funny'] },
      { title: 'Funny cat', tags: ['cat', 'funny'], trendScore: 1 },
      { title: 'Sleepy cat', tags: ['cat'], trendScore: 5 },
      { title: 'Dog', tags: ['dog'] },
    ]);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const related = async () => {
    const page = await listRelatedItemIds(testApp.app.deps, {
      itemId: ids[0]!,
      types: ['gif'],
      limit: 15,
      offset: 0,
    });
    return (await loadItemsByIds(testApp, page.rows)).map((row) => row.title);
  };

  it('ranks by shared tags, then popularity, and follows changes to the catalog', async () => {
    expect(await related()).toEqual(['Funny cat', 'Sleepy cat']);
    // A repeat is served from the kept ranking, without the database.
    const relatedIds = () =>
      listRelatedItemIds(testApp.app.deps, {
        itemId: ids[0]!,
        types: ['gif'],
        limit: 15,
        offset: 0,
      });
    await expect.poll(() => countStatements(testApp.database, relatedIds)).toBe(0);
    await testApp.database.db.execute(
      sql`UPDATE items SET tags = ARRAY['cat', 'funny'] WHERE id = ${ids[2]}`,
    );
    // Now both share two tags: the more popular comes first.
    await expect.poll(related).toEqual(['Sleepy cat', 'Funny cat']);
    await testApp.database.db.execute(sql`DELETE FROM items WHERE id = ${ids[1]}`);
    await expect.poll(related).toEqual(['Sleepy cat']);
  });

  it('ranks items with the title’s words in their own titles before those with them elsewhere', async () => {
    const [source] = await insertCatalogItems(testApp.database, [
      { title: 'Dancing penguin', tags: ['party'] },
      { title: 'Penguins at the party', tags: ['party'], trendScore: 1 },
      { title: 'Party time', tags: ['party'], altText: 'A penguin dances', trendScore: 9 },
      { title: 'Lonely dance', trendScore: 20 },
    ]);
    const page = await listRelatedItemIds(testApp.app.deps, {
      itemId: source!,
      types: ['gif'],
      limit: 15,
      offset: 0,
    });
    expect((await loadItemsByIds(testApp, page.rows)).map((row) => row.title)).toEqual([
      'Penguins at the party',
      'Party time',
      'Lonely dance',
    ]);
  });

  it('says which id it does not know', async () => {
    await expect(
      listRelatedItemIds(testApp.app.deps, {
        itemId: 'nope',
        types: ['gif'],
        limit: 15,
        offset: 0,
      }),
    ).rejects.toThrow('No item with gif_id nope');
  });
});
