import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { importMedia } from './import-media.ts';
import type { ImportOutcome } from './import-media.ts';
import { closeMediaProcessors, MediaProcessor } from './media-processor.ts';

const badDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../../shared/data/bad-gifs',
);
const hasBadGifs = fs.existsSync(path.join(badDir, 'manifest.json'));

describe.skipIf(!hasBadGifs)('importing ../shared/data/bad-gifs', () => {
  let testApp: TestApp;
  const files = hasBadGifs
    ? fs
        .readdirSync(badDir)
        .filter((name) => name.endsWith('.gif'))
        .sort()
    : [];
  const outcomes = new Map<string, { outcome: ImportOutcome; ms: number }>();

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await closeMediaProcessors();
    await testApp?.close();
  });

  it('has the files the README describes', () => {
    expect(files.length).toBeGreaterThanOrEqual(11);
  });

  it.each(files)(
    '%s is rejected with a clear reason or imported safely, within 10 s',
    async (file) => {
      const started = Date.now();
      const outcome = await importMedia(
        { config: testApp.config, database: testApp.database },
        {
          bytes: fs.readFileSync(path.join(badDir, file)),
          fileName: file,
          metadata: { title: file, tags: ['bad'], type: 'gif' },
        },
      );
      const ms = Date.now() - started;
      outcomes.set(file, { outcome, ms });
      expect(ms).toBeLessThan(10_000);
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toMatch(/^[a-z].{10,300}$/s);
        expect(outcome.reason).not.toMatch(/\n\s+at |Error:|undefined|\[object/);
      } else {
        expect(outcome.status).toBe('imported');
        if (outcome.status !== 'imported') return;
        // Imported means every rendition exists and is a readable image of the recorded size.
        const rows = await testApp.database.pool.query(
          'SELECT name, format, width, height, path FROM renditions WHERE item_id = $1',
          [outcome.itemId],
        );
        expect(rows.rows.length).toBeGreaterThanOrEqual(17);
        for (const row of rows.rows) {
          const metadata = await sharp(path.join(testApp.config.mediaDir, row.path), {
            animated: true,
          }).metadata();
          expect(metadata.width).toBe(row.width);
          expect(metadata.pageHeight ?? metadata.height).toBe(row.height);
        }
      }
    },
  );

  it('refuses the files with impossible dimensions or no frames', () => {
    const rejected = (file: string) => outcomes.get(file)?.outcome.status === 'rejected';
    for (const file of ['zero-frames.gif', 'zero-width-screen.gif', 'crash-small-code-size.gif']) {
      expect(rejected(file), file).toBe(true);
    }
    console.log(
      [...outcomes]
        .map(([file, { outcome, ms }]) => {
          const result =
            outcome.status === 'rejected' ? `rejected: ${outcome.reason}` : outcome.status;
          return `${file.padEnd(36)} ${String(ms).padStart(5)} ms  ${result}`;
        })
        .join('\n'),
    );
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
        { config: testApp.config, database: testApp.database },
        {
          // One byte after the trailer: the same animation, not a duplicate of the one above.
          bytes: Buffer.concat([
            fs.readFileSync(path.join(badDir, 'broken-color-table-earth.gif')),
            Buffer.from([0]),
          ]),
          fileName: 'slow.gif',
          metadata: { title: 'Slow', tags: [], type: 'gif' },
        },
        { processor },
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

describe.skipIf(hasBadGifs)('importing ../shared/data/bad-gifs', () => {
  it('is skipped: ../shared/data/bad-gifs is absent', () => {});
});
