import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { contentAddressedPath, MEDIA_TEMP_DIR } from '../media-paths.ts';
import { resolveFfmpegPath as findFfmpeg } from './encode-video.ts';
import { importMedia } from './import-media.ts';
import type { ItemMetadata } from './import-media.ts';
import { cleanupIncompleteImports } from './media-files.ts';
import { closeMediaProcessors } from './media-processor.ts';
import { listFilesUnder } from '../../test-support/files.ts';

/** A small animated GIF made here: `frames` frames of a moving square, 60 ms each. */
async function makeAnimation(frames: number, size = 48, transparent = false): Promise<Buffer> {
  const images = await Promise.all(
    Array.from({ length: frames }, (_, index) =>
      sharp({
        create: {
          width: size,
          height: size,
          channels: 4,
          background: transparent
            ? { r: 0, g: 0, b: 0, alpha: 0 }
            : { r: 20 + index * 7, g: 90, b: 160, alpha: 1 },
        },
      })
        .composite([
          {
            input: {
              create: {
                width: 8,
                height: 8,
                channels: 4,
                background: { r: 250, g: 220, b: 0, alpha: 1 },
              },
            },
            left: (index * 5) % (size - 8),
            top: 10,
          },
        ])
        .png()
        .toBuffer(),
    ),
  );
  return sharp(images, { join: { animated: true } })
    .gif({ delay: Array(frames).fill(60), loop: 0 })
    .toBuffer();
}

/** Every file under the media folder, relative to it. */
function listMedia(mediaDir: string): string[] {
  return listFilesUnder(mediaDir)
    .map((file) => path.relative(mediaDir, file))
    .sort();
}

const metadata = (overrides: Partial<ItemMetadata> = {}): ItemMetadata => ({
  title: 'Moving square',
  tags: ['Square', 'test'],
  type: 'gif',
  ...overrides,
});

