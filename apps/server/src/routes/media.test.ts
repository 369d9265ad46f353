import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentAddressedPath } from '../storage/media-paths.ts';
import type { MediaFormat } from '../storage/media-paths.ts';
import { createTestApp, readChangedVersions } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { startTestS3 } from '../test-support/s3.ts';
import type { TestS3 } from '../test-support/s3.ts';
import { MEDIA_MISSES_PER_MINUTE } from './media.ts';

describe('/media', () => {
  let testApp: TestApp;
  const stored: Partial<Record<MediaFormat, { url: string; bytes: Buffer }>> = {};

  const store = (format: MediaFormat, bytes: Buffer) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const relative = contentAddressedPath(sha256, format);
    const file = path.join(testApp.config.mediaDir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    stored[format] = { url: `/media/${relative}`, bytes };
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    const image = sharp({
      create: {
        width: 40,
        height: 30,
        channels: 4,
        background: { r: 200, g: 40, b: 90, alpha: 1 },
      },
    });
    store('gif', await image.clone().gif().toBuffer());
    store('webp', await image.clone().webp().toBuffer());
    store('png', await image.clone().png().toBuffer());
    store('jpeg', await image.clone().jpeg().toBuffer());
    // Not a real video: the route trusts our own names, and must not sniff.
    store('mp4', Buffer.from('not really a video, but named like one'));
    fs.writeFileSync(path.join(testApp.dataDir, 'secret.txt'), 'outside the media folder');
    fs.mkdirSync(path.join(testApp.config.mediaDir, '.incoming', '1-x'), { recursive: true });
    fs.writeFileSync(path.join(testApp.config.mediaDir, '.incoming', '1-x', 'a.gif'), 'staged');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it.each([
    ['gif', 'image/gif'],
    ['webp', 'image/webp'],
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['mp4', 'video/mp4'],
  ] as const)(
    'serves a %s file publicly with its type and immutable caching',
    async (format, type) => {
      const { url, bytes } = stored[format]!;
      const response = await testApp.app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(type);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(response.headers.etag).toBeTruthy();
      expect(response.rawPayload.equals(bytes)).toBe(true);
    },
  );

  it('answers a conditional request with 304 and HEAD without a body', async () => {
    const { url } = stored.gif!;
    const first = await testApp.app.inject(url);
    const again = await testApp.app.inject({
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const head = await testApp.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(stored.gif!.bytes.length));
  });

  it('serves byte ranges with 206', async () => {
    const { url, bytes } = stored.webp!;
    const response = await testApp.app.inject({ url, headers: { range: 'bytes=4-11' } });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 4-11/${bytes.length}`);
    expect(response.rawPayload.equals(bytes.subarray(4, 12))).toBe(true);
    const unsatisfiable = await testApp.app.inject({
      url,
      headers: { range: `bytes=${bytes.length + 10}-` },
    });
    expect(unsatisfiable.statusCode).toBe(416);
    expect(unsatisfiable.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  it('never serves anything but our own file names', async () => {
    const gif = stored.gif!.url;
    const name = gif.split('/').pop()!;
    const attempts = [
      '/media/../secret.txt',
      '/media/..%2fsecret.txt',
      '/media/%2e%2e/secret.txt',
      '/media/%2e%2e%2fsecret.txt',
      `/media/${gif.slice(7, 9)}%2F${gif.slice(10, 12)}%2F${name}`,
      `/media/${gif.slice(7, 9)}/${gif.slice(10, 12)}/..%2f..%2f${gif.slice(7)}`,
      `/media/${gif.slice(7).toUpperCase()}`,
      '/media/.incoming/1-x/a.gif',
      '/media/.incoming/',
      '/media/',
      '/media/ab/cd/',
      `/media/${gif.slice(7)}/`,
      `/media/${gif.slice(7)}.gif`,
      `/media/${gif.slice(7).replace('.gif', '.txt')}`,
      `/media/${'ab/'.repeat(2000)}x.gif`,
      `/media/ab/cd/${'0'.repeat(64)}.gif`,
      '/media/%00',
      '/media/ab/cd/%c0%ae%c0%ae/secret.txt',
    ];
    for (const url of attempts) {
      const response = await testApp.app.inject(url);
      expect([400, 404], url).toContain(response.statusCode);
      expect(response.body, url).not.toContain('outside the media folder');
      expect(response.body, url).not.toContain('staged');
    }
  });

  it('is public: no session needed, and other sites may embed the files', async () => {
    const response = await testApp.app.inject({
      url: stored.png!.url,
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('asks the database nothing per file while the catalog does not change', async () => {
    // Which files only hidden items use is read once per catalog version (items/hidden-media.ts).
    const query = vi.spyOn(testApp.database.pool, 'query');
    try {
      // The first requests learn the version and start listening for its moves.
      await expect
        .poll(async () => {
          query.mockClear();
          for (const format of ['gif', 'png', 'webp'] as const) {
            expect((await testApp.app.inject(stored[format]!.url)).statusCode).toBe(200);
          }
          return query.mock.calls.length;
        })
        .toBe(0);
    } finally {
      query.mockRestore();
    }
  });
});

describe('/media from a bucket: names it does not have', () => {
  let s3: TestS3;
  let testApp: TestApp;

  beforeAll(async () => {
    s3 = await startTestS3();
    testApp = await createTestApp(s3.env);
  });
  afterAll(async () => {
    await testApp?.close();
    await s3?.close();
  });

  /** A name of the right shape whose file nobody stored. */
  const missingName = (seed: string) =>
    contentAddressedPath(createHash('sha256').update(seed).digest('hex'), 'gif');

  it('asks the bucket once for a missing name while the catalog does not change, and serves a file stored since', async () => {
    const open = vi.spyOn(testApp.media.store, 'open');
    const bytes = Buffer.from('GIF89a stored later');
    const name = contentAddressedPath(createHash('sha256').update(bytes).digest('hex'), 'gif');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await testApp.app.inject({ url: `/media/${name}` });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect(open).toHaveBeenCalledTimes(1);

    // Stored with an item (which moves the catalog version): served at once, not 404.
    const staged = path.join(testApp.dataDir, 'staged.gif');
    fs.writeFileSync(staged, bytes);
    await testApp.media.store.put(name, staged);
    await testApp.database.pool.query('UPDATE catalog_version SET version = version + 1');
    await readChangedVersions(testApp);
    const served = await testApp.app.inject({ url: `/media/${name}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(bytes)).toBe(true);
    open.mockRestore();
  });

  it('limits how many missing names one caller may ask for, with a message that says so', async () => {
    const ask = (n: number) =>
      testApp.app.inject({
        url: `/media/${missingName(`miss-${n}`)}`,
        remoteAddress: '192.0.2.77',
      });
    let last = await ask(0);
    for (let n = 1; n <= MEDIA_MISSES_PER_MINUTE && last.statusCode === 404; n += 1) {
      last = await ask(n);
    }
    expect(last.statusCode).toBe(429);
    expect(last.json().error).toEqual({
      code: 'rate_limited',
      message: `Too many requests for media files that do not exist: at most ${MEDIA_MISSES_PER_MINUTE} a minute. Try again in a minute.`,
    });
    // Another caller is not held back by it.
    const other = await testApp.app.inject({
      url: `/media/${missingName('other')}`,
      remoteAddress: '192.0.2.78',
    });
    expect(other.statusCode).toBe(404);
  });
});
