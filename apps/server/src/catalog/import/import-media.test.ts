import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { summarizeMp4 } from '../../test-support/media.ts';
import { describeWithSharedData, sharedPath } from '../../test-support/shared-data.ts';
import { createJobQueue } from '../../jobs/job-queue.ts';
import { stripMetadata } from './strip-metadata.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { encodeCategoryName } from '../category-names.ts';
import { isContentAddressedPath } from '../../storage/media-paths.ts';
import { playedDelayMs } from './encode-video.ts';
import { collectImportSources, importSources } from './import-folder.ts';
import type { ImportResult } from './import-folder.ts';
import { importMedia } from './import-media.ts';
import { makeLaterRenditions } from './later-renditions.ts';
import { planRenditions } from './rendition-plan.ts';

const gifsDir = sharedPath('data', 'gifs');

interface ManifestItem {
  file: string;
  title: string;
  tags: string[];
  type: 'gif' | 'sticker';
  category: string;
  format: 'gif' | 'webp';
  width: number;
  height: number;
  frames: number;
  duration_ms: number;
  loop: number | null;
  transparent_first_frame_fraction: number;
  bytes: number;
  sha256: string;
  license: string;
  attribution: string;
}

interface ItemRow {
  id: string;
  type: string;
  slug: string;
  title: string;
  tags: string[];
  alt_text: string;
  rating: string;
  rating_rank: number;
  source_url: string;
  width: number;
  height: number;
  frames: number;
  duration_ms: number;
  bytes: string;
  sha256: string;
  original_format: string;
  license: string;
  attribution: string;
}

interface RenditionRow {
  item_id: string;
  name: string;
  format: string;
  width: number;
  height: number;
  frames: number;
  bytes: string;
  path: string;
}

