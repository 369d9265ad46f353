import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { decodeVideoFrames, summarizeMp4 } from '../../test-support/media.ts';
import { describeWithSharedData, sharedPath } from '../../test-support/shared-data.ts';
import { resolveFfmpegPath } from './encode-video.ts';
import { importMedia } from './import-media.ts';
import { MediaProcessor } from './media-processor.ts';
import { planRenditions } from './rendition-plan.ts';

const badDir = sharedPath('data', 'bad-gifs');

/**
 * What each file of ../shared/data/bad-gifs must do (its manifest.json says what is wrong with
 * it): refused with this reason, or imported with every rendition, made safely from what a
 * tolerant decoder (libvips, like Chromium) can show of it.
 */
const expected: Record<
  string,
  { rejected: string } | { imported: { width: number; height: number; frames: number } }
> = {
  'zero-frames.gif': { rejected: 'the GIF has no frames' },
  'zero-width-screen.gif': { rejected: 'it declares an empty 0×32 picture' },
  'crash-small-code-size.gif': {
    rejected: 'it declares 11,390×12,595 pixels per frame, over the limit of 16,777,216',
  },
  'no-pixel-data.gif': {
    rejected:
      'the file is damaged: its image data could not be read (gifload_buffer: Invalid frame data)',
  },
  // Frames outside the screen widen the canvas, as Chromium shows them; never 65535² pixels.
  'animated-frames-out-of-bounds.gif': { imported: { width: 300, height: 100, frames: 4 } },
  'frames-out-of-bounds.gif': { imported: { width: 4, height: 2, frames: 4 } },
  'decompression-bomb-extents.gif': { imported: { width: 100, height: 100, frames: 2 } },
  'broken-color-table-earth.gif': { imported: { width: 400, height: 400, frames: 44 } },
  'invalid-lzw-code.gif': { imported: { width: 2, height: 2, frames: 1 } },
  'missing-palette.gif': { imported: { width: 1, height: 1, frames: 2 } },
  'zero-size-frame.gif': { imported: { width: 2, height: 2, frames: 1 } },
};

/** A GIF whose logical screen names another background colour: different bytes, same frames. */
function withOtherBackground(gif: Buffer): Buffer {
  const copy = Buffer.from(gif);
  copy[11] = (copy[11]! + 1) % 256;
  return copy;
}

describeWithSharedData('importing ../shared/data/bad-gifs', ['data/bad-gifs/manifest.json'], () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // The server's own limits (the defaults), with ffmpeg making every video rendition.
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('knows what each file of the manifest must do', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(badDir, 'manifest.json'), 'utf8')) as {
      items: Array<{ file: string }>;
    };
    expect(manifest.items.map((item) => item.file).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s', async (file, outcome) => {
    const result = await importMedia(
      { config: testApp.config, database: testApp.database, media: testApp.media },
      {
        bytes: fs.readFileSync(path.join(badDir, file)),
        fileName: file,
        metadata: { title: file, tags: ['bad'], type: 'gif' },
      },
    );
    if ('rejected' in outcome) {
      expect(result).toEqual({ status: 'rejected', reason: outcome.rejected });
      return;
    }
    expect(result.status).toBe('imported');
    if (result.status !== 'imported') return;
    const [item] = (
      await testApp.database.pool.query('SELECT width, height, frames FROM items WHERE id = $1', [
        result.itemId,
      ])
    ).rows;
    expect(item).toEqual(outcome.imported);
    // Every planned rendition, each a readable file of the size its row says.
    const rows = (
      await testApp.database.pool.query<{
        name: string;
        format: string;
        width: number;
        height: number;
        path: string;
      }>('SELECT name, format, width, height, path FROM renditions WHERE item_id = $1', [
        result.itemId,
      ])
    ).rows;
    const planned = planRenditions({
      sourceFormat: 'gif',
      isAnimated: outcome.imported.frames > 1,
      isTransparent: false,
    });
    expect(rows.map((row) => `${row.name}.${row.format}`).sort()).toEqual(
      planned.map((entry) => `${entry.name}.${entry.format}`).sort(),
    );
    for (const row of rows) {
      const data = fs.readFileSync(path.join(testApp.config.mediaDir, row.path));
      const label = `${row.name}.${row.format}`;
      if (row.format === 'mp4') {
        const summary = summarizeMp4(data);
        expect(summary.tracks, label).toEqual(['vide']);
        expect(summary.samples, label).toBeGreaterThan(0);
        continue;
      }
      if (row.format === 'webm') {
        const file = path.join(testApp.config.mediaDir, row.path);
        expect(decodeVideoFrames(resolveFfmpegPath()!, file, row).length, label).toBeGreaterThan(0);
        continue;
      }
      const metadata = await sharp(data, { animated: true }).metadata();
      expect(metadata.width, label).toBe(row.width);
      expect(metadata.pageHeight ?? metadata.height, label).toBe(row.height);
    }
  });

  it('stops a decoder that runs past its CPU budget and rejects the file', async () => {
    // A budget too small for any real work stands in for a decoder stuck in a loop.
    const processor = new MediaProcessor({
      workers: 1,
      baseCpuMs: 1,
      wallFactor: 1,
      cpuAllowance: () => 0,
    });
    try {
      const outcome = await importMedia(
        {
          config: testApp.config,
          database: testApp.database,
          media: { store: testApp.media.store, processor },
        },
        {
          // Another background colour index: the same animation, not a duplicate of the one
          // above (bytes after the trailer would be cleaned away, strip-metadata.ts).
          bytes: withOtherBackground(
            fs.readFileSync(path.join(badDir, 'broken-color-table-earth.gif')),
          ),
          fileName: 'slow.gif',
          metadata: { title: 'Slow', tags: [], type: 'gif' },
        },
      );
      expect(outcome.status).toBe('rejected');
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toMatch(/took (more|longer) than/);
      }
    } finally {
      await processor.close();
    }
  });
});
