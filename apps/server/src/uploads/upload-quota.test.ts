import type { CreateUploadsResponse, UploadLimitsResponse } from '@sticky/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { startListeningApp } from '../test-support/oidc.ts';
import { rawRequest, sendRaw } from '../test-support/raw-http.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  makeAnimation,
  postUploads,
  sameSiteHeaders,
  waitForUploads,
} from '../test-support/uploads.ts';

/** When each upload was finished (ready or refused), by id: the order the queue took them in. */
async function readFinishedAt(testApp: TestApp, ids: string[]): Promise<Map<string, number>> {
  const { rows } = await testApp.database.pool.query<{ id: string; finished: Date }>(
    `SELECT id, updated_at AS finished FROM uploads WHERE id = ANY($1) AND state <> 'processing'`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.finished.getTime()]));
}

function acceptedIds(response: { json: () => unknown }): string[] {
  return (response.json() as CreateUploadsResponse).uploads.map((receipt) => receipt.uploadId!);
}

describe('fair use of the decoders (docs/uploads.md, "Receiving" and "Processing")', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it("takes queued files round-robin by person: one person's 20 files hold another's one up by one job at most", async () => {
    // One job at a time, so the order the queue hands them out is the order they finish in.
    testApp = await createTestApp({ UPLOAD_WORKERS: '1' }, { hasJobs: true });
    const app = testApp;
    const heavy = sameSiteHeaders(app, (await signInAs(app)).cookie);
    const light = sameSiteHeaders(app, (await signInAs(app)).cookie);
    const files = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => ({
        name: `batch-${n}.gif`,
        bytes: await makeAnimation({ format: 'gif', frames: 6, size: 96 }),
      })),
    );
    const batch = await postUploads(app, heavy, files);
    expect(batch.statusCode).toBe(202);
    const heavyIds = acceptedIds(batch);
    expect(heavyIds).toHaveLength(20);

    const single = await postUploads(app, light, [
      { name: 'mine.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    expect(single.statusCode).toBe(202);
    const [lightId] = acceptedIds(single) as [string];
    const [mine] = await waitForUploads(app, light);
    expect(mine!.state).toBe('ready');

    // Of the 20 queued before it, only the one being made when it arrived went first.
    const finished = await readFinishedAt(app, [...heavyIds, lightId]);
    const lightAt = finished.get(lightId)!;
    const heavyBefore = heavyIds.filter((id) => (finished.get(id) ?? Infinity) < lightAt);
    expect(heavyBefore.length).toBeLessThanOrEqual(1);
    // And the batch itself is still made in the order it was sent.
    await waitForUploads(app, heavy);
    const all = await readFinishedAt(app, heavyIds);
    const order = [...heavyIds].sort((a, b) => all.get(a)! - all.get(b)!);
    expect(order).toEqual(heavyIds);
  }, 120_000);

  it('charges decoded megapixels to the day and refuses a file over what is left, from its headers, without retrying it', async () => {
    // 1 megapixel a day: two files of 128×128×30 frames (0.49 each) fit, the third does not.
    testApp = await createTestApp(
      { UPLOAD_MEGAPIXELS_PER_DAY: '1', UPLOAD_WORKERS: '1' },
      { hasJobs: true },
    );
    const app = testApp;
    const auth = sameSiteHeaders(app, (await signInAs(app)).cookie);
    const files = await Promise.all(
      [1, 2, 3].map(async (n) => ({
        name: `big-${n}.gif`,
        bytes: await makeAnimation({ format: 'gif', frames: 30, size: 128 }),
      })),
    );
    const response = await postUploads(app, auth, files);
    expect(response.statusCode).toBe(202);
    const uploads = await waitForUploads(app, auth);
    const byName = new Map(uploads.map((upload) => [upload.fileName, upload]));
    expect(byName.get('big-1.gif')!.state).toBe('ready');
    expect(byName.get('big-2.gif')!.state).toBe('ready');
    const refused = byName.get('big-3.gif')!;
    expect(refused.state).toBe('failed');
    expect(refused.reason).toBe(
      "big-3.gif: decoding its 30 frames of 128×128 would take 0.5 megapixels, more than is left of today's decoding allowance (0.0 of 1 megapixels). Send a smaller file, or wait: the allowance resets at midnight UTC.",
    );
    // Refused, not failed: the job ended at once, never retried.
    const { rows } = await app.database.pool.query<{ state: string; retry_count: number }>(
      `SELECT state, retry_count FROM pgboss.job WHERE data->>'uploadId' = $1`,
      [refused.id],
    );
    expect(rows).toEqual([{ state: 'completed', retry_count: 0 }]);

    const limits = await app.app.inject({ url: '/api/uploads/limits', headers: auth });
    expect(limits.json() as UploadLimitsResponse).toMatchObject({
      megapixelsPerDay: 1,
      megapixelsUsedToday: 1,
    });
    // Someone else's day is their own.
    const other = sameSiteHeaders(app, (await signInAs(app)).cookie);
    await postUploads(app, other, [
      { name: 'theirs.gif', bytes: await makeAnimation({ format: 'gif', frames: 30, size: 128 }) },
    ]);
    const [theirs] = await waitForUploads(app, other);
    expect(theirs!.state).toBe('ready');
  }, 120_000);

  it('refuses a request whose Content-Length is over what is left of the day before reading its body', async () => {
    const listening = await startListeningApp(
      { UPLOAD_BYTES_PER_DAY: String(1024 * 1024) },
      { hasJobs: true },
    );
    testApp = listening;
    const auth = sameSiteHeaders(listening, (await signInAs(listening)).cookie);
    // Only the headers of a 2 MB upload are sent, and the socket stays open: an answer can
    // only come from a server that did not wait for the body.
    const answer = await sendRaw(
      Number(new URL(listening.baseUrl).port),
      rawRequest('POST', '/api/uploads', {
        ...auth,
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(2 * 1024 * 1024),
      }),
    );
    expect(answer.status).toBe(429);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      error: {
        code: 'rate_limited',
        message:
          "This request is 2 MB, more than is left of today's upload limit (1 MB of 1 MB). Send a smaller file, or wait: the limit resets at midnight UTC.",
      },
    });
    // A request that fits is read and taken as before.
    const small = await postUploads(listening, auth, [
      { name: 'small.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    expect(small.statusCode).toBe(202);
    await waitForUploads(listening, auth);
  });
});
