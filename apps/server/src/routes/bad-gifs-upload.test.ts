import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { listWriteRoutes } from '../test-support/envelopes.ts';
import { listFilesUnder } from '../test-support/files.ts';
import { describeWithSharedData, sharedPath } from '../test-support/shared-data.ts';

const badGifsDir = sharedPath('data/bad-gifs');

/**
 * The hostile GIFs from decoder test suites, sent to every HTTP write route as an upload
 * would send them. Sticky takes media in through the import CLI only (its own tests run
 * these files through it); over HTTP each must be refused before it is read, and nothing may
 * land in the catalog or the media folder.
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
    const writeRoutes = listWriteRoutes(testApp.app);
    expect(writeRoutes.length).toBeGreaterThan(0);
    for (const name of files) {
      const bytes = fs.readFileSync(path.join(badGifsDir, name));
      const boundary = 'stickyboundary';
      const multipart = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/gif\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      for (const route of writeRoutes) {
        const url = route.url.replace(/:[a-z]+/g, 'abc123');
        for (const [contentType, payload] of [
          ['image/gif', bytes],
          [`multipart/form-data; boundary=${boundary}`, multipart],
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
