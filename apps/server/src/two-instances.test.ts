import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CreateUploadsResponse, ListUploadsResponse } from '@sticky/contracts';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './db/embedded.ts';
import type { EmbeddedDatabase } from './db/embedded.ts';
import { startServerProcess, waitForExit } from './test-support/processes.ts';
import type { ServerProcess } from './test-support/processes.ts';
import { startTestS3 } from './test-support/s3.ts';
import type { TestS3 } from './test-support/s3.ts';
import { insertPersonWithCredentials } from './test-support/sign-in.ts';
import { buildMultipart, makeAnimation } from './test-support/uploads.ts';

const apiKey = 'two-instances-key-0123456789abcdefghij';

interface Instance extends ServerProcess {
  name: string;
}

/**
 * Two Sticky servers on one PostgreSQL and one S3 bucket, both started here, as a team runs
 * them behind a load balancer (docs/scaling.md, "Several instances"): whatever one does, the
 * other serves at once, and either finishes the other's work.
 */
describe('two servers on one PostgreSQL and one bucket', () => {
  let postgres: EmbeddedDatabase;
  let s3: TestS3;
  let admin: pg.Pool;
  let postgresDir: string;
  const instances: Instance[] = [];
  let bearer: Record<string, string>;
  let cookie: string;

  async function startInstance(name: string): Promise<Instance> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sticky-${name}-`));
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      STICKY_API_KEYS: apiKey,
      UPLOAD_WORKERS: '1',
      IMPORT_WORKERS: '1',
      LOCAL_SIGN_IN: '1',
      ...s3.env,
    });
    server.child.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const instance = { name, ...server };
    instances.push(instance);
    return instance;
  }

  const write = (instance: Instance, method: string, route: string, body?: unknown) =>
    fetch(`${instance.url}${route}`, {
      method,
      headers: {
        cookie,
        origin: instance.url,
        'sec-fetch-site': 'same-origin',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const listUploads = async (instance: Instance) =>
    (
      (await (
        await fetch(`${instance.url}/api/uploads?limit=100`, { headers: bearer })
      ).json()) as ListUploadsResponse
    ).uploads;
  const searchTitles = async (instance: Instance, query: string) =>
    (
      (await (
        await fetch(`${instance.url}/v1/gifs/search?q=${query}&api_key=${apiKey}`)
      ).json()) as { data: Array<{ title: string }> }
    ).data.map((item) => item.title);
  const upload = async (instance: Instance, files: Array<{ name: string; bytes: Buffer }>) => {
    const form = buildMultipart(files);
    const response = await fetch(`${instance.url}/api/uploads`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': form.contentType },
      body: form.body,
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as CreateUploadsResponse).uploads;
  };
  const count = async (sql: string) => (await admin.query<{ n: number }>(sql)).rows[0]!.n;

  beforeAll(async () => {
    postgresDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-two-pg-'));
    fs.chmodSync(postgresDir, 0o755);
    postgres = await startEmbeddedPostgres(postgresDir, pino({ level: 'silent' }));
    s3 = await startTestS3();
    await startInstance('a');
    await startInstance('b');
    admin = new pg.Pool({ connectionString: postgres.url, max: 2 });
    ({ cookie, bearer } = await insertPersonWithCredentials(admin, {
      email: 'pat@example.com',
      name: 'Pat',
    }));
  }, 180_000);
  afterAll(async () => {
    for (const instance of instances) {
      instance.child.kill('SIGTERM');
      await waitForExit(instance.child);
    }
    await admin?.end();
    await s3?.close();
    await postgres?.stop();
    fs.rmSync(postgresDir, { recursive: true, force: true });
  });

  it('serves from B what was uploaded to A, keeps favorites and edits in step', async () => {
    const [a, b] = instances as [Instance, Instance];
    const [receipt] = await upload(a, [
      { name: 'Tandem_otter.gif', bytes: await makeAnimation({ format: 'gif', size: 48 }) },
    ]);
    await expect
      .poll(async () => (await listUploads(b)).find((u) => u.id === receipt!.uploadId)?.state, {
        timeout: 60_000,
      })
      .toBe('ready');
    const itemId = (await listUploads(b)).find((u) => u.id === receipt!.uploadId)!.itemId!;

    // B serves its media, from the bucket.
    const gif = (await (await fetch(`${b.url}/v1/gifs/${itemId}?api_key=${apiKey}`)).json()) as {
      data: { images: { fixed_width: { url: string } } };
    };
    const media = await fetch(gif.data.images.fixed_width.url.replace(a.url, b.url));
    expect(media.status).toBe(200);
    expect((await s3.listKeys()).length).toBeGreaterThan(0);

    // A favorite made on B is on A.
    expect((await write(b, 'PUT', `/api/favorites/${itemId}`)).status).toBe(200);
    const favorites = (await (
      await fetch(`${a.url}/api/favorites`, { headers: { cookie } })
    ).json()) as {
      ids: string[];
    };
    expect(favorites.ids).toEqual([itemId]);

    // B answers a search and keeps it; an edit on A moves it on B.
    expect(await searchTitles(b, 'otter')).toEqual(['Tandem otter']);
    const edited = await write(a, 'PATCH', `/api/items/${itemId}`, { title: 'Tandem beaver' });
    expect(edited.status).toBe(200);
    // B hears of it by notification (docs/catalog.md, "Caches and versions"), a moment later:
    // the suite's poll timeout is a guard against a hang, not a promise of speed.
    await expect.poll(() => searchTitles(b, 'otter'), { interval: 20 }).toEqual([]);
    expect(await searchTitles(b, 'beaver')).toEqual(['Tandem beaver']);
  }, 120_000);

  it('leaves the unfinished uploads of a server killed with kill -9 to the others, still running', async () => {
    // A server of its own to kill (C): A and B stay up for every test, whatever their order.
    const [, b] = instances as [Instance, Instance];
    const c = await startInstance('c');
    const files = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => ({
        name: `relay-${index}.gif`,
        bytes: await makeAnimation({ format: 'gif', frames: 10, size: 150 + index }),
      })),
    );
    const receipts = await upload(c, files);
    const ids = receipts.map((receipt) => receipt.uploadId!);
    const readJobs = async () =>
      (
        await admin.query<{ active: number; waiting: number; retried: number }>(
          `SELECT count(*) FILTER (WHERE state = 'active')::int AS active,
             count(*) FILTER (WHERE state = 'created')::int AS waiting,
             count(*) FILTER (WHERE retry_count > 0)::int AS retried
           FROM pgboss.job WHERE name = 'process-uploads' AND data->>'uploadId' = ANY($1::text[])`,
          [ids],
        )
      ).rows[0]!;
    // Each server runs one upload at a time (UPLOAD_WORKERS=1, and the queue fetches one job per
    // worker: jobs/job-queue.ts), so while three run, one is C's; and while more wait, C takes
    // the next one the moment it finishes one. So C dies holding a job.
    await expect
      .poll(
        async () => {
          const jobs = await readJobs();
          return jobs.active === 3 && jobs.waiting > 0;
        },
        { timeout: 60_000, interval: 20 },
      )
      .toBe(true);
    c.child.kill('SIGKILL');
    await waitForExit(c.child);

    // A and B, which ran all along, finish every upload. C's job comes back to the queue once
    // its heartbeats stop (heartbeatSeconds 10, seen by a supervisor every 10 s), marked so by
    // pg-boss until it is done again.
    let isHandedBack = false;
    await expect
      .poll(
        async () => {
          const lapsed = await admin.query(
            `SELECT 1 FROM pgboss.job WHERE name = 'process-uploads'
               AND data->>'uploadId' = ANY($1::text[])
               AND output->'value'->>'message' = 'job heartbeat timeout'`,
            [ids],
          );
          isHandedBack ||= lapsed.rowCount! > 0;
          return (await listUploads(b)).filter((u) => ids.includes(u.id) && u.state === 'ready')
            .length;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(files.length);
    expect(isHandedBack).toBe(true);
    // Every claim after the first counts a retry: the job A held was run again.
    expect((await readJobs()).retried).toBeGreaterThanOrEqual(1);
    expect(await count('SELECT count(*)::int AS n FROM upload_files')).toBe(0);
    // Every file the items refer to is in the bucket.
    const keys = new Set(await s3.listKeys());
    const paths = (await admin.query<{ path: string }>('SELECT DISTINCT path FROM renditions'))
      .rows;
    const relayPaths = (
      await admin.query<{ path: string }>(
        `SELECT DISTINCT r.path FROM renditions r JOIN uploads u ON u.item_id = r.item_id
         WHERE u.id = ANY($1::text[])`,
        [ids],
      )
    ).rows;
    expect(relayPaths.length).toBeGreaterThanOrEqual(files.length);
    expect(paths.filter((row) => !keys.has(row.path))).toEqual([]);
  }, 150_000);
});
