import { giphyItemSchema, listEnvelopeSchema } from '@sticky/contracts';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, creators, items, starterCatalogSeeds } from '../../db/schema.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { signInAs } from '../../test-support/sign-in.ts';
import { starterCategories } from './categories.ts';
import { buildStarterPlan, STARTER_CATALOG_VERSION, starterSizes } from './plan.ts';
import type { StarterItem } from './plan.ts';
import { SEED_LOCK_KEY, seedStarterCatalog } from './seed.ts';
import type { SeedSummary } from './seed.ts';

const plan = buildStarterPlan();

describe('starter catalog plan', () => {
  it('has at least 300 items across the three types', () => {
    const byType = { sticker: 0, gif: 0, text: 0 };
    for (const item of plan) byType[item.type] += 1;
    expect(plan.length).toBeGreaterThanOrEqual(300);
    expect(byType.sticker).toBeGreaterThanOrEqual(100);
    expect(byType.gif).toBeGreaterThanOrEqual(40);
    expect(byType.text).toBeGreaterThanOrEqual(80);
    expect(new Set(plan.map((item) => item.key)).size).toBe(plan.length);
  });

  it('fills at least 8 categories, every subcategory with several items', () => {
    expect(starterCategories.length).toBeGreaterThanOrEqual(8);
    const names = starterCategories.map((category) => category.name);
    for (const wanted of [
      'Reactions',
      'Emotions',
      'Love',
      'Celebrations',
      'Greetings',
      'Animals',
      'Food & Drink',
      'Nature',
    ]) {
      expect(names).toContain(wanted);
    }
    const counts = new Map<string, number>();
    for (const item of plan) {
      for (const path of item.categories) counts.set(path, (counts.get(path) ?? 0) + 1);
    }
    const declared = starterCategories.flatMap((category) =>
      category.subcategories.map((sub) => `${category.name}/${sub}`),
    );
    for (const path of counts.keys()) expect(declared).toContain(path);
    for (const path of declared) expect(counts.get(path) ?? 0, path).toBeGreaterThanOrEqual(3);
    for (const category of starterCategories) {
      expect(category.subcategories.length, category.name).toBeGreaterThanOrEqual(3);
    }
  });

  it('describes every item: title, tags, alt text, licence and where the art comes from', () => {
    for (const item of plan) {
      expect(item.title.length, item.key).toBeGreaterThan(2);
      expect(item.tags.length, item.key).toBeGreaterThanOrEqual(3);
      expect(item.altText, item.key).toMatch(/^Animated .{10,}/);
      expect(item.sourceUrl, item.key).toMatch(
        /^https:\/\/(github\.com\/googlefonts\/noto-emoji|fonts\.google\.com)\//,
      );
      expect(item.license, item.key).toMatch(/^(Apache-2\.0|OFL-1\.1)$/);
      expect(item.categories.length, item.key).toBeGreaterThan(0);
    }
    const sticker = plan.find((item) => item.key === 'sticker:face-with-tears-of-joy')!;
    expect(sticker.title).toBe('Shaking Face with Tears of Joy');
    expect(sticker.tags).toEqual(expect.arrayContaining(['lol', 'joy', 'laugh']));
    expect(plan.filter((item) => item.type === 'text').map((item) => item.title)).toEqual(
      expect.arrayContaining([
        'Thank You Bouncing Letters',
        'LOL Shake',
        'Happy Birthday Rainbow Wave',
      ]),
    );
  });

  it('starts items at different popularity, so trending has an order on day one', () => {
    const popularity = new Set(plan.map((item) => item.popularity));
    expect(popularity.size).toBeGreaterThan(20);
    expect(Math.min(...popularity)).toBeGreaterThanOrEqual(1);
  });

  it('draws each kind of item as an animation of the planned size, the same bytes every time', async () => {
    for (const type of ['sticker', 'gif', 'text'] as const) {
      const item = plan.find((candidate) => candidate.type === type)!;
      const bytes = await item.render('gif');
      const meta = await sharp(bytes, { animated: true }).metadata();
      expect(meta.pages, item.key).toBeGreaterThan(1);
      expect(meta.width).toBe(starterSizes[type].width);
      expect(meta.pageHeight).toBe(starterSizes[type].height);
      expect(meta.hasAlpha).toBe(true);
      expect((await item.render('gif')).equals(bytes)).toBe(true);
    }
  });
});

/**
 * One seed of a few planned items, made before the tests (each test only reads it, or seeds
 * again in ways that change no item), so no test depends on another having run first.
 */
