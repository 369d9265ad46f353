import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import type { App } from '../app.ts';
import { unheldRankingMaxAgeMs } from '../catalog/query/query-caches.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { countStatements } from '../test-support/database.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { sameSiteHeaders } from '../test-support/uploads.ts';

const apiKey = 'tenor-key-0123456789abcdefghijklmnopq';

/**
 * Issue 43: an edit of one item's text emptied every kept search answer. Now the answers holding
 * the item go at once, and the others are kept at most `unheldRankingMaxAgeMs` (the new text may
 * make the item belong to them): docs/catalog.md, "Caches and versions".
 */
describe('search answers after an edit of one item’s text', () => {
  let testApp: TestApp;
  let other: App;
  let owner: Record<string, string>;
  let editedId: string;
  // The caches' clock (Date.now), moved forward by the test.
  let clockShift = 0;

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
    const ids = await insertCatalogItems(testApp.database, [
      { title: 'Cherry pie', trendScore: 30 },
      { title: 'Cherry tart', trendScore: 20 },
      { title: 'Banana before', trendScore: 10 },
    ]);
    editedId = ids[2]!;
    await testApp.database.pool.query('UPDATE items SET owner_id = $1 WHERE id = $2', [
      signedIn.user.id,
      editedId,
    ]);
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + clockShift);
  });
  afterEach(() => {
    clockShift = 0;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await other?.close();
    await testApp?.close();
  });

  const search = (word: string) => `/v2/search?key=${apiKey}&q=${word}&limit=10`;
  const readOn = async (app: App, url: string) => (await app.inject({ url })).body;
  const costOn = (app: App, url: string) =>
    countStatements(testApp.database, () => readOn(app, url));

  it('keeps answers without the item for the bound, and shows the new title where it is', async () => {
    const apps = [testApp.app, other] as const;
    for (const app of apps) {
      await expect.poll(() => readOn(app, search('cherry'))).toContain('Cherry tart');
      await expect.poll(() => readOn(app, search('banana'))).toContain('Banana before');
      expect(await readOn(app, search('kiwi'))).not.toContain(editedId);
      // Kept: served without a statement.
      for (const word of ['cherry', 'banana', 'kiwi']) {
        await expect.poll(() => costOn(app, search(word))).toBe(0);
      }
    }

    const edited = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/items/${editedId}`,
      headers: { ...owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Banana kiwi after' }),
    });
    expect(edited.statusCode, edited.body).toBe(200);

    // The answer holding the item shows its new title at once here, as soon as heard there.
    expect(await readOn(testApp.app, search('banana'))).toContain('Banana kiwi after');
    await expect
      .poll(() => readOn(other, search('banana')), { timeout: 10_000 })
      .toContain('Banana kiwi after');
    // Answers without it are still the kept ones on both instances, within the bound: the
    // search for its new word does not find it yet.
    clockShift = unheldRankingMaxAgeMs - 1_000;
    for (const app of apps) {
      for (const word of ['cherry', 'kiwi']) expect(await costOn(app, search(word)), word).toBe(0);
      expect(await readOn(app, search('kiwi'))).not.toContain(editedId);
    }
    // Past the bound they are made again: the new word finds the item on both instances.
    clockShift = unheldRankingMaxAgeMs + 1_000;
    for (const app of apps) {
      expect(await costOn(app, search('cherry'))).toBeGreaterThan(0);
      expect(await readOn(app, search('kiwi'))).toContain('Banana kiwi after');
    }
  });
});
