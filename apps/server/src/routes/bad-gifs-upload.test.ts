import fs from 'node:fs';
import type { CreateUploadsResponse } from '@sticky/contracts';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  buildMultipart,
  makeAnimation,
  postUploads,
  sameSiteHeaders,
  waitForUploads,
} from '../test-support/uploads.ts';
import { listWriteRoutes } from '../test-support/envelopes.ts';
import { listFilesUnder } from '../test-support/files.ts';
import { describeWithSharedData, sharedPath } from '../test-support/shared-data.ts';
import { sniffImageType } from '../test-support/sniff-image.ts';

const badGifsDir = sharedPath('data/bad-gifs');

/**
 * The hostile GIFs from decoder test suites, sent to every HTTP write route as an upload
 * would send them. Only `POST /api/uploads` takes files (below, with the job queue): every
 * other route must refuse each before it is read, and nothing may land in the catalog or the
 * media folder.
 */
describeWithSharedData('bad GIFs sent to every HTTP write route', ['data/bad-gifs'], () => {
  let testApp: TestApp;
  let cookie: string;
  let files: string[] = [];

  beforeAll(async () => {
    files = fs.readdirSync(badGifsDir).filter((name) => name.endsWith('.gif'));
    testApp = await createTestApp({ PUBLIC_URL: 'https://sticky.example' });
    cookie = (await signInAs(testApp)).cookie;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('has the files to send', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it('refuses each as an image body or a multipart upload, storing nothing', async () => {
    const writeRoutes = listWriteRoutes(testApp.app).filter(
      (route) => route.url !== '/api/uploads',
    );
    expect(writeRoutes.length).toBeGreaterThan(0);
    for (const name of files) {
      const bytes = fs.readFileSync(path.join(badGifsDir, name));
      const multipart = buildMultipart([{ name, bytes }]);
      for (const route of writeRoutes) {
        const url = route.url.replace(/:[a-z]+/g, 'abc123');
        for (const [contentType, payload] of [
          ['image/gif', bytes],
          [multipart.contentType, multipart.body],
          ['application/octet-stream', bytes],
        ] as const) {
          const response = await testApp.app.inject({
            method: route.method as 'POST',
            url,
            headers: {
              cookie,
              origin: 'https://sticky.example',
              'sec-fetch-site': 'same-origin',
              'content-type': contentType,
            },
            payload,
          });
          const what = `${name} as ${contentType} to ${route.method} ${route.url}`;
          expect(response.statusCode, what).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, what).toBeLessThan(500);
          expect(response.json().error.message, what).not.toBe('');
        }
      }
    }
    const items = await testApp.database.pool.query('SELECT count(*)::int AS n FROM items');
    expect(items.rows[0].n).toBe(0);
    expect(listFilesUnder(testApp.config.mediaDir)).toEqual([]);
  });
});

/**
 * What a person sees become of each file of ../shared/data/bad-gifs (its README and
 * manifest.json say what is wrong with each): refused with a reason that names its damage, or
 * made into an item from what can be decoded, at a bounded size (docs/uploads.md,
 * "Processing"). catalog/import/bad-media.test.ts pins the same decisions at the import.
 */
const expectedOutcomes: Record<
  string,
  { reason: string } | { width: number; height: number; frames: number; type: 'gif' | 'sticker' }
> = {
  // Frames past the 100x100 screen widen the canvas, as Chromium shows them.
  'animated-frames-out-of-bounds.gif': { width: 300, height: 100, frames: 4, type: 'sticker' },
  // Its colour table is broken, yet all 44 frames are kept.
  'broken-color-table-earth.gif': { width: 400, height: 400, frames: 44, type: 'gif' },
  'crash-small-code-size.gif': {
    reason:
      'crash-small-code-size.gif: it declares 11,390×12,595 pixels per frame, over the limit of 16,777,216.',
  },
  // The frame placed at 65535,65535 widens nothing: 100x100, never 4.3 billion pixels.
  'decompression-bomb-extents.gif': { width: 100, height: 100, frames: 2, type: 'gif' },
  'frames-out-of-bounds.gif': { width: 4, height: 2, frames: 4, type: 'gif' },
  // Its four pixels come before the bad code.
  'invalid-lzw-code.gif': { width: 2, height: 2, frames: 1, type: 'gif' },
  'missing-palette.gif': { width: 1, height: 1, frames: 2, type: 'gif' },
  'no-pixel-data.gif': {
    reason:
      'no-pixel-data.gif: the file is damaged: its image data could not be read (gifload_buffer: Invalid frame data).',
  },
  'zero-frames.gif': { reason: 'zero-frames.gif: the GIF has no frames.' },
  // The 0x0 frame draws nothing: the item is its 2x2 screen.
  'zero-size-frame.gif': { width: 2, height: 2, frames: 1, type: 'gif' },
  'zero-width-screen.gif': { reason: 'zero-width-screen.gif: it declares an empty 0×32 picture.' },
};

describeWithSharedData('bad GIFs uploaded through POST /api/uploads', ['data/bad-gifs'], () => {
  const apiKey = 'bad-gifs-upload-key-0123456789abcdefg';
  let testApp: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp({ STICKY_API_KEYS: apiKey }, { hasJobs: true });
    auth = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('gives every file its own outcome, and loses nothing else of the request', async () => {
    const names = fs.readdirSync(badGifsDir).filter((name) => name.endsWith('.gif'));
    expect(names.sort()).toEqual(Object.keys(expectedOutcomes).sort());
    const good = await makeAnimation({ format: 'gif' });
    const response = await postUploads(testApp, auth, [
      ...names.map((name) => ({ name, bytes: fs.readFileSync(path.join(badGifsDir, name)) })),
      { name: 'good.gif', bytes: good },
    ]);
    expect(response.statusCode).toBe(202);
    const receipts = (response.json() as CreateUploadsResponse).uploads;
    // Each starts with a GIF header, so each is taken: the decoder decides.
    expect(receipts.map((receipt) => [receipt.fileName, receipt.state])).toEqual(
      [...names, 'good.gif'].map((name) => [name, 'processing']),
    );

    const uploads = await waitForUploads(testApp, auth);
    const byName = new Map(uploads.map((upload) => [upload.fileName, upload]));
    const outcomes: Record<string, unknown> = {};
    for (const name of names) {
      const upload = byName.get(name)!;
      if (upload.state === 'failed') {
        outcomes[name] = { reason: upload.reason };
        continue;
      }
      expect(upload.state, name).toBe('ready');
      const answer = await testApp.app.inject({
        url: `/v1/gifs/${upload.itemId}?api_key=${apiKey}`,
      });
      expect(answer.statusCode, name).toBe(200);
      const item = (
        answer.json() as {
          data: { type: string; images: Record<string, { url: string } & Record<string, string>> };
        }
      ).data;
      const { original, fixed_width: tile } = item.images;
      outcomes[name] = {
        width: Number(original!.width),
        height: Number(original!.height),
        frames: Number(original!.frames),
        type: item.type,
      };
      // What the grid shows is there to fetch.
      const media = await testApp.app.inject({ url: new URL(tile!.url).pathname });
      expect(media.statusCode, name).toBe(200);
      expect(sniffImageType(media.rawPayload), name).toMatch(/^image\/(gif|webp)$/);
    }
    expect(outcomes).toEqual(expectedOutcomes);

    // Each kind of damage is told in its own words.
    const reasons = names
      .map((name) => byName.get(name)!.reason)
      .filter((reason): reason is string => reason !== null)
      .map((reason) => reason.slice(reason.indexOf(':') + 1));
    expect(reasons).toHaveLength(4);
    expect(new Set(reasons).size).toBe(reasons.length);

    expect(byName.get('good.gif')!.state).toBe('ready');
    expect(await countStaged(testApp)).toBe(0);
  });
});

async function countStaged(testApp: TestApp): Promise<number> {
  return (await testApp.database.pool.query('SELECT count(*)::int AS n FROM upload_files')).rows[0]
    .n as number;
}
