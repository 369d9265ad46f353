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

describeWithSharedData('bad GIFs uploaded through POST /api/uploads', ['data/bad-gifs'], () => {
  let testApp: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp({}, { hasJobs: true });
    auth = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('gives every file its own outcome, and loses nothing else of the request', async () => {
    const names = fs.readdirSync(badGifsDir).filter((name) => name.endsWith('.gif'));
    const good = await makeAnimation({ format: 'gif' });
    const response = await postUploads(testApp, auth, [
      ...names.map((name) => ({ name, bytes: fs.readFileSync(path.join(badGifsDir, name)) })),
      { name: 'good.gif', bytes: good },
    ]);
    expect(response.statusCode).toBe(202);
    const receipts = (response.json() as CreateUploadsResponse).uploads;
    expect(receipts.map((receipt) => receipt.fileName)).toEqual([...names, 'good.gif']);

    const uploads = await waitForUploads(testApp, auth);
    const outcomes = new Map(uploads.map((upload) => [upload.fileName, upload]));
    for (const name of names) {
      const receipt = receipts.find((entry) => entry.fileName === name)!;
      const outcome = receipt.state === 'failed' ? receipt : outcomes.get(name)!;
      expect(['ready', 'failed'], name).toContain(outcome.state);
      if (outcome.state === 'failed') expect(outcome.reason, name).toMatch(new RegExp(`^${name}`));
      else expect(outcome.itemId, name).toEqual(expect.any(String));
    }
    // The decoders' own suites' files: some are refused, the rest are shown as Chromium would.
    const refused = names.filter((name) => outcomes.get(name)?.state === 'failed');
    expect(refused.sort()).toEqual([
      'crash-small-code-size.gif',
      'no-pixel-data.gif',
      'zero-frames.gif',
      'zero-width-screen.gif',
    ]);
    expect(outcomes.get('zero-frames.gif')!.reason).toBe('zero-frames.gif: the GIF has no frames.');
    expect(outcomes.get('good.gif')!.state).toBe('ready');
    expect(await countStaged(testApp)).toBe(0);
  });
});

async function countStaged(testApp: TestApp): Promise<number> {
  return (await testApp.database.pool.query('SELECT count(*)::int AS n FROM upload_files')).rows[0]
    .n as number;
}
