import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { giphyItemSchema, renditionNames } from '@sticky/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, readChangedVersions } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { listFilesUnder } from '../../test-support/files.ts';
import { makeAnimation } from '../../test-support/media.ts';
import { createJobQueue } from '../../jobs/job-queue.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { contentAddressedPath, MEDIA_TEMP_DIR } from '../../storage/media-paths.ts';
import { importMedia } from './import-media.ts';
import type { ItemMetadata } from './import-media.ts';
import {
  makeLaterRenditions,
  makeRemainingRenditions,
  RENDITIONS_QUEUE,
} from './later-renditions.ts';
import { cleanupIncompleteImports } from './media-files.ts';
import { planRenditions } from './rendition-plan.ts';

/** Every file under the media folder, relative to it. */
function listMedia(mediaDir: string): string[] {
  return listFilesUnder(mediaDir)
    .map((file) => path.relative(mediaDir, file))
    .sort();
}

/** A word no other test uses: each test makes and checks its own rows. */
const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

const metadata = (overrides: Partial<ItemMetadata> = {}): ItemMetadata => ({
  title: 'Moving square',
  tags: ['Square', 'test'],
  type: 'gif',
  ...overrides,
});

/** A distinct animation per call (its frame count and size), so no two tests share bytes. */
let made = 0;
const animation = (options: { frames?: number; width?: number; isTransparent?: boolean } = {}) => {
  made += 1;
  return makeAnimation({
    frames: options.frames ?? 4 + (made % 5),
    width: options.width ?? 40 + made,
    isTransparent: options.isTransparent,
  });
};

const API_KEY = 'import-safety-test-key-0123456789abcdef';

