import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAddressedPath } from './media-paths.ts';
import { loadConfig } from '../config/env.ts';
import { StartupError } from '../lib/startup-error.ts';
import { openDatabase } from '../services/open-database.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { listFilesUnder } from '../test-support/files.ts';
import { outputLines, spawnServerProcess, waitForExit } from '../test-support/processes.ts';
import { startTestS3 } from '../test-support/s3.ts';
import type { TestS3 } from '../test-support/s3.ts';
import type { BucketApp } from '../test-support/uploads.ts';
import {
  makeAnimation,
  postUploads,
  startBucketApp,
  waitForUploads,
} from '../test-support/uploads.ts';
import { createLocalMediaStore, createMediaStore, createS3MediaStore } from './media-store.ts';
import type { MediaStore } from './media-store.ts';

const apiKey = 'storage-test-key-0123456789abcdefghijk';

function stage(directory: string, bytes: Buffer): string {
  const file = path.join(directory, `${Math.random().toString(36).slice(2)}.part`);
  fs.writeFileSync(file, bytes);
  return file;
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of iterable) keys.push(key);
  return keys.sort();
}

describe('media stores', () => {
  let s3: TestS3;
  let staging: string;
  let mediaDir: string;
  beforeAll(async () => {
    s3 = await startTestS3();
    staging = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-staging-'));
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-media-'));
  });
  afterAll(async () => {
    await s3?.close();
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  const stores: Array<[string, () => MediaStore]> = [
    ['local disk', () => createLocalMediaStore(mediaDir)],
    ['S3 bucket', () => createS3MediaStore(s3.storage)],
  ];

  for (const [name, make] of stores) {
    it(`${name}: stores a file once under its key, reads it whole or in part, lists and removes it`, async () => {
      const store = make();
      await store.check();
      const bytes = Buffer.from(`a GIF's bytes, stored on the ${name}`);
      const key = contentAddressedPath(createHash('sha256').update(bytes).digest('hex'), 'gif');
      expect(await store.has(key)).toBe(false);
      expect(await store.put(key, stage(staging, bytes))).toBe(true);
      // Content-addressed: a second put of the same key keeps what is there.
      expect(await store.put(key, stage(staging, bytes))).toBe(false);
      expect(await store.has(key)).toBe(true);
      expect((await store.read(key))!.equals(bytes)).toBe(true);
      const part = await store.open(key, { start: 2, end: 4 });
      expect(part).toMatchObject({ size: bytes.length, range: { start: 2, end: 4 } });
      const chunks: Buffer[] = [];
      for await (const chunk of part!.body) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('GIF');
      expect(await collect(store.list())).toEqual([key]);
      await store.remove(key);
      expect(await store.has(key)).toBe(false);
      expect(await store.read(key)).toBeUndefined();
      expect(await store.open(key)).toBeUndefined();
      // Nothing staged is left behind either way.
      expect(fs.readdirSync(staging)).toEqual([]);
      store.close();
    });
  }
});

describe('STORAGE=s3', () => {
  let bucketApp: BucketApp;
  let s3: TestS3;
  let testApp: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    bucketApp = await startBucketApp({ STICKY_API_KEYS: apiKey });
    ({ s3, testApp, auth } = bucketApp);
  });
  afterAll(async () => {
    await bucketApp?.close();
  });

  it('keeps an uploaded item’s files in the bucket, and serves them as the disk did', async () => {
    const bytes = await makeAnimation({ format: 'gif', frames: 4, size: 64 });
    const response = await postUploads(testApp, auth, [{ name: 'bucketed.gif', bytes }]);
    expect(response.statusCode).toBe(202);
    const [upload] = await waitForUploads(testApp, auth);
    expect(upload!.state).toBe('ready');

    const keys = await s3.listKeys();
    const paths = (
      await testApp.database.pool.query<{ path: string }>(
        'SELECT DISTINCT path FROM renditions WHERE item_id = $1',
        [upload!.itemId],
      )
    ).rows.map((row) => row.path);
    expect(paths.length).toBeGreaterThan(0);
    for (const key of paths) expect(keys, key).toContain(key);
    // The disk holds nothing but the staging folder.
    const onDisk = listFilesUnder(testApp.config.mediaDir).filter(
      (file) => !path.relative(testApp.config.mediaDir, file).startsWith('.'),
    );
    expect(onDisk).toEqual([]);

    const item = await testApp.app.inject({
      url: `/v1/gifs/${upload!.itemId}?api_key=${apiKey}`,
    });
    const original = new URL(item.json().data.images.original.url as string);
    expect(original.pathname).toMatch(/^\/media\//);
    const whole = await testApp.app.inject({ url: original.pathname });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({
      'content-type': 'image/gif',
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
    });
    const sha256 = createHash('sha256').update(whole.rawPayload).digest('hex');
    expect(original.pathname).toContain(sha256);
    expect(whole.headers.etag).toBe(`"${sha256}"`);

    const again = await testApp.app.inject({
      url: original.pathname,
      headers: { 'if-none-match': whole.headers.etag as string },
    });
    expect(again.statusCode, again.body).toBe(304);
    const part = await testApp.app.inject({
      url: original.pathname,
      headers: { range: 'bytes=0-5' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-5/${whole.rawPayload.length}`);
    expect(part.body).toBe('GIF89a');
    const past = await testApp.app.inject({
      url: original.pathname,
      headers: { range: `bytes=${whole.rawPayload.length + 10}-` },
    });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${whole.rawPayload.length}`);
    const missing = await testApp.app.inject({
      url: `/media/${'0'.repeat(2)}/00/${'0'.repeat(64)}.gif`,
    });
    expect(missing.statusCode).toBe(404);

    // Deleting the item removes its objects.
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/items/${upload!.itemId}`,
      headers: auth,
    });
    expect(deleted.statusCode).toBe(200);
    const left = await s3.listKeys();
    for (const key of paths) expect(left, key).not.toContain(key);
  });

  it('points media URLs at MEDIA_PUBLIC_URL, and lets the page load from there', async () => {
    const app = await createTestApp({
      ...s3.env,
      STICKY_API_KEYS: apiKey,
      MEDIA_PUBLIC_URL: 'https://cdn.example.com/sticky/',
    });
    try {
      const [id] = (
        await app.database.pool.query<{ id: string }>(
          `INSERT INTO items (id, type, slug, title, tags, alt_text, rating, rating_rank, width, height, frames, duration_ms, bytes, sha256, original_format)
           VALUES ('cdnitem0001', 'gif', 'cdn-cdnitem0001', 'CDN', '{}', 'CDN', 'g', 0, 10, 10, 1, 0, 10, repeat('a', 64), 'gif') RETURNING id`,
        )
      ).rows.map((row) => row.id);
      await app.database.pool.query(
        `INSERT INTO renditions (item_id, name, format, width, height, frames, bytes, path)
         VALUES ($1, 'original', 'gif', 10, 10, 1, 10, $2)`,
        [id, `aa/aa/${'a'.repeat(64)}.gif`],
      );
      const item = await app.app.inject({ url: `/v1/gifs/${id}?api_key=${apiKey}` });
      expect(item.json().data.images.original.url).toBe(
        `https://cdn.example.com/sticky/aa/aa/${'a'.repeat(64)}.gif`,
      );
      const page = await app.app.inject({ url: '/api/config' });
      const csp = page.headers['content-security-policy'] as string;
      expect(csp).toMatch(/img-src [^;]*https:\/\/cdn\.example\.com/);
      expect(csp).toMatch(/media-src [^;]*https:\/\/cdn\.example\.com/);
    } finally {
      await app.close();
    }
  });

  it('stops the start with one line that says what is wrong with the bucket', async () => {
    const log = pino({ level: 'silent' });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-s3-check-'));
    const attempt = async (env: Record<string, string>) => {
      const config = loadConfig({
        ...s3.env,
        DATA_DIR: dataDir,
        DATABASE_URL: testApp.database.url,
        ...env,
      });
      // As server.ts opens it: with the store its configuration makes.
      const store = createMediaStore(config);
      try {
        return await openDatabase(config, log, { store, poolSize: 1 });
      } finally {
        store.close();
      }
    };
    try {
      await expect(attempt({ S3_BUCKET: 'no-such-bucket' })).rejects.toThrow(
        `S3 bucket "no-such-bucket" at ${s3.endpoint} cannot be used: the bucket does not exist`,
      );
      await expect(attempt({ S3_ENDPOINT: 'http://127.0.0.1:9' })).rejects.toThrow(
        /cannot be used: nothing answers there/,
      );
      // s3rver knows its own key only: any other is refused, as AWS refuses a wrong one.
      await expect(
        attempt({ S3_ACCESS_KEY_ID: 'AKIAWRONGKEY', S3_SECRET_ACCESS_KEY: 'not-the-secret' }),
      ).rejects.toThrow(
        `S3 bucket "${s3.bucket}" at ${s3.endpoint} cannot be used: the access key is refused (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)`,
      );
      // The start-up check's error is the one main.ts prints as one line (no stack).
      await expect(attempt({ S3_BUCKET: 'no-such-bucket' })).rejects.toBeInstanceOf(StartupError);
      expect(() => loadConfig({ STORAGE: 's3' })).toThrow(/STORAGE=s3 needs S3_BUCKET/);
      expect(() => loadConfig({ STORAGE: 'ftp' })).toThrow(/STORAGE must be local or s3/);
      expect(() => loadConfig({ ...s3.env, S3_SECRET_ACCESS_KEY: '' })).toThrow(
        /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops the real server with that one line, no log or stack, when the bucket does not exist', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-s3-start-'));
    try {
      const server = await spawnServerProcess({
        ...s3.env,
        S3_BUCKET: 'no-such-bucket',
        DATABASE_URL: testApp.database.url,
        DATA_DIR: dataDir,
      });
      const code = await waitForExit(server.child);
      const lines = outputLines(server);
      expect(lines).toEqual([
        `S3 bucket "no-such-bucket" at ${s3.endpoint} cannot be used: the bucket does not exist`,
      ]);
      expect(code).toBe(69);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
