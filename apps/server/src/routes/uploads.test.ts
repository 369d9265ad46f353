import fs from 'node:fs';
import path from 'node:path';
import type { CreateUploadsResponse, UploadLimitsResponse } from '@sticky/contracts';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_FILES_LOCK } from '../catalog/import/media-files.ts';
import { createTestApp } from '../test-support/app.ts';
import { insertCategory } from '../test-support/catalog-fixtures.ts';
import type { TestApp } from '../test-support/app.ts';
import { listFilesUnder } from '../test-support/files.ts';
import { startListeningApp } from '../test-support/oidc.ts';
import { rawRequest, sendRaw } from '../test-support/raw-http.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  buildMultipart,
  makeAnimation,
  postUploads,
  sameSiteHeaders,
  waitForUploads,
} from '../test-support/uploads.ts';
import { uploadTempDir } from '../uploads/uploads-service.ts';

const apiKey = 'uploads-test-key-0123456789abcdefghij';

const countRows = async (testApp: TestApp, table: string) =>
  (await testApp.database.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]
    .n as number;

describe('POST /api/uploads', () => {
  let testApp: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp(
      { STICKY_API_KEYS: apiKey, UPLOAD_MAX_BYTES: String(1024 * 1024) },
      { hasJobs: true },
    );
    auth = sameSiteHeaders(testApp, (await signInAs(testApp, { name: 'Ada' })).cookie);
    // Uploaders choose from the categories admins made (docs/security.md, "Moderation").
    const reactions = await insertCategory(testApp.database, { name: 'Reactions' });
    await insertCategory(testApp.database, { name: 'Happy', parentId: reactions.id });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('takes three files, makes them items in the background, and /v1 finds them', async () => {
    const gif = await makeAnimation({ format: 'gif' });
    const sticker = await makeAnimation({ format: 'webp', isTransparent: true });
    const still = await sharp({
      create: { width: 40, height: 30, channels: 3, background: { r: 9, g: 120, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const response = await postUploads(
      testApp,
      auth,
      [
        { name: 'Zorblax_dance.gif', bytes: gif },
        { name: 'zorblax-wave.webp', bytes: sticker, contentType: 'image/webp' },
        { name: 'zorblax sky.jpg', bytes: still, contentType: 'image/jpeg' },
      ],
      { tags: 'zorblax, party ,, dance', rating: 'pg', category: 'Reactions/Happy' },
    );
    expect(response.statusCode).toBe(202);
    const { uploads: receipts } = response.json() as CreateUploadsResponse;
    expect(receipts.map((receipt) => [receipt.fileName, receipt.state])).toEqual([
      ['Zorblax_dance.gif', 'processing'],
      ['zorblax-wave.webp', 'processing'],
      ['zorblax sky.jpg', 'processing'],
    ]);

    const uploads = await waitForUploads(testApp, auth);
    const byName = new Map(uploads.map((upload) => [upload.fileName, upload]));
    for (const receipt of receipts) {
      const upload = byName.get(receipt.fileName)!;
      expect(upload, receipt.fileName).toMatchObject({ id: receipt.uploadId, state: 'ready' });
      expect(upload.itemId).toEqual(expect.any(String));
      expect(upload.previewUrl).toMatch(/\/media\//);
      expect(upload.previewStillUrl).toMatch(/\/media\//);
      // An animation's first frame is a file of its own; a still is its own first frame.
      if (!receipt.fileName.endsWith('.jpg')) {
        expect(upload.previewStillUrl).not.toBe(upload.previewUrl);
      }
      expect(upload.details).toMatchObject({
        tags: ['zorblax', 'party', 'dance'],
        rating: 'pg',
        category: 'Reactions/Happy',
      });
    }
    // The title comes from the file name; the type from transparency.
    expect(byName.get('Zorblax_dance.gif')!.details).toMatchObject({
      title: 'Zorblax dance',
      type: 'gif',
    });
    expect(byName.get('zorblax-wave.webp')!.details.type).toBe('sticker');
    expect(byName.get('zorblax sky.jpg')!.details.type).toBe('gif');

    const search = await testApp.app.inject({
      url: `/v1/gifs/search?q=zorblax&rating=pg&api_key=${apiKey}`,
    });
    const ids = (search.json() as { data: Array<{ id: string }> }).data.map((item) => item.id);
    expect(ids).toContain(byName.get('Zorblax_dance.gif')!.itemId);
    const stickers = await testApp.app.inject({
      url: `/v1/stickers/search?q=zorblax&rating=pg&api_key=${apiKey}`,
    });
    expect(
      (stickers.json() as { data: Array<{ id: string }> }).data.map((item) => item.id),
    ).toEqual([byName.get('zorblax-wave.webp')!.itemId]);
    // Nothing is left waiting: staged bytes go with the job's outcome.
    expect(await countRows(testApp, 'upload_files')).toBe(0);
  });

  it('refuses an HTML page named .gif, and keeps the other files of the request', async () => {
    const good = await makeAnimation({ format: 'gif' });
    const response = await postUploads(testApp, auth, [
      { name: 'evil.gif', bytes: Buffer.from('<!doctype html><script>alert(1)</script>') },
      { name: 'good.gif', bytes: good },
      { name: 'notes.gif', bytes: Buffer.from('just some words\n') },
    ]);
    expect(response.statusCode).toBe(202);
    const { uploads } = response.json() as CreateUploadsResponse;
    expect(uploads[0]).toMatchObject({
      fileName: 'evil.gif',
      state: 'failed',
      uploadId: null,
      reason: 'evil.gif is not a GIF, WebP, PNG or JPEG image (it is HTML or XML).',
    });
    expect(uploads[1]).toMatchObject({ fileName: 'good.gif', state: 'processing' });
    expect(uploads[2]!.reason).toBe(
      'notes.gif is not a GIF, WebP, PNG or JPEG image (it is text).',
    );
  });

  it('answers 415 with the reason when no file of the request is an image', async () => {
    const response = await postUploads(testApp, auth, [
      { name: 'page.gif', bytes: Buffer.from('<html></html>') },
    ]);
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toEqual({
      code: 'unsupported_media_type',
      message: 'page.gif is not a GIF, WebP, PNG or JPEG image (it is HTML or XML).',
    });
  });

  it('refuses a file over the limit with 413, and keeps nothing of its request', async () => {
    const rowsBefore = await countRows(testApp, 'uploads');
    const big = Buffer.concat([await makeAnimation({ format: 'gif' }), Buffer.alloc(1024 * 1024)]);
    const tooBig =
      'huge.gif is over the limit of 1 MB per file: send a smaller file. The server stopped reading there, so nothing of this request was kept.';
    const alone = await postUploads(testApp, auth, [{ name: 'huge.gif', bytes: big }]);
    expect(alone.statusCode).toBe(413);
    expect(alone.headers.connection).toBe('close');
    expect(alone.json().error).toEqual({ code: 'payload_too_large', message: tooBig });
    // The request ends at the file over the limit: a file before it is not kept either.
    const mixed = await postUploads(testApp, auth, [
      { name: 'small.gif', bytes: await makeAnimation({ format: 'gif' }) },
      { name: 'huge.gif', bytes: big },
    ]);
    expect(mixed.statusCode).toBe(413);
    expect(mixed.json().error).toEqual({ code: 'payload_too_large', message: tooBig });
    // The request's folder went before the answer.
    expect(listFilesUnder(uploadTempDir(testApp.config))).toEqual([]);
    expect(await countRows(testApp, 'uploads')).toBe(rowsBefore);
    // A file of exactly the limit is taken.
    const gif = await makeAnimation({ format: 'gif' });
    const exact = Buffer.concat([gif, Buffer.alloc(1024 * 1024 - gif.length)]);
    const atLimit = await postUploads(testApp, auth, [{ name: 'exact.gif', bytes: exact }]);
    expect(atLimit.statusCode).toBe(202);
    expect(await countRows(testApp, 'uploads')).toBe(rowsBefore + 1);
    await waitForUploads(testApp, auth);
  });

  it('refuses a request whose declared length is over what any request may carry, unread', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...auth,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(10 * 1024 * 1024 * 1024),
      },
      payload: '--x--\r\n',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toMatch(
      /^The request is over \d+ MB: send at most 20 files/,
    );
  });

  it('answers the same bytes with the existing item instead of a copy', async () => {
    const bytes = await makeAnimation({ format: 'gif' });
    await postUploads(testApp, auth, [{ name: 'first.gif', bytes }]);
    const [first] = (await waitForUploads(testApp, auth)).filter((u) => u.fileName === 'first.gif');
    const again = await postUploads(testApp, auth, [{ name: 'again.gif', bytes }]);
    expect(again.statusCode).toBe(202);
    expect((again.json() as CreateUploadsResponse).uploads[0]).toEqual({
      fileName: 'again.gif',
      uploadId: null,
      itemId: first!.itemId,
      state: 'ready',
      reason: null,
      isDuplicate: true,
      url: expect.stringMatching(
        new RegExp(`^${testApp.config.publicUrl}/gif/first-${first!.itemId}$`),
      ),
    });
  });

  it('answers a link that leads to the item once it is ready, before it exists', async () => {
    const response = await postUploads(testApp, auth, [
      { name: 'linked.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    const [receipt] = (response.json() as CreateUploadsResponse).uploads;
    expect(receipt!.url).toBe(`${testApp.config.publicUrl}/u/${receipt!.uploadId}`);
    const path = new URL(receipt!.url!).pathname;
    // A fetcher that is no browser (curl, a chat app) is held a few seconds for the item.
    const early = await testApp.app.inject({ url: path, headers: { accept: '*/*' } });
    // Processing, or already made on a fast machine.
    if (early.statusCode === 200) expect(early.body).toContain('Processing');
    else expect(early.statusCode).toBe(302);
    const [upload] = (await waitForUploads(testApp, auth)).filter(
      (u) => u.fileName === 'linked.gif',
    );
    const ready = await testApp.app.inject({ url: path, headers: { accept: 'text/html' } });
    expect(ready.statusCode).toBe(302);
    expect(ready.headers.location).toBe(`${testApp.config.publicUrl}/gif/linked-${upload!.itemId}`);
    const unknown = await testApp.app.inject({
      url: '/u/00000000-0000-4000-8000-000000000000',
      headers: { accept: 'text/html' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('says what is wrong with a field, and takes nothing', async () => {
    const rowsBefore = await countRows(testApp, 'uploads');
    const bytes = await makeAnimation({ format: 'gif' });
    for (const [fields, message] of [
      [{ source: 'javascript:alert(1)' }, 'source: A source link starts with http:// or https://.'],
      [{ rating: 'nc-17' }, expect.stringMatching(/^rating: /)],
      [{ type: 'text' }, expect.stringMatching(/^type: /)],
      [{ tags: 'x'.repeat(51) }, 'tags: 0: A tag is at most 50 characters.'],
    ] as const) {
      const response = await postUploads(testApp, auth, [{ name: 'a.gif', bytes }], fields);
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json().error.message).toEqual(message);
    }
    const form = buildMultipart([], { title: 'x' });
    const none = await testApp.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...auth, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe(
      'Attach at least one file, as a `file` part of the form.',
    );
    expect(await countRows(testApp, 'uploads')).toBe(rowsBefore);
  });

  it('needs a signed-in person, and refuses another site', async () => {
    const bytes = await makeAnimation({ format: 'gif' });
    const anonymous = await postUploads(testApp, {}, [{ name: 'a.gif', bytes }]);
    expect(anonymous.statusCode).toBe(401);
    const crossSite = await postUploads(
      testApp,
      { ...auth, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      [{ name: 'a.gif', bytes }],
    );
    expect(crossSite.statusCode).toBe(403);
  });

  it('tells the upload page the limits and what was used today', async () => {
    const response = await testApp.app.inject({ url: '/api/uploads/limits', headers: auth });
    const limits = response.json() as UploadLimitsResponse;
    expect(limits).toMatchObject({
      canUpload: true,
      maxFileBytes: 1024 * 1024,
      maxFilesPerRequest: 20,
      mediaTypes: ['image/gif', 'image/webp', 'image/png', 'image/jpeg'],
      visibility: 'public',
    });
    expect(limits.itemsUsedToday).toBe(await countRows(testApp, 'uploads'));
  });

  it('pages through my uploads newest first, by state', async () => {
    const first = await testApp.app.inject({ url: '/api/uploads?limit=2', headers: auth });
    const page1 = first.json() as { uploads: Array<{ id: string }>; next: string };
    expect(page1.uploads).toHaveLength(2);
    const second = await testApp.app.inject({
      url: `/api/uploads?limit=2&cursor=${page1.next}`,
      headers: auth,
    });
    const page2 = second.json() as { uploads: Array<{ id: string }> };
    expect(page2.uploads.map((u) => u.id)).not.toContain(page1.uploads[0]!.id);
    const all = await waitForUploads(testApp, auth);
    const ready = await testApp.app.inject({
      url: '/api/uploads?state=ready&limit=100',
      headers: auth,
    });
    expect((ready.json() as { uploads: unknown[] }).uploads).toHaveLength(
      all.filter((upload) => upload.state === 'ready').length,
    );
    const bad = await testApp.app.inject({ url: '/api/uploads?cursor=nonsense', headers: auth });
    expect(bad.statusCode).toBe(400);
  });

  it('cleans EXIF, GPS and comments from what others fetch', async () => {
    const secret = 'Home: 51.5007N 0.1246W';
    const photo = await sharp({
      create: { width: 24, height: 24, channels: 3, background: { r: 250, g: 10, b: 10 } },
    })
      .withExif({ IFD0: { Artist: secret, ImageDescription: secret } })
      .jpeg()
      .toBuffer();
    expect(photo.includes(secret)).toBe(true);
    await postUploads(testApp, auth, [{ name: 'photo.jpg', bytes: photo }]);
    const upload = (await waitForUploads(testApp, auth)).find((u) => u.fileName === 'photo.jpg')!;
    const item = await testApp.app.inject({ url: `/v1/gifs/${upload.itemId}?api_key=${apiKey}` });
    const images = (item.json() as { data: { images: Record<string, Record<string, string>> } })
      .data.images;
    const original = await testApp.app.inject({ url: new URL(images.original!.url!).pathname });
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.includes(secret)).toBe(false);
    const staged = await testApp.database.pool.query('SELECT bytes FROM upload_files');
    expect(staged.rows).toEqual([]);
  });
});

describe('upload quotas, roles and races', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it('stops at the daily quota with a clear message and 429', async () => {
    testApp = await createTestApp({ UPLOAD_ITEMS_PER_DAY: '2' }, { hasJobs: true });
    const auth = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
    const files = await Promise.all(
      [1, 2, 3].map(async (n) => ({
        name: `q${n}.gif`,
        bytes: await makeAnimation({ format: 'gif' }),
      })),
    );
    const first = await postUploads(testApp, auth, files);
    expect(first.statusCode).toBe(202);
    const receipts = (first.json() as CreateUploadsResponse).uploads;
    expect(receipts.map((receipt) => receipt.state)).toEqual([
      'processing',
      'processing',
      'failed',
    ]);
    expect(receipts[2]!.reason).toBe(
      "q3.gif: You have reached today's upload limit of 2 files. It resets at midnight UTC.",
    );
    const next = await postUploads(testApp, auth, [
      { name: 'q4.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    expect(next.statusCode).toBe(429);
    expect(next.json().error.code).toBe('rate_limited');
    // Another person has a quota of their own.
    const other = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
    const theirs = await postUploads(testApp, other, [
      { name: 'q5.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    expect(theirs.statusCode).toBe(202);
    await waitForUploads(testApp, auth);
  });

  it('stops at the daily byte quota with a message that says what is left, and 429', async () => {
    const files = await Promise.all(
      [1, 2, 3].map(async (n) => ({
        name: `b${n}.gif`,
        bytes: await makeAnimation({ format: 'gif', size: 40 }),
      })),
    );
    // Room for the first two files and half the third.
    const quota = files[0]!.bytes.length + files[1]!.bytes.length + files[2]!.bytes.length / 2;
    testApp = await createTestApp(
      { UPLOAD_BYTES_PER_DAY: String(Math.floor(quota)) },
      { hasJobs: true },
    );
    const auth = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
    const overQuota =
      /^b\d\.gif: \d+(\.\d)? KB is more than is left of today's upload limit \(\d+(\.\d)? KB of \d+(\.\d)? KB\)\. Send a smaller file, or wait: the limit resets at midnight UTC\.$/;
    const first = await postUploads(testApp, auth, files);
    expect(first.statusCode).toBe(202);
    const receipts = (first.json() as CreateUploadsResponse).uploads;
    expect(receipts.map((receipt) => receipt.state)).toEqual([
      'processing',
      'processing',
      'failed',
    ]);
    expect(receipts[2]!.reason).toMatch(overQuota);
    const next = await postUploads(testApp, auth, [
      { name: 'b4.gif', bytes: await makeAnimation({ format: 'gif', size: 40 }) },
    ]);
    expect(next.statusCode).toBe(429);
    expect(next.json().error.code).toBe('rate_limited');
    expect(next.json().error.message).toMatch(overQuota);
    const limits = await testApp.app.inject({ url: '/api/uploads/limits', headers: auth });
    expect(limits.json()).toMatchObject({ bytesPerDay: Math.floor(quota), itemsUsedToday: 2 });
    await waitForUploads(testApp, auth);
  });

  it('takes no upload below the free-space floor, says why, and reads no byte of the body', async () => {
    // A floor no disk reaches: a petabyte.
    const listening = await startListeningApp(
      { MIN_FREE_DISK_MB: String(1024 ** 3) },
      { hasJobs: true },
    );
    testApp = listening;
    const { cookie } = await signInAs(listening);
    const auth = sameSiteHeaders(listening, cookie);
    const refused = await postUploads(listening, auth, [
      { name: 'full.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({
      success: false,
      error: {
        code: 'unavailable',
        message:
          'The server is low on disk space, so no new uploads are taken right now. Try again later; what was uploaded before still works.',
      },
    });
    expect(await countRows(listening, 'uploads')).toBe(0);
    expect(listFilesUnder(uploadTempDir(listening.config))).toEqual([]);

    // Only the headers of a 1 MB upload are sent: the answer comes without waiting for the body.
    const port = Number(new URL(listening.baseUrl).port);
    const answer = await sendRaw(
      port,
      rawRequest('POST', '/api/uploads', {
        ...auth,
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(1024 * 1024),
      }),
    );
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body).error.message).toMatch(/^The server is low on disk space/);
  });

  it('answers 413 for a file over the limit before the client has sent the rest of the body', async () => {
    const limit = 1024 * 1024;
    const listening = await startListeningApp(
      { UPLOAD_MAX_BYTES: String(limit) },
      { hasJobs: true },
    );
    testApp = listening;
    const auth = sameSiteHeaders(listening, (await signInAs(listening)).cookie);
    const gif = await makeAnimation({ format: 'gif' });
    const { body, contentType } = buildMultipart([
      { name: 'huge.gif', bytes: Buffer.concat([gif, Buffer.alloc(4 * limit - gif.length)]) },
    ]);
    // Content-Length declares the whole 4 MB (under what a request may carry, so the headers
    // alone are no reason to refuse), but only the limit and a margin are ever sent, and the
    // socket stays open: an answer can only come from a server that stopped at the limit.
    const sent = body.subarray(0, limit + 256 * 1024);
    expect(sent.length).toBeLessThan(body.length / 3);
    const head = rawRequest('POST', '/api/uploads', {
      ...auth,
      'Content-Type': contentType,
      'Content-Length': String(body.length),
    });
    const answer = await sendRaw(
      Number(new URL(listening.baseUrl).port),
      Buffer.concat([Buffer.from(head, 'latin1'), sent]),
    );
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      error: {
        code: 'payload_too_large',
        message:
          'huge.gif is over the limit of 1 MB per file: send a smaller file. The server stopped reading there, so nothing of this request was kept.',
      },
    });
    expect(await countRows(listening, 'uploads')).toBe(0);
    expect(await countRows(listening, 'upload_files')).toBe(0);
    expect(listFilesUnder(uploadTempDir(listening.config))).toEqual([]);
  });

  it('lets only admins upload with UPLOADS=admins, and nobody with UPLOADS=off', async () => {
    testApp = await createTestApp({ UPLOADS: 'admins', ADMIN_EMAILS: 'boss@example.com' });
    const bytes = await makeAnimation({ format: 'gif' });
    const person = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
    const refused = await postUploads(testApp, person, [{ name: 'a.gif', bytes }]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Only admins may upload on this server.');
    const limits = await testApp.app.inject({ url: '/api/uploads/limits', headers: person });
    expect(limits.json().canUpload).toBe(false);
    const admin = sameSiteHeaders(
      testApp,
      (await signInAs(testApp, { email: 'boss@example.com' })).cookie,
    );
    // This app runs no job queue: an admin gets past the role check to the queue's refusal.
    const byAdmin = await postUploads(testApp, admin, [{ name: 'a.gif', bytes }]);
    expect(byAdmin.statusCode).toBe(503);
    // A request that is wrong anyway is told so first (the fuzz found a 503 for an empty form).
    const form = buildMultipart([], { title: 'x' });
    const empty = await testApp.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...admin, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(empty.statusCode).toBe(400);
    await testApp.close();

    testApp = await createTestApp({ UPLOADS: 'off', ADMIN_EMAILS: 'boss@example.com' });
    const off = await postUploads(
      testApp,
      sameSiteHeaders(testApp, (await signInAs(testApp, { email: 'boss@example.com' })).cookie),
      [{ name: 'a.gif', bytes }],
    );
    expect(off.statusCode).toBe(403);
    expect(off.json().error.message).toBe('Uploads are turned off on this server.');
  });

  it('lists everyone’s uploads with who sent them to admins only', async () => {
    testApp = await createTestApp({ ADMIN_EMAILS: 'boss@example.com' }, { hasJobs: true });
    const person = await signInAs(testApp, { name: 'Grace', email: 'grace@example.com' });
    const auth = sameSiteHeaders(testApp, person.cookie);
    await postUploads(testApp, auth, [
      { name: 'mine.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    const refused = await testApp.app.inject({ url: '/api/admin/uploads', headers: auth });
    expect(refused.statusCode).toBe(403);
    const admin = sameSiteHeaders(
      testApp,
      (await signInAs(testApp, { email: 'boss@example.com' })).cookie,
    );
    const [upload] = await waitForUploads(testApp, admin, { path: '/api/admin/uploads' });
    expect(upload).toMatchObject({
      fileName: 'mine.gif',
      uploader: { id: person.user.id, name: 'Grace', email: 'grace@example.com' },
    });
  });

  it('makes one item of the same file sent by two people at the same moment', async () => {
    // Two workers, so both jobs run at once.
    testApp = await createTestApp({ UPLOAD_WORKERS: '2' }, { hasJobs: true });
    const app = testApp;
    const bytes = await makeAnimation({ format: 'gif', frames: 8, size: 96 });
    const people = await Promise.all([signInAs(app), signInAs(app)]);
    const auths = people.map((person) => sameSiteHeaders(app, person.cookie));
    // Every import takes the media-files lock, shared, after it found no item with its bytes
    // and before it inserts one (catalog/import/import-media.ts). Held exclusively here, it
    // stops both jobs at that point: once both wait, each has missed the other's item, so the
    // second insert must meet the first's sha256 and take the unique-violation path.
    const holder = await app.database.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [MEDIA_FILES_LOCK]);
      const responses = await Promise.all(
        auths.map((auth) => postUploads(app, auth, [{ name: 'same.gif', bytes }])),
      );
      for (const response of responses) expect(response.statusCode).toBe(202);
      const countWaiting = async () =>
        (
          await holder.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks
             WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = $1
               AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            [MEDIA_FILES_LOCK],
          )
        ).rows[0]!.n;
      // Both files are decoded before the lock: give a loaded machine time for that.
      await expect.poll(countWaiting, { timeout: 45_000 }).toBe(2);
      expect(await countRows(app, 'items')).toBe(0);
      await holder.query('COMMIT');
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
    const outcomes = await Promise.all(auths.map((auth) => waitForUploads(app, auth)));
    expect(outcomes.map(([upload]) => upload!.state)).toEqual(['ready', 'ready']);
    const itemIds = outcomes.map(([upload]) => upload!.itemId);
    expect(itemIds[0]).toEqual(expect.any(String));
    expect(itemIds[1]).toBe(itemIds[0]);
    expect(await countRows(app, 'items')).toBe(1);
    // The loser cleaned up only what no item uses: the winner's files are all there.
    const { rows } = await app.database.pool.query<{ path: string }>(
      'SELECT DISTINCT path FROM renditions WHERE item_id = $1',
      [itemIds[0]],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { path: file } of rows) {
      const media = await app.app.inject({ url: `/media/${file}` });
      expect(media.statusCode, file).toBe(200);
    }
  }, 60_000);

  it('leaves no row and no file behind when a request is cut off halfway', async () => {
    const listening = await startListeningApp({}, { hasJobs: true });
    testApp = listening;
    const { cookie } = await signInAs(listening);
    const port = Number(new URL(listening.baseUrl).port);
    const cut = await makeAnimation({ format: 'gif', frames: 20, size: 200 });
    const { body, contentType } = buildMultipart([
      { name: 'whole.gif', bytes: await makeAnimation({ format: 'gif' }) },
      { name: 'cut.gif', bytes: cut },
    ]);
    // Three quarters of the body: all of whole.gif, and cut.gif ends in the part not sent.
    const sent = body.subarray(0, Math.floor(body.length * 0.75));
    const cutStart = body.indexOf(cut);
    expect(cutStart).toBeLessThan(sent.length);
    expect(cutStart + cut.length).toBeGreaterThan(sent.length);
    const tempDir = uploadTempDir(listening.config);
    const listPartFiles = () =>
      listFilesUnder(tempDir).filter((file) => file.endsWith('.part') && fs.statSync(file).size);
    const net = await import('node:net');
    const socket = net.connect(port, '127.0.0.1');
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      socket.write(
        rawRequest('POST', '/api/uploads', {
          ...sameSiteHeaders(listening, cookie),
          'Content-Type': contentType,
          'Content-Length': String(body.length),
        }),
      );
      socket.write(sent);
      // The server is receiving: both files are being written in the request's folder.
      await expect.poll(() => listPartFiles().length).toBe(2);
      expect(await countRows(listening, 'uploads')).toBe(0);
    } finally {
      // Then the client vanishes.
      socket.destroy();
    }
    // The server notices the close, ends the request and removes its folder.
    await expect.poll(() => listFilesUnder(tempDir)).toEqual([]);
    expect(await countRows(listening, 'uploads')).toBe(0);
    expect(await countRows(listening, 'upload_files')).toBe(0);
    expect(listFilesUnder(path.join(listening.config.mediaDir))).toEqual([]);
  });
});