describe('importMedia', () => {
  let testApp: TestApp;
  let deps: { config: TestApp['config']; database: TestApp['database'] };

  beforeAll(async () => {
    testApp = await createTestApp({
      IMPORT_MAX_FRAMES: '30',
      IMPORT_MAX_DURATION_MS: '5000',
      IMPORT_MAX_BYTES: String(2 * 1024 * 1024),
      IMPORT_MAX_PIXELS: String(1024 * 1024),
    });
    deps = { config: testApp.config, database: testApp.database };
  });
  afterAll(async () => {
    await closeMediaProcessors();
    await testApp.close();
  });

  const count = async (table: string) =>
    (await testApp.database.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]
      .n as number;

  it('imports a GIF with its renditions, creator and categories', async () => {
    const outcome = await importMedia(deps, {
      bytes: await makeAnimation(6),
      fileName: 'square.gif',
      metadata: metadata({
        rating: 'pg-13',
        categories: ['Reactions/Happy', 'News & Politics'],
        creator: { username: 'studio', displayName: 'Studio One' },
        sourceUrl: 'https://example.com/square',
      }),
    });
    expect(outcome).toMatchObject({ status: 'imported' });
    if (outcome.status !== 'imported') return;
    expect(outcome.slug).toBe(`moving-square-${outcome.itemId}`);
    const item = (
      await testApp.database.pool.query('SELECT * FROM items WHERE id = $1', [outcome.itemId])
    ).rows[0];
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
    const categories = await testApp.database.pool.query(
      `SELECT c.name, c.name_encoded, p.name_encoded AS parent FROM item_categories ic
         JOIN categories c ON c.id = ic.category_id LEFT JOIN categories p ON p.id = c.parent_id
        WHERE ic.item_id = $1 ORDER BY c.name`,
      [outcome.itemId],
    );
    expect(categories.rows).toEqual([
      { name: 'Happy', name_encoded: 'happy', parent: 'reactions' },
      { name: 'News & Politics', name_encoded: 'news-politics', parent: null },
    ]);
    const creator = await testApp.database.pool.query(
      'SELECT c.username, c.display_name FROM items i JOIN creators c ON c.id = i.creator_id WHERE i.id = $1',
      [outcome.itemId],
    );
    expect(creator.rows).toEqual([{ username: 'studio', display_name: 'Studio One' }]);
  });

  it('reuses categories and updates a creator found by username', async () => {
    const outcome = await importMedia(deps, {
      bytes: await makeAnimation(7),
      fileName: 'square-7.gif',
      metadata: metadata({
        categories: ['Reactions/Happy'],
        creator: { username: 'studio', displayName: 'Studio Two', isVerified: true },
      }),
    });
    expect(outcome.status).toBe('imported');
    expect(await count("categories WHERE name_encoded IN ('reactions', 'happy')")).toBe(2);
    const creators = await testApp.database.pool.query(
      'SELECT display_name, is_verified FROM creators',
    );
    expect(creators.rows).toEqual([{ display_name: 'Studio Two', is_verified: true }]);
  });

  it('sniffs the real format: a PNG named .gif is a PNG; text named .gif is refused', async () => {
    const png = await sharp({
      create: { width: 30, height: 20, channels: 3, background: { r: 1, g: 2, b: 3 } },
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
    const row = (
      await testApp.database.pool.query('SELECT original_format, frames FROM items WHERE id = $1', [
        outcome.itemId,
      ])
    ).rows[0];
    expect(row).toEqual({ original_format: 'png', frames: 1 });
    const formats = await testApp.database.pool.query(
      "SELECT format FROM renditions WHERE item_id = $1 AND name = 'original' ORDER BY format",
      [outcome.itemId],
    );
    expect(formats.rows.map((r) => r.format)).toEqual(['gif', 'png', 'webp']);

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

  it('refuses a 40-byte GIF declaring 6727×65351 pixels at once', async () => {
    const bomb = Buffer.alloc(40);
    bomb.write('GIF89a', 0, 'latin1');
    bomb.writeUInt16LE(6727, 6);
    bomb.writeUInt16LE(65351, 8);
    const started = Date.now();
    const outcome = await importMedia(deps, {
      bytes: bomb,
      fileName: 'bomb.gif',
      metadata: metadata(),
    });
    expect(outcome).toEqual({
      status: 'rejected',
      reason: 'it declares 6,727×65,351 pixels per frame, over the limit of 1,048,576',
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('applies the configured limits: frames, duration, bytes, pixels', async () => {
    const tooManyFrames = await importMedia(deps, {
      bytes: await makeAnimation(31, 16),
      fileName: 'long.gif',
      metadata: metadata(),
    });
    expect(tooManyFrames).toEqual({
      status: 'rejected',
      reason: 'it has 31 frames, over the limit of 30',
    });

    const slow = await sharp(await makeAnimation(3, 16), { animated: true })
      .gif({ delay: [3000, 3000, 3000] })
      .toBuffer();
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
      reason: 'the file is 2.0 MB, over the limit of 2.0 MB',
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
    const bytes = await makeAnimation(2, 16);
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
    const first = await importMedia(
      deps,
      {
        bytes: await makeAnimation(4, 20),
        fileName: 'hello.gif',
        metadata: metadata({ title: 'Hello', type: 'text', isDynamic: true, isIndexable: false }),
      },
      { itemId: 'textHello0123' },
    );
    expect(first).toEqual({
      status: 'imported',
      itemId: 'textHello0123',
      slug: 'hello-textHello0123',
    });
    const again = await importMedia(
      deps,
      {
        bytes: await makeAnimation(5, 20),
        fileName: 'hello.gif',
        metadata: metadata({ title: 'Hello', type: 'text' }),
      },
      { itemId: 'textHello0123' },
    );
    expect(again).toEqual({ status: 'duplicate', itemId: 'textHello0123' });
    const bad = await importMedia(
      deps,
      { bytes: await makeAnimation(4, 20), fileName: 'x.gif', metadata: metadata() },
      { itemId: '../x' },
    );
    expect(bad.status).toBe('rejected');
  });

  it('keeps transparency of a sticker in every format', async () => {
    const outcome = await importMedia(deps, {
      bytes: await makeAnimation(3, 40, true),
      fileName: 'sticker.gif',
      metadata: metadata({ title: 'Floating square', type: 'sticker' }),
    });
    expect(outcome.status).toBe('imported');
    if (outcome.status !== 'imported') return;
    const rows = await testApp.database.pool.query(
      "SELECT path FROM renditions WHERE item_id = $1 AND name = 'fixed_width'",
      [outcome.itemId],
    );
    expect(rows.rows).toHaveLength(2);
    for (const row of rows.rows) {
      const stats = await sharp(path.join(testApp.config.mediaDir, row.path)).stats();
      expect(stats.isOpaque, row.path).toBe(false);
    }
  });

  it.skipIf(Boolean(findFfmpeg()))('makes no MP4 when ffmpeg is not installed', async () => {
    const mp4 = await count("renditions WHERE format = 'mp4'");
    expect(mp4).toBe(0);
  });

  it.skipIf(!findFfmpeg())('makes MP4 renditions of GIFs when ffmpeg is installed', async () => {
    const outcome = await importMedia(deps, {
      bytes: await makeAnimation(8, 50),
      fileName: 'video.gif',
      metadata: metadata({ title: 'Video' }),
    });
    expect(outcome.status).toBe('imported');
    const rows = await testApp.database.pool.query(
      "SELECT name, width, height FROM renditions WHERE item_id = $1 AND format = 'mp4' ORDER BY name",
      [(outcome as { itemId: string }).itemId],
    );
    expect(rows.rows.map((row) => row.name)).toEqual(['fixed_height', 'fixed_width', 'original']);
  });

  it('is atomic: a failure after the files are written leaves no item and no files', async () => {
    const before = listMedia(testApp.config.mediaDir);
    const items = await count('items');
    const categories = await count('categories');
    const bytes = await makeAnimation(9, 64);
    await expect(
      importMedia(
        deps,
        { bytes, fileName: 'doomed.gif', metadata: metadata({ categories: ['Doomed'] }) },
        {
          beforeCommit: () => {
            // The files are in place by now; the transaction has written every row.
            expect(listMedia(testApp.config.mediaDir).length).toBeGreaterThan(before.length);
            throw new Error('disk on fire');
          },
        },
      ),
    ).rejects.toThrow('disk on fire');
    expect(await count('items')).toBe(items);
    expect(await count('categories')).toBe(categories);
    expect(listMedia(testApp.config.mediaDir)).toEqual(before);
    // The same file imports cleanly afterwards.
    const retry = await importMedia(deps, { bytes, fileName: 'doomed.gif', metadata: metadata() });
    expect(retry.status).toBe('imported');
  });

  it('skips the same content when imported twice at the same time', async () => {
    const bytes = await makeAnimation(5, 36);
    const outcomes = await Promise.all([
      importMedia(deps, { bytes, fileName: 'a.gif', metadata: metadata() }),
      importMedia(deps, { bytes, fileName: 'b.gif', metadata: metadata() }),
    ]);
    const statuses = outcomes.map((outcome) => outcome.status).sort();
    expect(statuses).toEqual(['duplicate', 'imported']);
    const ids = new Set(outcomes.map((outcome) => (outcome as { itemId: string }).itemId));
    expect(ids.size).toBe(1);
  });

  it('cleans up what a crashed import left: staging folders and unreferenced files', async () => {
    const { mediaDir } = testApp.config;
    const referenced = listMedia(mediaDir);
    expect(referenced.length).toBeGreaterThan(0);
    // A process that has exited: its pid names a staging folder nobody is using.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const crashed = path.join(mediaDir, MEDIA_TEMP_DIR, `${dead}-abc123`);
    fs.mkdirSync(crashed, { recursive: true });
    fs.writeFileSync(path.join(crashed, 'fixed_width.gif'), 'half written');
    // A live process (our parent) may still be importing: its folder stays.
    const live = path.join(mediaDir, MEDIA_TEMP_DIR, `${process.ppid}-def456`);
    fs.mkdirSync(live, { recursive: true });
    const orphan = contentAddressedPath('f'.repeat(64), 'gif');
    fs.mkdirSync(path.dirname(path.join(mediaDir, orphan)), { recursive: true });
    fs.writeFileSync(path.join(mediaDir, orphan), 'moved into place, never committed');
    fs.writeFileSync(path.join(mediaDir, 'README.txt'), 'not ours to delete');

    // While an import holds the files lock, orphans are left for next time.
    const client = await testApp.database.pool.connect();
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock_shared(726518)');
    const busy = await cleanupIncompleteImports(deps);
    await client.query('COMMIT');
    client.release();
    expect(busy).toMatchObject({
      stagingDirsRemoved: 1,
      orphansRemoved: 0,
      isOrphanSweepDone: false,
    });
    expect(fs.existsSync(path.join(mediaDir, orphan))).toBe(true);

    const summary = await cleanupIncompleteImports(deps);
    expect(summary).toEqual({ stagingDirsRemoved: 0, orphansRemoved: 1, isOrphanSweepDone: true });
    expect(fs.existsSync(crashed)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(path.join(mediaDir, orphan))).toBe(false);
    expect(fs.existsSync(path.join(mediaDir, 'README.txt'))).toBe(true);
    for (const file of referenced)
      expect(fs.existsSync(path.join(mediaDir, file)), file).toBe(true);
    fs.rmSync(live, { recursive: true });
  });
});