describeWithSharedData('importing ../shared/data/gifs', ['data/gifs/manifest.json'], () => {
  let testApp: TestApp;
  let jobs: JobQueue;
  let manifest: ManifestItem[];
  let results: ImportResult[];
  const items = new Map<string, ItemRow>();
  /** Each file as stored: cleaned of metadata (strip-metadata.ts), by the manifest's hash. */
  const cleaned = new Map<string, { sha256: string; bytes: number }>();
  const renditionsOf = new Map<string, RenditionRow[]>();

  const loadRows = async () => {
    const itemRows = await testApp.database.pool.query<ItemRow>('SELECT * FROM items');
    for (const row of itemRows.rows) items.set(row.sha256, row);
    renditionsOf.clear();
    const renditionRows = await testApp.database.pool.query<RenditionRow>(
      'SELECT * FROM renditions',
    );
    for (const row of renditionRows.rows) {
      renditionsOf.set(row.item_id, [...(renditionsOf.get(row.item_id) ?? []), row]);
    }
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    jobs = createJobQueue({ database: testApp.database });
    await jobs.start();
    manifest = (
      JSON.parse(fs.readFileSync(path.join(gifsDir, 'manifest.json'), 'utf8')) as {
        items: ManifestItem[];
      }
    ).items;
    for (const entry of manifest) {
      const outcome = stripMetadata(fs.readFileSync(path.join(gifsDir, entry.file)));
      if (!outcome.ok) throw new Error(`${entry.file}: ${outcome.reason}`);
      const { bytes } = outcome;
      cleaned.set(entry.sha256, {
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
      });
    }
    const { sources } = await collectImportSources([gifsDir]);
    // As the CLI does: every item stored once its tiles exist, the rest queued as jobs.
    results = await importSources(
      { config: testApp.config, database: testApp.database, media: testApp.media, jobs },
      sources,
    );
    await loadRows();
  }, 1_200_000);
  afterAll(async () => {
    await jobs?.stop();
    await testApp?.close();
  });

  const storedOf = (entry: ManifestItem) => cleaned.get(entry.sha256)!;
  const itemOf = (entry: ManifestItem) => items.get(storedOf(entry).sha256)!;
  const rendition = (entry: ManifestItem, name: string, format: string) =>
    renditionsOf.get(itemOf(entry).id)!.find((row) => row.name === name && row.format === format)!;
  const fileOf = (row: RenditionRow) => path.join(testApp.config.mediaDir, row.path);
  const kindOf = (entry: ManifestItem) => ({
    sourceFormat: entry.format,
    isAnimated: entry.frames > 1,
    isTransparent: entry.type !== 'gif',
  });
  const namesOf = (entry: ManifestItem) =>
    renditionsOf
      .get(itemOf(entry).id)!
      .map((row) => `${row.name}.${row.format}`)
      .sort();

  it('imports every file', () => {
    const failed = results.filter((result) => result.outcome.status !== 'imported');
    expect(failed).toEqual([]);
    expect(results).toHaveLength(manifest.length);
    expect(items.size).toBe(manifest.length);
  });

  it('stores each item with its manifest metadata and real measurements', () => {
    for (const entry of manifest) {
      const item = itemOf(entry);
      expect(item, entry.file).toBeDefined();
      expect(item.id).toMatch(/^[0-9A-Za-z]{18}$/);
      expect(item.slug).toMatch(new RegExp(`^[a-z0-9-]*-?${item.id}$`));
      expect(item.slug.startsWith(entry.title.toLowerCase().split(/[^a-z0-9]+/)[0] ?? '')).toBe(
        true,
      );
      expect(item.title).toBe(entry.title);
      expect(item.type).toBe(entry.type);
      expect(item.tags).toEqual([...new Set(entry.tags.map((tag) => tag.toLowerCase()))]);
      expect(item.rating).toBe('g');
      expect(item.rating_rank).toBe(0);
      expect(item.alt_text).toContain(entry.title);
      expect(item.source_url).toMatch(/^https:\/\//);
      expect(item.license).toBe(entry.license);
      expect(item.attribution).toBe(entry.attribution);
      expect(item.original_format).toBe(entry.format);
      expect(Number(item.bytes)).toBe(storedOf(entry).bytes);
      expect(storedOf(entry).bytes).toBeLessThanOrEqual(entry.bytes);
      expect([item.width, item.height, item.frames], entry.file).toEqual([
        entry.width,
        entry.height,
        entry.frames,
      ]);
      // WebP stores delays in ms, GIF in hundredths: allow that much rounding per frame.
      expect(Math.abs(item.duration_ms - entry.duration_ms), entry.file).toBeLessThanOrEqual(
        entry.frames * 10,
      );
    }
  });

  it('files each item under its manifest category', async () => {
    const linked = await testApp.database.pool.query<{ sha256: string; name_encoded: string }>(
      `SELECT i.sha256, c.name_encoded FROM item_categories ic
         JOIN items i ON i.id = ic.item_id JOIN categories c ON c.id = ic.category_id`,
    );
    const categoryOf = new Map(linked.rows.map((row) => [row.sha256, row.name_encoded]));
    for (const entry of manifest) {
      expect(categoryOf.get(storedOf(entry).sha256), entry.file).toBe(
        encodeCategoryName(entry.category),
      );
    }
  });

  it('makes what the grid and the item page show before the item appears, at the right sizes', () => {
    for (const entry of manifest) {
      const ready = planRenditions(kindOf(entry))
        .filter((planned) => planned.tier === 'ready')
        .map((planned) => `${planned.name}.${planned.format}`)
        .sort();
      expect(namesOf(entry), entry.file).toEqual(ready);
      const fixedWidth = Math.min(200, entry.width);
      // The grid's tile; fixed_height (rows of equal height) is made later (rendition-plan.ts).
      const sizes = {
        fixed_width: {
          width: fixedWidth,
          height: Math.round((entry.height * fixedWidth) / entry.width),
        },
      };
      expect(rendition(entry, 'original', entry.format)).toMatchObject({
        width: entry.width,
        height: entry.height,
      });
      for (const [name, size] of Object.entries(sizes)) {
        const label = `${entry.file} ${name}`;
        expect(rendition(entry, name, 'webp'), label).toMatchObject(size);
        expect(rendition(entry, `${name}_still`, 'gif'), label).toMatchObject(size);
        if (entry.type === 'gif') {
          // H.264's 4:2:0 needs even sides.
          expect(rendition(entry, name, 'mp4'), label).toMatchObject({
            width: size.width - (size.width % 2),
            height: size.height - (size.height % 2),
          });
        }
      }
    }
  });

  it('stores each rendition once, content-addressed, exactly as its row describes', async () => {
    for (const rows of renditionsOf.values()) {
      for (const row of rows) {
        expect(isContentAddressedPath(row.path), row.path).toBe(true);
        const bytes = fs.readFileSync(fileOf(row));
        expect(bytes.length).toBe(Number(row.bytes));
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        expect(path.basename(row.path)).toBe(
          `${sha256}.${row.format === 'jpeg' ? 'jpg' : row.format}`,
        );
        if (row.format === 'mp4') {
          const summary = summarizeMp4(bytes);
          expect(summary.topLevel.indexOf('moov'), row.path).toBeLessThan(
            summary.topLevel.indexOf('mdat'),
          );
          expect(summary.samples, row.path).toBe(row.frames);
          continue;
        }
        const metadata = await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
        expect(metadata.format, row.path).toBe(row.format);
        expect(metadata.width, row.path).toBe(row.width);
        expect(metadata.pageHeight ?? metadata.height, row.path).toBe(row.height);
        expect(metadata.pages ?? 1, row.path).toBe(row.frames);
      }
    }
    const staging = path.join(testApp.config.mediaDir, '.incoming');
    expect(fs.existsSync(staging) ? fs.readdirSync(staging) : []).toEqual([]);
  });

  it('keeps the animation: frames, timing and looping', async () => {
    for (const entry of manifest) {
      const item = itemOf(entry);
      expect(rendition(entry, 'original', entry.format).frames).toBe(entry.frames);
      for (const name of ['fixed_width']) {
        const row = rendition(entry, name, 'webp');
        const label = `${entry.file} ${name}.webp`;
        // Identical consecutive frames are merged (their delays added up): never more frames.
        expect(row.frames, label).toBeGreaterThan(1);
        expect(row.frames, label).toBeLessThanOrEqual(entry.frames);
        const metadata = await sharp(fileOf(row), { animated: true }).metadata();
        const duration = (metadata.delay ?? []).reduce((sum, delay) => sum + delay, 0);
        expect(Math.abs(duration - item.duration_ms), label).toBeLessThanOrEqual(entry.frames * 10);
        // sharp counts plays (0 = forever); the manifest counts GIF repeats.
        const plays = entry.loop === null ? 1 : entry.loop === 0 ? 0 : entry.loop + 1;
        if (entry.format === 'gif') expect(metadata.loop, label).toBe(plays);
        if (entry.type === 'gif') {
          // The video plays as long as the animation (each frame's time, as browsers play it).
          const mp4 = summarizeMp4(fs.readFileSync(fileOf(rendition(entry, name, 'mp4'))));
          const delays = metadata.delay ?? [];
          const played = delays.reduce((sum, delay) => sum + playedDelayMs(delay), 0);
          expect(Math.abs(mp4.durationMs - played), `${label} mp4`).toBeLessThanOrEqual(20);
        }
      }
      for (const name of ['original_still', 'fixed_width_still']) {
        expect(rendition(entry, name, 'gif').frames).toBe(1);
      }
    }
  });

  it('keeps transparency for stickers', async () => {
    const stickers = manifest.filter(
      (entry) => entry.type === 'sticker' && entry.transparent_first_frame_fraction > 0.1,
    );
    expect(stickers.length).toBeGreaterThan(50);
    for (const entry of stickers) {
      for (const format of ['webp', 'gif']) {
        const row = rendition(
          entry,
          format === 'webp' ? 'fixed_width' : 'fixed_width_still',
          format,
        );
        const { data, info } = await sharp(fileOf(row), { pages: 1 })
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        let transparent = 0;
        for (let index = 3; index < data.length; index += info.channels) {
          if (data[index] === 0) transparent += 1;
        }
        const fraction = transparent / (info.width * info.height);
        expect(fraction, `${entry.file} ${format}`).toBeGreaterThan(
          entry.transparent_first_frame_fraction * 0.8,
        );
      }
    }
  });

  it('makes every other rendition by job: a screen recording, a GIF sticker, a WebP sticker', async () => {
    const picks = [
      'vhs-bubbletea-spinner.gif',
      'noto-grinning-face-1f600.gif',
      'fluent-alien-1f47d.webp',
    ];
    for (const file of picks) {
      const entry = manifest.find((candidate) => candidate.file === file)!;
      const outcome = await makeLaterRenditions(
        { config: testApp.config, database: testApp.database, media: testApp.media },
        itemOf(entry).id,
      );
      expect(outcome, file).toMatchObject({ status: 'made' });
    }
    await loadRows();
    for (const file of picks) {
      const entry = manifest.find((candidate) => candidate.file === file)!;
      const all = planRenditions(kindOf(entry))
        .map((planned) => `${planned.name}.${planned.format}`)
        .sort();
      expect(namesOf(entry), file).toEqual(all);
      expect(Number(rendition(entry, 'downsized', 'gif').bytes)).toBeLessThan(2 * 1024 * 1024);
      const preview = rendition(entry, 'preview_gif', 'gif');
      expect(Math.max(preview.width, preview.height)).toBeLessThanOrEqual(150);
      const small = rendition(entry, 'downsized_small', entry.type === 'gif' ? 'mp4' : 'webm');
      expect(Number(small.bytes), file).toBeLessThan(200 * 1024);
    }
  }, 300_000);

  it('skips a file whose content is already in the catalog', async () => {
    const entry = manifest[0]!;
    const bytes = fs.readFileSync(path.join(gifsDir, entry.file));
    const outcome = await importMedia(
      { config: testApp.config, database: testApp.database, media: testApp.media },
      { bytes, fileName: 'renamed-copy.gif', metadata: { title: 'Copy', tags: [], type: 'gif' } },
    );
    expect(outcome).toEqual({ status: 'duplicate', itemId: itemOf(entry).id });
    const count = await testApp.database.pool.query('SELECT count(*)::int AS n FROM items');
    expect(count.rows[0].n).toBe(manifest.length);
  });
});
