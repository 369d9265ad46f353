import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { makeAnimation } from '../../test-support/media.ts';
import { createJobQueue } from '../../jobs/job-queue.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { importMedia } from './import-media.ts';
import {
  RENDITIONS_QUEUE,
  listMissingRenditions,
  makeLaterRenditions,
  queueMissingRenditions,
} from './later-renditions.ts';
import { planRenditions } from './rendition-plan.ts';

/**
 * Renditions a plan adds after items exist (a GIF's VP9 tile): made for those items, and only
 * they, by the `renditions` command's queue and the jobs it starts (docs/catalog.md, "Jobs").
 */
describe('renditions an item lacks', () => {
  let testApp: TestApp;
  let jobs: JobQueue;
  let gifId: string;
  let stillId: string;

  const deps = () => ({ config: testApp.config, database: testApp.database, media: testApp.media });
  const renditionsOf = async (itemId: string) =>
    (
      await testApp.database.pool.query<{ key: string }>(
        "SELECT name || '.' || format AS key FROM renditions WHERE item_id = $1 ORDER BY 1",
        [itemId],
      )
    ).rows.map((row) => row.key);
  const plannedFor = (isAnimated: boolean) =>
    planRenditions({ sourceFormat: 'gif', isAnimated, isTransparent: false })
      .map(({ name, format }) => `${name}.${format}`)
      .sort();

  beforeAll(async () => {
    testApp = await createTestApp();
    // Not started: the queue only holds what is sent, so the test sees each job.
    jobs = createJobQueue({ database: testApp.database });
    await jobs.start();
    const imported = await Promise.all(
      [
        await makeAnimation({ frames: 5, width: 120, height: 90, seed: 41 }),
        await sharp({
          create: { width: 120, height: 90, channels: 3, background: { r: 30, g: 140, b: 90 } },
        })
          .gif()
          .toBuffer(),
      ].map((bytes, index) =>
        importMedia(
          { ...deps(), jobs },
          {
            bytes,
            fileName: `item-${index}.gif`,
            metadata: { title: `Item ${index}`, tags: [], type: 'gif' },
          },
        ),
      ),
    );
    [gifId, stillId] = imported.map((outcome) => {
      if (outcome.status !== 'imported') throw new Error(JSON.stringify(outcome));
      return outcome.itemId;
    }) as [string, string];
  }, 120_000);

  afterAll(async () => {
    await jobs?.stop();
    await testApp?.close();
  });

  it('lists the later renditions a plan has that an item lacks, video only with ffmpeg', () => {
    const gif = { type: 'gif', originalFormat: 'gif' as const, frames: 5 };
    const all = listMissingRenditions(gif, new Set(), true);
    expect(all).toContain('fixed_width.webm');
    expect(all).not.toContain('fixed_width.webp'); // ready, not later
    expect(listMissingRenditions(gif, new Set(all), true)).toEqual([]);
    expect(
      listMissingRenditions(gif, new Set(), false).some((key) => /\.(mp4|webm)$/.test(key)),
    ).toBe(false);
    const sticker = { type: 'sticker', originalFormat: 'gif' as const, frames: 5 };
    expect(listMissingRenditions(sticker, new Set(), true)).not.toContain('fixed_width.mp4');
  });

  it('makes only what is missing, and nothing, without decoding, when nothing is', async () => {
    // The ready tier is there; a job makes the rest.
    const first = await makeLaterRenditions(deps(), gifId);
    expect(first).toMatchObject({ status: 'made' });
    expect(await renditionsOf(gifId)).toEqual(plannedFor(true));

    // As an item made before its plan had the WebM tile.
    await testApp.database.pool.query(
      "DELETE FROM renditions WHERE item_id = $1 AND name = 'fixed_width' AND format = 'webm'",
      [gifId],
    );
    const process = vi.spyOn(testApp.media.processor, 'process');
    try {
      expect(await makeLaterRenditions(deps(), gifId)).toEqual({ status: 'made', renditions: 1 });
      expect(process).toHaveBeenCalledTimes(1);
      expect(process.mock.calls[0]![0].existing).toHaveLength(plannedFor(true).length - 1);
      expect(await renditionsOf(gifId)).toEqual(plannedFor(true));

      expect(await makeLaterRenditions(deps(), gifId)).toEqual({ status: 'made', renditions: 0 });
      expect(process).toHaveBeenCalledTimes(1);
    } finally {
      process.mockRestore();
    }
  }, 120_000);

  it('queues a job for each item that lacks renditions, and for no other', async () => {
    // The still's later renditions made; the GIF complete (the test before) but for one.
    await makeLaterRenditions(deps(), stillId);
    expect(await renditionsOf(stillId)).toEqual(plannedFor(false));
    await testApp.database.pool.query(
      "DELETE FROM renditions WHERE item_id = $1 AND name = 'fixed_width' AND format = 'webm'",
      [gifId],
    );
    await testApp.database.pool.query('DELETE FROM pgboss.job WHERE name = $1', [RENDITIONS_QUEUE]);

    const summary = await queueMissingRenditions(
      { database: testApp.database, jobs },
      { canMakeVideo: true, batchSize: 1 },
    );
    expect(summary).toEqual({ items: 2, queued: 1, renditions: 1 });
    const queued = await testApp.database.pool.query<{ item_id: string }>(
      "SELECT data->>'itemId' AS item_id FROM pgboss.job WHERE name = $1",
      [RENDITIONS_QUEUE],
    );
    expect(queued.rows).toEqual([{ item_id: gifId }]);

    // Without ffmpeg no video can be made: a missing WebM is not something to queue.
    expect(
      await queueMissingRenditions({ database: testApp.database, jobs }, { canMakeVideo: false }),
    ).toEqual({ items: 2, queued: 0, renditions: 0 });
  });

  it("queues an upload's later renditions ahead of the backlog's", async () => {
    await testApp.database.pool.query('DELETE FROM pgboss.job WHERE name = $1', [RENDITIONS_QUEUE]);
    const [owner] = (
      await testApp.database.pool.query<{ id: string }>(
        "INSERT INTO users (id, issuer, subject, email, name) VALUES ('u-later', 'test', 'later', 'uploader@example.com', 'Uploader') RETURNING id",
      )
    ).rows;
    const imports = [
      { title: 'Backlog', seed: 51 },
      { title: 'Upload', seed: 52, ownerId: owner!.id },
      { title: 'Backlog 2', seed: 53 },
    ];
    const ids: string[] = [];
    for (const { seed, ...metadata } of imports) {
      const outcome = await importMedia(
        { ...deps(), jobs },
        {
          bytes: await makeAnimation({ frames: 3, width: 60, height: 40, seed }),
          fileName: `${seed}.gif`,
          metadata: { ...metadata, tags: [], type: 'gif' },
        },
      );
      if (outcome.status !== 'imported') throw new Error(JSON.stringify(outcome));
      ids.push(outcome.itemId);
    }
    // pg-boss fetches the highest priority first, then the oldest.
    const queued = await testApp.database.pool.query<{ item_id: string }>(
      `SELECT data->>'itemId' AS item_id FROM pgboss.job WHERE name = $1
        ORDER BY priority DESC, created_on, id`,
      [RENDITIONS_QUEUE],
    );
    expect(queued.rows.map((row) => row.item_id)).toEqual([ids[1], ids[0], ids[2]]);
  }, 120_000);
});