describe('seeding the starter catalog', () => {
  let testApp: TestApp;
  let few: StarterItem[];
  let seeded: SeedSummary;

  const deps = () => ({ config: testApp.config, database: testApp.database, media: testApp.media });
  const count = async () =>
    Number(
      (await testApp.database.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM items`))
        .rows[0]!.n,
    );

  beforeAll(async () => {
    testApp = await createTestApp();
    const pick = (key: string) => plan.find((item) => item.key === key)!;
    few = [
      pick('sticker:red-heart'),
      pick('gif:Happy Birthday Confetti'),
      pick(`text:Thank you!:bounce`),
    ];
    seeded = await seedStarterCatalog(deps(), { plan: few });
  }, 180_000);
  afterAll(async () => {
    await testApp.close();
  });

  it('imports every item with its renditions, categories and the Sticky Studio creator', async () => {
    expect(seeded).toMatchObject({
      status: 'seeded',
      version: STARTER_CATALOG_VERSION,
      imported: 3,
      duplicates: 0,
      failed: [],
      byType: { sticker: 1, gif: 1, text: 1 },
    });
    const rows = await testApp.database.db.select().from(items);
    expect(rows.map((row) => row.type).sort()).toEqual(['gif', 'sticker', 'text']);
    for (const row of rows) {
      const planned = few.find((item) => item.title === row.title)!;
      expect(row).toMatchObject({
        rating: 'g',
        altText: planned.altText,
        sourceUrl: planned.sourceUrl,
        license: planned.license,
        isDynamic: false,
        isIndexable: true,
      });
      expect(row.trendScore).toBeGreaterThan(0);
    }
    expect(new Set(rows.map((row) => row.trendScore)).size).toBe(3);
    const [studio] = await testApp.database.db
      .select()
      .from(creators)
      .where(eq(creators.username, 'stickystudio'));
    expect(studio).toMatchObject({ displayName: 'Sticky Studio', isVerified: true });
    expect(studio!.avatarUrl).toMatch(/^data:image\/svg\+xml,/);
    expect(studio!.avatarUrl.length).toBeLessThan(600);
    expect(studio!.description.length).toBeGreaterThan(40);
    expect(rows.every((row) => row.creatorId === studio!.id)).toBe(true);
    const categoryRows = await testApp.database.db.select().from(categories);
    const love = categoryRows.find((row) => row.name === 'Love' && row.parentId === null);
    expect(categoryRows.find((row) => row.name === 'Hearts')?.parentId).toBe(love?.id);
    // Listed in the planned order (Reactions, Emotions, Love, Celebrations…), not A–Z.
    const positionOf = (name: string) => categoryRows.find((row) => row.name === name)?.position;
    expect(positionOf('Love')).toBe(2);
    expect(positionOf('Celebrations')).toBe(3);
    expect(positionOf('Greetings')).toBe(4);
    const [marker] = await testApp.database.db.select().from(starterCatalogSeeds);
    expect(marker?.version).toBe(STARTER_CATALOG_VERSION);
  });

  it('shows up through /v1 like any other item', async () => {
    const { cookie } = await signInAs(testApp);
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/v1/stickers/trending',
      headers: { cookie },
    });
    const body = listEnvelopeSchema(giphyItemSchema).parse(response.json());
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ title: 'Beating Red Heart', rating: 'g' });
    expect(body.data[0]!.user?.display_name).toBe('Sticky Studio');
    expect(body.data[0]!.source_tld).toBe('github.com');
  });

  it('does nothing on a second run, and a forced run finds every item already there', async () => {
    const before = await count();
    const again = await seedStarterCatalog(deps(), { plan: few });
    expect(again.status).toBe('already-seeded');
    expect(await count()).toBe(before);
    const forced = await seedStarterCatalog(deps(), { plan: few, isForced: true });
    expect(forced).toMatchObject({ status: 'seeded', imported: 0, duplicates: 3, failed: [] });
    expect(await count()).toBe(before);
  }, 120_000);

  it('lets only one process seed at a time', async () => {
    // Another process seeding holds the lock (a connection of its own): this one stays out.
    const other = await testApp.database.pool.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [SEED_LOCK_KEY]);
      const busy = await seedStarterCatalog(deps(), { plan: few.slice(0, 1), isForced: true });
      expect(busy.status).toBe('busy');
      expect(busy.imported + busy.duplicates).toBe(0);
    } finally {
      await other.query('SELECT pg_advisory_unlock($1)', [SEED_LOCK_KEY]);
      other.release();
    }
    const after = await seedStarterCatalog(deps(), { plan: few.slice(0, 1), isForced: true });
    expect(after.status).toBe('seeded');
  }, 60_000);
});
