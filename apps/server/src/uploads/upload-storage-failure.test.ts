import type { CreateUploadsResponse } from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../test-support/app.ts';
import type { TestS3 } from '../test-support/s3.ts';
import type { BucketApp } from '../test-support/uploads.ts';
import {
  makeAnimation,
  postUploads,
  startBucketApp,
  waitForUploads,
} from '../test-support/uploads.ts';
import { UPLOADS_QUEUE } from './uploads-service.ts';

const apiKey = 'storage-failure-key-0123456789abcdefgh';

/**
 * The bucket fails in the middle of an item's files (docs/scaling.md, "Media storage"): the
 * item stays invisible, the job queue runs the upload again, and then the item is whole.
 */
describe('a storage failure in the middle of an upload', () => {
  let bucketApp: BucketApp;
  let s3: TestS3;
  let testApp: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    bucketApp = await startBucketApp({ STICKY_API_KEYS: apiKey });
    ({ s3, testApp, auth } = bucketApp);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await bucketApp?.close();
  });

  const search = async (query: string) =>
    (await testApp.app.inject({ url: `/v1/gifs/search?q=${query}&api_key=${apiKey}` })).json() as {
      data: Array<{ id: string; title: string }>;
    };
  const readJob = async (uploadId: string) =>
    (
      await testApp.database.pool.query<{ state: string; retry_count: number; output: unknown }>(
        `SELECT state, retry_count, output FROM pgboss.job WHERE name = $1 AND data->>'uploadId' = $2`,
        [UPLOADS_QUEUE, uploadId],
      )
    ).rows;

  it('keeps the item invisible, retries the job, and then stores every file', async () => {
    // The app's own store (test-support/app.ts): its second write of the first attempt fails, as a
    // bucket that drops a connection would; the retry waits until the test has looked.
    const store = testApp.media.store;
    const put = store.put.bind(store);
    const storedBeforeFailure: string[] = [];
    let hasFailed = false;
    let releaseRetry!: () => void;
    const isLooked = new Promise<void>((resolve) => (releaseRetry = resolve));
    const putSpy = vi.spyOn(store, 'put').mockImplementation(async (key, stagedFile) => {
      if (!hasFailed && storedBeforeFailure.length === 1) {
        hasFailed = true;
        throw new Error('the bucket dropped the connection (test)');
      }
      if (hasFailed) await isLooked;
      else storedBeforeFailure.push(key);
      return put(key, stagedFile);
    });

    const bytes = await makeAnimation({ format: 'gif', frames: 4, size: 64 });
    const response = await postUploads(testApp, auth, [{ name: 'Wobbly_narwhal.gif', bytes }]);
    expect(response.statusCode).toBe(202);
    const [receipt] = (response.json() as CreateUploadsResponse).uploads;
    const uploadId = receipt!.uploadId!;

    // The failure went back to the job queue, to be run again (waiting out its retry delay, or
    // claimed again: every claim after the first counts a retry).
    await expect
      .poll(
        async () => {
          const [job] = await readJob(uploadId);
          return job?.state === 'retry' || (job?.retry_count ?? 0) >= 1;
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe(true);
    const [failed] = await readJob(uploadId);
    expect(JSON.stringify(failed!.output)).toContain('the bucket dropped the connection');
    expect(storedBeforeFailure).toHaveLength(1);

    // Nothing of the item shows: no item row, no search hit, the upload still processing, and
    // the file stored before the failure taken away again.
    expect(
      (await testApp.database.pool.query('SELECT count(*)::int AS n FROM items')).rows[0].n,
    ).toBe(0);
    expect((await search('narwhal')).data).toEqual([]);
    const listed = await testApp.app.inject({ url: '/api/uploads?limit=100', headers: auth });
    expect(listed.json().uploads).toMatchObject([
      { id: uploadId, state: 'processing', itemId: null },
    ]);
    expect(await s3.listKeys()).not.toContain(storedBeforeFailure[0]);

    releaseRetry();
    const [upload] = await waitForUploads(testApp, auth);
    expect(upload).toMatchObject({ id: uploadId, state: 'ready', itemId: expect.any(String) });
    // pg-boss marks the job done just after its handler made the upload ready.
    await expect
      .poll(async () => (await readJob(uploadId))[0], { timeout: 10_000, interval: 50 })
      .toMatchObject({ state: 'completed', retry_count: 1 });
    expect(putSpy.mock.calls.length).toBeGreaterThan(storedBeforeFailure.length + 1);

    // Now it is whole: found by search (the empty answer kept above is gone: the worker told its
    // app of the item), and every file it refers to is in the bucket and served.
    expect((await search('narwhal')).data.map((item) => item.id)).toEqual([upload!.itemId]);
    const paths = (
      await testApp.database.pool.query<{ path: string }>(
        'SELECT DISTINCT path FROM renditions WHERE item_id = $1',
        [upload!.itemId],
      )
    ).rows.map((row) => row.path);
    expect(paths.length).toBeGreaterThan(1);
    const keys = await s3.listKeys();
    expect(paths.filter((key) => !keys.includes(key))).toEqual([]);
    const item = await testApp.app.inject({
      url: `/v1/gifs/${upload!.itemId}?api_key=${apiKey}`,
    });
    const original = new URL(item.json().data.images.original.url as string);
    const media = await testApp.app.inject({ url: original.pathname });
    expect(media.statusCode).toBe(200);
    expect(media.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
  });
});
