import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { App } from '../app.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { countStatements } from '../test-support/database.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { sameSiteHeaders } from '../test-support/uploads.ts';

const apiKey = 'tenor-key-0123456789abcdefghijklmnopq';

/**
 * Issue 43: an edit of one item's title moved catalog_version, so two edits a second kept every
 * kept answer of every instance cold. Now it drops what shows that item, on every instance, and
 * leaves the rest (docs/catalog.md, "Caches and versions").
 */
describe('an edit of one item’s text', () => {
  let testApp: TestApp;
  let other: App;
  let owner: Record<string, string>;
  let editedId: string;
  let untouchedIds: string[];

  beforeAll(async () => {
    testApp = await createTestApp({ STICKY_API_KEYS: apiKey });
    // A second server on the same database, as behind a load balancer (docs/scaling.md).
    other = await buildApp({
      config: testApp.config,
      database: testApp.database,
      media: testApp.media,
      sessionSecret: testApp.config.sessionSecret!,
    });
    const signedIn = await signInAs(testApp, { name: 'Owner' });
    owner = sameSiteHeaders(testApp, signedIn.cookie);
    // The two most popular GIFs, then the owner's: trending's first two never show it.
    const ids = await insertCatalogItems(testApp.database, [
      { title: 'Untouched first', trendScore: 1_000_002 },
      { title: 'Untouched second', trendScore: 1_000_001 },
      { title: 'Before the edit', trendScore: 1_000_000 },
    ]);
    untouchedIds = ids.slice(0, 2);
    editedId = ids[2]!;
    await testApp.database.pool.query('UPDATE items SET owner_id = $1 WHERE id = $2', [
      signedIn.user.id,
      editedId,
    ]);
  });
  afterAll(async () => {
    await other?.close();
    await testApp?.close();
  });

  const pages = () => ({
    untouched: '/v1/gifs/trending?limit=2',
    holding: '/v1/gifs/trending?limit=3',
    item: `/v1/gifs/${editedId}`,
    byIds: `/v1/gifs?ids=${[...untouchedIds, editedId].join(',')}`,
    featured: `/v2/featured?key=${apiKey}&limit=3`,
  });
  const readOn = async (app: App, url: string) =>
    (await app.inject({ url, headers: { cookie: owner.cookie! } })).body;
  const patch = (body: object) =>
    testApp.app.inject({
      method: 'PATCH',
      url: `/api/items/${editedId}`,
      headers: { ...owner, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('leaves kept pages without it in place, and shows the new title everywhere else at once', async () => {
    const urls = pages();
    const kept = new Map<string, string>();
    for (const [app, name] of [
      [testApp.app, 'here'],
      [other, 'there'],
    ] as const) {
      for (const url of Object.values(urls)) {
        // Once the other app listens, the second answer is the kept one.
        const shown = url === urls.untouched ? 'Untouched second' : 'Before the edit';
        await expect.poll(() => readOn(app, url)).toContain(shown);
        const body = await readOn(app, url);
        // Kept as sent, with its response_id (an item by id is kept as its JSON only).
        if (url !== urls.item) expect(await readOn(app, url), url).toBe(body);
        kept.set(`${name} ${url}`, body);
      }
    }
    expect(kept.get(`here ${urls.untouched}`)).not.toContain(editedId);
    // A kept page costs the request's own statements (its session), none of its making.
    const countReading = () =>
      countStatements(testApp.database, () => readOn(testApp.app, urls.untouched));
    await expect.poll(countReading).toBeLessThanOrEqual(1);
    const keptCost = await countReading();

    const edited = await patch({ title: 'After the edit' });
    expect(edited.statusCode, edited.body).toBe(200);

    // This instance: what shows the item has the new title at its next read.
    for (const url of [urls.holding, urls.item, urls.byIds, urls.featured]) {
      const body = await readOn(testApp.app, url);
      expect(body, url).toContain('After the edit');
      expect(body, url).not.toContain('Before the edit');
    }
    // The trending page that does not show it was not made again: the same answer, as cheap.
    expect(await countReading()).toBe(keptCost);
    expect(await readOn(testApp.app, urls.untouched)).toBe(kept.get(`here ${urls.untouched}`));

    // The other instance: as soon as it hears of the edit, and its untouched page stays kept.
    for (const url of [urls.holding, urls.item, urls.byIds, urls.featured]) {
      await expect.poll(() => readOn(other, url), { timeout: 10_000 }).toContain('After the edit');
    }
    expect(await readOn(other, urls.untouched)).toBe(kept.get(`there ${urls.untouched}`));
  });

  it('drops everything kept when it missed an item change (a gap in the versions)', async () => {
    const urls = pages();
    await expect.poll(() => readOn(other, urls.untouched)).toContain('Untouched second');
    const kept = await readOn(other, urls.untouched);
    expect(await readOn(other, urls.untouched)).toBe(kept);
    // A change whose notification never came (moved without NOTIFY), then one that came.
    await testApp.database.pool.query('UPDATE item_text_version SET version = version + 1');
    expect((await patch({ title: 'After the gap' })).statusCode).toBe(200);
    await expect
      .poll(() => readOn(other, urls.item), { timeout: 10_000 })
      .toContain('After the gap');
    // The other instance cannot know what the missed change touched: its untouched page is new.
    expect(await readOn(other, urls.untouched)).not.toBe(kept);
  });

  it('still takes an item made unlisted out of every list on both instances', async () => {
    const urls = pages();
    for (const app of [testApp.app, other]) {
      await expect.poll(() => readOn(app, urls.holding)).toContain(editedId);
    }
    const edited = await patch({ visibility: 'unlisted' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await readOn(testApp.app, urls.holding)).not.toContain(editedId);
    expect(await readOn(testApp.app, urls.featured)).not.toContain(editedId);
    await expect
      .poll(() => readOn(other, urls.holding), { timeout: 10_000 })
      .not.toContain(editedId);
    await expect
      .poll(() => readOn(other, urls.featured), { timeout: 10_000 })
      .not.toContain(editedId);
  });

  it('moves item_text_version for one item’s text, and catalog_version for anything wider', async () => {
    const read = async () =>
      (
        await testApp.database.pool.query<{ catalog: string; text: string }>(
          `SELECT (SELECT version FROM catalog_version) AS catalog,
             (SELECT version FROM item_text_version) AS text`,
        )
      ).rows[0]!;
    const before = await read();
    await testApp.database.pool.query(
      "UPDATE items SET title = 'Alone', tags = '{alone}', alt_text = 'Alone' WHERE id = $1",
      [editedId],
    );
    const textOnly = await read();
    expect(textOnly.catalog).toBe(before.catalog);
    expect(Number(textOnly.text)).toBe(Number(before.text) + 1);
    // Two items in one statement, or a column that moves an item between lists: every answer.
    for (const [statement, parameters] of [
      ["UPDATE items SET title = title || '!' WHERE id = ANY($1)", [untouchedIds]],
      ["UPDATE items SET rating = 'pg' WHERE id = $1", [editedId]],
      ["UPDATE items SET title = 'Both', visibility = 'public' WHERE id = $1", [editedId]],
    ] as const) {
      const was = await read();
      await testApp.database.pool.query(statement, [...parameters]);
      const now = await read();
      expect(Number(now.catalog), statement).toBe(Number(was.catalog) + 1);
      expect(now.text, statement).toBe(was.text);
    }
  });
});
