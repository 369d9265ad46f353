import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { favorites, renditions, users } from '../../db/schema.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { signInAs } from '../../test-support/sign-in.ts';
import { contentAddressedPath, resolveMediaPath } from '../../storage/media-paths.ts';
import { animatedTextItemId, chargeRenderQuota } from './animate.ts';
import { textStyleIds } from './styles.ts';

/**
 * Issue 16, "Animated text that fills the disk": every path that draws (text/animate, text
 * search) goes through animateText, which draws a new phrase only within the person's daily
 * quota and above the free-space floor; renderings nobody favorited are purged after a while.
 */
describe('animated text limits', () => {
  let testApp: TestApp | undefined;

  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  const get = (app: TestApp, url: string, cookie: string) =>
    app.app.inject({ method: 'GET', url, headers: { cookie } });
  const countItems = async (app: TestApp) =>
    Number(
      (await app.database.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM items`)).rows[0]!
        .n,
    );

  it('gives each person a daily quota of new phrases, the same on every path that draws', async () => {
    testApp = await createTestApp({ TEXT_RENDERS_PER_DAY: '1' });
    const alice = await signInAs(testApp);
    // A phrase drawn before (its renderings stored under their derived ids).
    await insertCatalogItems(
      testApp.database,
      textStyleIds.map((style) => ({
        id: animatedTextItemId('Made before', style),
        type: 'text' as const,
        title: 'Made before',
        isDynamic: true,
        isIndexable: false,
      })),
    );
    // Alice has drawn today's one new phrase.
    await chargeRenderQuota(testApp.app.deps, { userId: alice.user.id, address: '127.0.0.1' });
    const drawn = await countItems(testApp);

    const animate = await get(testApp, '/v1/text/animate?m=Second%20one', alice.cookie);
    expect(animate.statusCode).toBe(429);
    expect(animate.json().meta.msg).toMatch(/made 1 new animated texts today/);
    const search = await get(testApp, '/v1/text/search?q=Third%20one', alice.cookie);
    expect(search.statusCode).toBe(429);
    expect(await countItems(testApp)).toBe(drawn);

    // What was made before costs nothing: still served, on both paths.
    const made = await get(testApp, '/v1/text/animate?m=Made%20before', alice.cookie);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data).toHaveLength(textStyleIds.length);
    const found = await get(testApp, '/v1/text/search?q=Made%20before', alice.cookie);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data).toHaveLength(textStyleIds.length);
    // Someone else has a quota of their own.
    const bob = await signInAs(testApp);
    await expect(
      chargeRenderQuota(testApp.app.deps, { userId: bob.user.id, address: '127.0.0.1' }),
    ).resolves.toBeUndefined();
    await expect(
      chargeRenderQuota(testApp.app.deps, { userId: bob.user.id, address: '127.0.0.1' }),
    ).rejects.toThrow(/new animated texts today/);
  });

  it('draws nothing new below the free-space floor, and says why', async () => {
    // A floor no disk reaches: a petabyte.
    testApp = await createTestApp({ MIN_FREE_DISK_MB: String(1024 ** 3) });
    const { cookie } = await signInAs(testApp);
    for (const url of ['/v1/text/animate?m=Hello%20there', '/v1/text/search?q=Hello%20there']) {
      const response = await get(testApp, url, cookie);
      expect(response.statusCode, url).toBe(503);
      expect(response.json().meta.msg).toMatch(/low on disk space/);
    }
    expect(await countItems(testApp)).toBe(0);
  });

  it('purges renderings nobody favorited once they are old, with their files', async () => {
    testApp = await createTestApp({ TEXT_RENDER_KEEP_DAYS: '7' });
    const app = testApp;
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    const [stale, favorited, recent, catalog] = await insertCatalogItems(
      app.database,
      [
        {
          title: 'stale',
          type: 'text' as const,
          isDynamic: true,
          isIndexable: false,
          createdAt: longAgo,
        },
        {
          title: 'kept',
          type: 'text' as const,
          isDynamic: true,
          isIndexable: false,
          createdAt: longAgo,
        },
        { title: 'recent', type: 'text' as const, isDynamic: true, isIndexable: false },
        { title: 'catalog text', type: 'text' as const, createdAt: longAgo },
      ].map((item) => ({ ...item, renditions: 'none' as const })),
    );
    // Each has a file; the stale one shares one of its two with the catalog item.
    const files = new Map<string, string>();
    const addFile = async (itemId: string, name: string) => {
      const relative = contentAddressedPath(randomBytes(32).toString('hex'), 'gif');
      const file = resolveMediaPath(app.config.mediaDir, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'GIF89a');
      files.set(`${itemId}/${name}`, file);
      return relative;
    };
    const row = (itemId: string, name: string, relative: string) => ({
      itemId,
      name,
      format: 'gif' as const,
      width: 10,
      height: 10,
      bytes: 6,
      path: relative,
    });
    const shared = await addFile(catalog!, 'original');
    await app.database.db
      .insert(renditions)
      .values([
        row(stale!, 'original', await addFile(stale!, 'original')),
        row(stale!, 'fixed_width', shared),
        row(favorited!, 'original', await addFile(favorited!, 'original')),
        row(recent!, 'original', await addFile(recent!, 'original')),
        row(catalog!, 'original', shared),
      ]);
    await app.database.db
      .insert(users)
      .values({ id: 'fan', issuer: 'test', subject: 'fan', email: 'fan@example.com', name: 'Fan' });
    await app.database.db.insert(favorites).values({ userId: 'fan', itemId: favorited! });

    const summary = await app.app.deps.services.maintenance.runNow();
    expect(summary).toMatchObject({ isDone: true, renderingsPurged: 1 });
    const left = await app.database.db.execute<{ id: string }>(sql`SELECT id FROM items`);
    expect(left.rows.map((item) => item.id).sort()).toEqual([favorited, recent, catalog].sort());
    expect(fs.existsSync(files.get(`${stale}/original`)!)).toBe(false);
    for (const kept of [`${favorited}/original`, `${recent}/original`, `${catalog}/original`]) {
      expect(fs.existsSync(files.get(kept)!), kept).toBe(true);
    }
  });
});