describe('importMedia', () => {
  let testApp: TestApp;
  let deps: { config: TestApp['config']; database: TestApp['database']; media: TestApp['media'] };

  beforeAll(async () => {
    testApp = await createTestApp({
      IMPORT_MAX_FRAMES: '30',
      IMPORT_MAX_DURATION_MS: '5000',
      IMPORT_MAX_BYTES: String(2 * 1024 * 1024),
      IMPORT_MAX_PIXELS: String(1024 * 1024),
      STICKY_API_KEYS: API_KEY,
    });
    deps = { config: testApp.config, database: testApp.database, media: testApp.media };
  });
  afterAll(async () => {
    await testApp.close();
  });

  const query = async <T extends object>(text: string, values: unknown[] = []) =>
    (await testApp.database.pool.query<T & Record<string, unknown>>(text, values)).rows;

  it('imports a GIF with its renditions, creator and categories', async () => {
    const username = unique('studio');
    const outcome = await importMedia(deps, {
      bytes: await makeAnimation({ frames: 6 }),
      fileName: 'square.gif',
      metadata: metadata({
        rating: 'pg-13',
        categories: ['Reactions/Happy', 'News & Politics'],
        creator: { username, displayName: 'Studio One' },
        sourceUrl: 'https://example.com/square',
      }),
    });
    expect(outcome).toMatchObject({ status: 'imported' });
    if (outcome.status !== 'imported') return;
    expect(outcome.slug).toBe(`moving-square-${outcome.itemId}`);
    const [item] = await query('SELECT * FROM items WHERE id = $1', [outcome.itemId]);
    expect(item).toMatchObject({
      title: 'Moving square',
      tags: ['square', 'test'],
      rating: 'pg-13',
      rating_rank: 2,
      width: 48,
      height: 48,
      frames: 6,
      duration_ms: 360,
      original_format: 'gif',
      alt_text: 'Animated GIF: Moving square.',
      source_url: 'https://example.com/square',
      is_dynamic: false,
      is_indexable: true,
    });
    const categories = await query(
      `SELECT c.name, c.name_encoded, p.name_encoded AS parent FROM item_categories ic
         JOIN categories c ON c.id = ic.category_id LEFT JOIN categories p ON p.id = c.parent_id
        WHERE ic.item_id = $1 ORDER BY c.name`,
      [outcome.itemId],
    );
    expect(categories).toEqual([
      { name: 'Happy', name_encoded: 'happy', parent: 'reactions' },
      { name: 'News & Politics', name_encoded: 'news-politics', parent: null },
    ]);
    const creator = await query(
      'SELECT c.username, c.display_name FROM items i JOIN creators c ON c.id = i.creator_id WHERE i.id = $1',
      [outcome.itemId],
    );
    expect(creator).toEqual([{ username, display_name: 'Studio One' }]);
    // Without a job queue every rendition is made before the item appears.
    const rows = await query<{ name: string; format: string }>(
      'SELECT name, format FROM renditions WHERE item_id = $1',
      [outcome.itemId],
    );
    const planned = planRenditions({ sourceFormat: 'gif', isAnimated: true, isTransparent: false });
    expect(rows.map((row) => `${row.name}.${row.format}`).sort()).toEqual(
      planned.map((entry) => `${entry.name}.${entry.format}`).sort(),
    );
  });

  it('reuses categories and updates a creator found by username', async () => {
    const username = unique('studio');
    const category = unique('Reuse');
    const first = await importMedia(deps, {
      bytes: await animation(),
      fileName: 'a.gif',
      metadata: metadata({
        categories: [`${category}/Happy`],
        creator: { username, displayName: 'Studio One' },
      }),
    });
    const second = await importMedia(deps, {
      bytes: await animation(),
      fileName: 'b.gif',
      metadata: metadata({
        categories: [`${category}/Happy`],
        creator: { username, displayName: 'Studio Two', isVerified: true },
      }),
    });
    expect([first.status, second.status]).toEqual(['imported', 'imported']);
    const categories = await query(
      `SELECT count(*)::int AS n FROM categories c JOIN categories p ON p.id = c.parent_id
        WHERE p.name = $1 AND c.name = 'Happy'`,
      [category],
    );
    expect(categories).toEqual([{ n: 1 }]);
    const creators = await query(
      'SELECT display_name, is_verified FROM creators WHERE username = $1',
      [username],
    );
    expect(creators).toEqual([{ display_name: 'Studio Two', is_verified: true }]);
  });

  it('sniffs the real format: a PNG named .gif is a PNG; text named .gif is refused', async () => {
    const png = await sharp({
      create: { width: 30, height: 21, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .png()
      .toBuffer();
    const outcome = await importMedia(deps, {
      bytes: png,
      fileName: 'photo.gif',
      metadata: metadata({ title: 'Still' }),
    });
    expect(outcome.status).toBe('imported');
    if (outcome.status !== 'imported') return;
    const [row] = await query('SELECT original_format, frames FROM items WHERE id = $1', [
      outcome.itemId,
    ]);
    expect(row).toEqual({ original_format: 'png', frames: 1 });
    const formats = await query<{ format: string }>(
      "SELECT format FROM renditions WHERE item_id = $1 AND name = 'original' ORDER BY format",
      [outcome.itemId],
    );
    // A still has no video.
    expect(formats.map((r) => r.format)).toEqual(['gif', 'png', 'webp']);

    const text = await importMedia(deps, {
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      fileName: 'evil.gif',
      metadata: metadata(),
    });
    expect(text).toEqual({
      status: 'rejected',
      reason: 'it is not a GIF, WebP, PNG or JPEG image',
    });
  });

  it('refuses a 40-byte GIF declaring 6727×65351 pixels before decoding it', async () => {
    const bomb = Buffer.alloc(40);
    bomb.write('GIF89a', 0, 'latin1');
    bomb.writeUInt16LE(6727, 6);
    bomb.writeUInt16LE(65351, 8);
    const outcome = await importMedia(deps, {
      bytes: bomb,
      fileName: 'bomb.gif',
      metadata: metadata(),
    });
    expect(outcome).toEqual({
      status: 'rejected',
      reason: 'it declares 6,727×65,351 pixels per frame, over the limit of 1,048,576',
    });
  });

  it('applies the configured limits: frames, duration, bytes, pixels', async () => {
    const tooManyFrames = await importMedia(deps, {
      bytes: await makeAnimation({ frames: 31, width: 16 }),
      fileName: 'long.gif',
      metadata: metadata(),
    });
    expect(tooManyFrames).toEqual({
      status: 'rejected',
      reason: 'it has 31 frames, over the limit of 30',
    });

    const slow = await makeAnimation({ frames: 3, width: 16, delays: [3000, 3000, 3000] });
    expect(
      await importMedia(deps, { bytes: slow, fileName: 'slow.gif', metadata: metadata() }),
    ).toEqual({
      status: 'rejected',
      reason: 'it lasts 9.0 s, over the limit of 5 s',
    });

    const big = Buffer.alloc(2 * 1024 * 1024 + 1);
    expect(
      await importMedia(deps, { bytes: big, fileName: 'big.gif', metadata: metadata() }),
    ).toEqual({
      status: 'rejected',
      reason: 'the file is 2 MB, over the limit of 2 MB',
    });

    const wide = await sharp({
      create: { width: 2000, height: 600, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .jpeg()
      .toBuffer();
    expect(
      await importMedia(deps, { bytes: wide, fileName: 'wide.jpg', metadata: metadata() }),
    ).toEqual({
      status: 'rejected',
      reason: 'it declares 2,000×600 pixels per frame, over the limit of 1,048,576',
    });
  });

  it('refuses bad metadata with a reason', async () => {
    const bytes = await animation();
    const reasonFor = async (overrides: Partial<ItemMetadata>) => {
      const outcome = await importMedia(deps, {
        bytes,
        fileName: 'x.gif',
        metadata: metadata(overrides),
      });
      return outcome.status === 'rejected' ? outcome.reason : outcome.status;
    };
    expect(await reasonFor({ title: '  ' })).toBe('the title is empty');
    expect(await reasonFor({ type: 'video' as never })).toBe(
      'the type must be gif, sticker or text, not "video"',
    );
    expect(await reasonFor({ rating: 'x' as never })).toBe(
      'the rating must be g, pg, pg-13 or r, not "x"',
    );
    expect(await reasonFor({ categories: ['a/b/c'] })).toBe(
      'the category "a/b/c" is not "Name" or "Parent/Sub"',
    );
  });

  it('takes a caller-chosen id, and treats that id again as a duplicate', async () => {
    const itemId = `textHello${randomBytes(3).toString('hex')}`;
    const first = await importMedia(
      deps,
      {
        bytes: await animation(),
        fileName: 'hello.gif',
        metadata: metadata({ title: 'Hello', type: 'text', isDynamic: true, isIndexable: false }),
      },
      { itemId },
    );
    expect(first).toEqual({ status: 'imported', itemId, slug: `hello-${itemId}` });
    const again = await importMedia(
      deps,
      {
        bytes: await animation(),
        fileName: 'hello.gif',
        metadata: metadata({ title: 'Hello', type: 'text' }),
      },
      { itemId },
    );
    expect(again).toEqual({ status: 'duplicate', itemId });
    const bad = await importMedia(
      deps,
      { bytes: await animation(), fileName: 'x.gif', metadata: metadata() },
      { itemId: '../x' },
    );
    expect(bad.status).toBe('rejected');
  });

  it('keeps a sticker transparent in every rendition, and gives it WebM, never MP4', async () => {
    const outcome = await importMedia(deps, {
      bytes: await animation({ isTransparent: true }),
      fileName: 'sticker.gif',
      metadata: metadata({ title: 'Floating square', type: 'sticker' }),
    });
    expect(outcome.status).toBe('imported');
    if (outcome.status !== 'imported') return;
    const rows = await query<{ name: string; format: string; path: string }>(
      'SELECT name, format, path FROM renditions WHERE item_id = $1',
      [outcome.itemId],
    );
    expect(rows.filter((row) => row.format === 'mp4')).toEqual([]);
    expect(rows.filter((row) => row.format === 'webm').length).toBeGreaterThan(0);
    const images = rows.filter((row) => row.format === 'gif' || row.format === 'webp');
    expect(images.length).toBeGreaterThan(20);
    for (const row of images) {
      const stats = await sharp(path.join(testApp.config.mediaDir, row.path)).stats();
      expect(stats.isOpaque, `${row.name}.${row.format}`).toBe(false);
    }
  });

  it('makes MP4 renditions of GIFs with the packaged ffmpeg', async () => {
    const outcome = await importMedia(deps, {
      bytes: await animation({ frames: 8, width: 50 }),
      fileName: 'video.gif',
      metadata: metadata({ title: 'Video' }),
    });
    expect(outcome.status).toBe('imported');
    const rows = await query<{ name: string }>(
      "SELECT name FROM renditions WHERE item_id = $1 AND format = 'mp4' ORDER BY name",
      [(outcome as { itemId: string }).itemId],
    );
    expect(rows.map((row) => row.name)).toEqual([
      'downsized_small',
      'fixed_height',
      'fixed_height_small',
      'fixed_width',
      'fixed_width_small',
      'looping',
      'nano',
      'original',
      'preview',
      'tiny',
    ]);
  });

  it('is atomic: a failure after the files are written leaves no item and no files', async () => {
    const before = listMedia(testApp.config.mediaDir);
    const [counted] = await query<{ n: number }>('SELECT count(*)::int AS n FROM items');
    const items = counted!.n;
    const category = unique('Doomed');
    const bytes = await animation({ frames: 9, width: 64 });
    await expect(
      importMedia(
        deps,
        { bytes, fileName: 'doomed.gif', metadata: metadata({ categories: [category] }) },
        {
          beforeCommit: () => {
            // The files are in place by now; the transaction has written every row.
            expect(listMedia(testApp.config.mediaDir).length).toBeGreaterThan(before.length);
            throw new Error('disk on fire');
          },
        },
      ),
    ).rejects.toThrow('disk on fire');
    expect(await query('SELECT count(*)::int AS n FROM items')).toEqual([{ n: items }]);
    expect(await query('SELECT id FROM categories WHERE name = $1', [category])).toEqual([]);
    // Concurrent tests only add files; none of ours is left.
    const after = new Set(listMedia(testApp.config.mediaDir));
    const ours = [...after].filter((file) => !before.includes(file));
    const referenced = await query<{ path: string }>(
      'SELECT path FROM renditions WHERE path = ANY($1::text[])',
      [ours],
    );
    expect(ours.length).toBe(referenced.length);
    // The same file imports cleanly afterwards.
    const retry = await importMedia(deps, { bytes, fileName: 'doomed.gif', metadata: metadata() });
    expect(retry.status).toBe('imported');
  });

  it('skips the same content when imported twice at the same time', async () => {
    const bytes = await animation();
    const outcomes = await Promise.all([
      importMedia(deps, { bytes, fileName: 'a.gif', metadata: metadata() }),
      importMedia(deps, { bytes, fileName: 'b.gif', metadata: metadata() }),
    ]);
    const statuses = outcomes.map((outcome) => outcome.status).sort();
    expect(statuses).toEqual(['duplicate', 'imported']);
    const ids = new Set(outcomes.map((outcome) => (outcome as { itemId: string }).itemId));
    expect(ids.size).toBe(1);
  });

  it('tells its app of an item once it is committed, and of nothing refused or rolled back', async () => {
    // docs/catalog.md, "Caches and versions": the writer's own app reads its change at once.
    const events: string[] = [];
    const told = {
      ...deps,
      services: { versions: { noteCommittedChange: () => events.push('told') } },
    };
    const refused = await importMedia(told, {
      bytes: Buffer.from('not an image at all'),
      fileName: 'refused.gif',
      metadata: metadata(),
    });
    expect(refused.status).toBe('rejected');
    await expect(
      importMedia(
        told,
        { bytes: await animation({ frames: 3 }), fileName: 'undone.gif', metadata: metadata() },
        {
          beforeCommit: () => {
            throw new Error('rolled back');
          },
        },
      ),
    ).rejects.toThrow('rolled back');
    expect(events).toEqual([]);
    const imported = await importMedia(
      told,
      { bytes: await animation({ frames: 4 }), fileName: 'kept.gif', metadata: metadata() },
      { beforeCommit: () => void events.push('rows written') },
    );
    expect(imported.status).toBe('imported');
    expect(events).toEqual(['rows written', 'told']);
  });

  it('cleans up what a crashed import left: staging folders and unreferenced files', async () => {
    const { mediaDir } = testApp.config;
    const outcome = await importMedia(deps, {
      bytes: await animation(),
      fileName: 'kept.gif',
      metadata: metadata(),
    });
    expect(outcome.status).toBe('imported');
    const referenced = (
      await query<{ path: string }>('SELECT DISTINCT path FROM renditions WHERE item_id = $1', [
        (outcome as { itemId: string }).itemId,
      ])
    ).map((row) => row.path);
    expect(referenced.length).toBeGreaterThan(3);
    // A process that has exited: its pid names a staging folder nobody is using.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const crashed = path.join(mediaDir, MEDIA_TEMP_DIR, `${dead}-abc123`);
    fs.mkdirSync(crashed, { recursive: true });
    fs.writeFileSync(path.join(crashed, 'fixed_width.gif'), 'half written');
    // A live process (our parent) may still be importing: its folder stays.
    const live = path.join(mediaDir, MEDIA_TEMP_DIR, `${process.ppid}-def456`);
    fs.mkdirSync(live, { recursive: true });
    const orphan = contentAddressedPath(randomBytes(32).toString('hex'), 'gif');
    fs.mkdirSync(path.dirname(path.join(mediaDir, orphan)), { recursive: true });
    fs.writeFileSync(path.join(mediaDir, orphan), 'moved into place, never committed');
    fs.writeFileSync(path.join(mediaDir, 'README.txt'), 'not ours to delete');

    // While an import holds the files lock, orphans are left for next time.
    const client = await testApp.database.pool.connect();
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock_shared(726518)');
    const busy = await cleanupIncompleteImports({ ...deps, store: deps.media.store });
    await client.query('COMMIT');
    client.release();
    expect(busy).toMatchObject({ orphansRemoved: 0, isOrphanSweepDone: false });
    expect(busy.stagingDirsRemoved).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(crashed)).toBe(false);
    expect(fs.existsSync(path.join(mediaDir, orphan))).toBe(true);

    const summary = await cleanupIncompleteImports({ ...deps, store: deps.media.store });
    expect(summary).toMatchObject({ orphansRemoved: 1, isOrphanSweepDone: true });
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(path.join(mediaDir, orphan))).toBe(false);
    expect(fs.existsSync(path.join(mediaDir, 'README.txt'))).toBe(true);
    for (const file of referenced) {
      expect(fs.existsSync(path.join(mediaDir, file)), file).toBe(true);
    }
    fs.rmSync(live, { recursive: true });
  });
});

describe('importMedia with the job queue', () => {
  let testApp: TestApp;
  let jobs: JobQueue;
  let deps: {
    config: TestApp['config'];
    database: TestApp['database'];
    media: TestApp['media'];
    jobs: JobQueue;
  };

  beforeAll(async () => {
    testApp = await createTestApp({ STICKY_API_KEYS: API_KEY });
    jobs = createJobQueue({ database: testApp.database });
    await jobs.start();
    deps = { config: testApp.config, database: testApp.database, media: testApp.media, jobs };
  });
  afterAll(async () => {
    await jobs?.stop();
    await testApp?.close();
  });

  const namesOf = async (itemId: string) =>
    (
      await testApp.database.pool.query<{ name: string; format: string }>(
        'SELECT name, format FROM renditions WHERE item_id = $1',
        [itemId],
      )
    ).rows
      .map((row) => `${row.name}.${row.format}`)
      .sort();
  const planned = (tier: 'ready' | 'later' | 'all') =>
    planRenditions({ sourceFormat: 'gif', isAnimated: true, isTransparent: false })
      .filter((entry) => tier === 'all' || entry.tier === tier)
      .map((entry) => `${entry.name}.${entry.format}`)
      .sort();
  const getItem = async (itemId: string) => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/v1/gifs/${itemId}?api_key=${API_KEY}`,
    });
    expect(response.statusCode).toBe(200);
    return giphyItemSchema.parse(response.json().data);
  };
  /** Every URL an item's JSON names answers 200 with the content type its field promises. */
  const expectWorkingUrls = async (itemId: string) => {
    const item = await getItem(itemId);
    expect(Object.keys(item.images).sort()).toEqual([...renditionNames].sort());
    for (const [slot, rendition] of Object.entries(item.images)) {
      const fields = [
        ['url', /^image\/(gif|webp|png|jpeg)$/],
        ['webp', /^image\/(webp|gif|png|jpeg)$/],
        ['mp4', /^video\/mp4$/],
        ['webm', /^video\/webm$/],
      ] as const;
      for (const [field, type] of fields) {
        const url = rendition[field];
        if (!url) continue;
        const response = await testApp.app.inject({
          method: 'GET',
          url: new URL(url).pathname,
        });
        expect(response.statusCode, `${slot}.${field}`).toBe(200);
        expect(response.headers['content-type'], `${slot}.${field}`).toMatch(type);
      }
      if (slotIsVideo(slot)) {
        expect(rendition.mp4 ?? rendition.webm ?? rendition.url, slot).toBeDefined();
      }
    }
    return item;
  };
  const slotIsVideo = (slot: string) =>
    ['original_mp4', 'downsized_small', 'preview', 'looping'].includes(slot);

  it('stores an item once its tiles exist; a job sent with it makes the rest', async () => {
    const outcome = await importMedia(deps, {
      bytes: await makeAnimation({ frames: 7, width: 90, height: 60 }),
      fileName: 'queued.gif',
      metadata: metadata({ title: 'Queued' }),
    });
    expect(outcome.status).toBe('imported');
    const { itemId } = outcome as { itemId: string };
    expect(await namesOf(itemId)).toEqual(planned('ready'));
    expect(await jobs.countQueued(RENDITIONS_QUEUE)).toBeGreaterThanOrEqual(1);

    // Before the job runs, every slot answers with a rendition that exists.
    const before = await expectWorkingUrls(itemId);
    expect(before.images.fixed_width.mp4).toMatch(/\.mp4$/);
    expect(before.images.preview_gif!.url).toBe(before.images.fixed_width.url);

    await makeRemainingRenditions(deps);
    expect(await namesOf(itemId)).toEqual(planned('all'));
    expect(await jobs.countQueued(RENDITIONS_QUEUE)).toBe(0);
    await readChangedVersions(testApp);
    const after = await expectWorkingUrls(itemId);
    const [preview] = (
      await testApp.database.pool.query<{ path: string }>(
        "SELECT path FROM renditions WHERE item_id = $1 AND name = 'preview_gif'",
        [itemId],
      )
    ).rows;
    expect(after.images.preview_gif!.url).toBe(
      `${testApp.config.publicUrl}/media/${preview!.path}`,
    );
    expect(after.images.looping!.mp4).toMatch(/\.mp4$/);
  });

  it('sends no job when the import is rolled back', async () => {
    const before = await jobs.countQueued(RENDITIONS_QUEUE);
    await expect(
      importMedia(
        deps,
        { bytes: await animation(), fileName: 'undone.gif', metadata: metadata() },
        {
          beforeCommit: () => {
            throw new Error('rolled back');
          },
        },
      ),
    ).rejects.toThrow('rolled back');
    expect(await jobs.countQueued(RENDITIONS_QUEUE)).toBe(before);
  });

  // The two tests below store items without sending their job (phase `ready`, no queue), so
  // the worker the first test started cannot race them: they run the job's work themselves.
  const storeReadyOnly = async (bytes: Buffer, overrides: Partial<ItemMetadata> = {}) => {
    const outcome = await importMedia(
      { config: testApp.config, database: testApp.database, media: testApp.media },
      { bytes, fileName: 'ready.gif', metadata: metadata(overrides) },
      { phase: 'ready' },
    );
    expect(outcome.status).toBe('imported');
    return (outcome as { itemId: string }).itemId;
  };

  it('tells its app once later renditions are stored, and not for an item deleted meanwhile', async () => {
    let told = 0;
    const telling = {
      ...deps,
      services: { versions: { noteCommittedChange: () => (told += 1) } },
    };
    const goneId = await storeReadyOnly(await animation({ frames: 3 }));
    await testApp.database.pool.query('DELETE FROM items WHERE id = $1', [goneId]);
    expect(await makeLaterRenditions(telling, goneId)).toEqual({ status: 'gone' });
    expect(told).toBe(0);
    const itemId = await storeReadyOnly(await animation({ frames: 4 }));
    expect(await makeLaterRenditions(telling, itemId)).toMatchObject({ status: 'made' });
    expect(told).toBe(1);
  });

  it('runs a job twice harmlessly, and does nothing for an item deleted meanwhile', async () => {
    const itemId = await storeReadyOnly(await animation({ frames: 5 }));
    expect(await makeLaterRenditions(deps, itemId)).toMatchObject({ status: 'made' });
    const files = listMedia(testApp.config.mediaDir);
    expect(await makeLaterRenditions(deps, itemId)).toMatchObject({ status: 'made' });
    expect(await namesOf(itemId)).toEqual(planned('all'));
    // Nothing new on disk: the second run's files were the same, or removed.
    expect(listMedia(testApp.config.mediaDir)).toEqual(files);

    const goneId = await storeReadyOnly(await animation());
    await testApp.database.pool.query('DELETE FROM items WHERE id = $1', [goneId]);
    expect(await makeLaterRenditions(deps, goneId)).toEqual({ status: 'gone' });
  });

  it('gives a sticker WebM later, and answers its video slots with a working image before', async () => {
    const itemId = await storeReadyOnly(await animation({ isTransparent: true }), {
      title: 'Sticker',
      type: 'sticker',
    });
    const ready = await testApp.database.pool.query(
      "SELECT format FROM renditions WHERE item_id = $1 AND format IN ('mp4', 'webm')",
      [itemId],
    );
    expect(ready.rows).toEqual([]);
    const before = await expectWorkingUrls(itemId);
    expect(before.images.looping!.url).toMatch(/\.(webp|gif)$/);
    expect(before.images.looping!.mp4).toBeUndefined();
    expect(await makeLaterRenditions(deps, itemId)).toMatchObject({ status: 'made' });
    await readChangedVersions(testApp);
    const after = await expectWorkingUrls(itemId);
    expect(after.images.fixed_width.webm).toMatch(/\.webm$/);
    expect(after.images.fixed_width.mp4).toBeUndefined();
    expect(after.images.preview!.webm).toMatch(/\.webm$/);
  });
});
