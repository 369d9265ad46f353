import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CreateUploadsResponse, ListUploadsResponse } from '@sticky/contracts';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from './db/client.ts';
import { findFreePort, startEmbeddedPostgres } from './db/embedded.ts';
import type { EmbeddedDatabase } from './db/embedded.ts';
import { startServerProcess, waitForExit } from './test-support/processes.ts';
import type { ServerProcess } from './test-support/processes.ts';
import { startStreamingReplica } from './test-support/streaming-replica.ts';
import type { StreamingReplica } from './test-support/streaming-replica.ts';
import { insertPersonWithCredentials } from './test-support/sign-in.ts';
import { buildMultipart, makeAnimation } from './test-support/uploads.ts';

const apiKey = 'read-replica-key-0123456789abcdefghijkl';

/**
 * A Sticky server on a primary and a real streaming replica, both started here
 * (docs/scaling.md, "A read replica"): the catalog is read from the replica while it has
 * replayed every change the server knows of, from the primary otherwise.
 */
describe('a read replica (DATABASE_READ_URL)', () => {
  let primaryDir: string;
  let dataDir: string;
  let primary: EmbeddedDatabase;
  let replica: StreamingReplica;
  let server: ServerProcess;
  let admin: pg.Pool;
  let standby: pg.Pool;
  let cookie: string;
  let itemId: string;
  let queryNumber = 0;

  const get = (route: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${route}${route.includes('?') ? '&' : '?'}api_key=${apiKey}`, {
      headers,
    });
  const write = (method: string, route: string, body?: unknown) =>
    fetch(`${server.url}${route}`, {
      method,
      headers: {
        cookie,
        origin: server.url,
        'sec-fetch-site': 'same-origin',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const searchTitles = async (query: string) => {
    const response = await get(`/v1/gifs/search?q=${encodeURIComponent(query)}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Array<{ title: string }> }).data.map(
      (item) => item.title,
    );
  };
  const titleById = async (id: string) => {
    const response = await get(`/v1/gifs/${id}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { title: string } }).data.title;
  };
  /** The replica's clock, to tell which of its statements came after. */
  const replicaClock = async () =>
    (await standby.query<{ now: string }>('SELECT clock_timestamp()::text AS now')).rows[0]!.now;
  /** Statements the server's catalog reads started on the replica since `since`. */
  const replicaReadsSince = async (since: string) =>
    (
      await standby.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE application_name = 'sticky-reads' AND query_start > $1::timestamptz`,
        [since],
      )
    ).rows[0]!.n;
  /** Whether a search never asked before (nothing kept for it) is answered by the replica. */
  const isReplicaServing = async () => {
    const since = await replicaClock();
    queryNumber += 1;
    expect(await searchTitles(`nothing-here-${queryNumber}`)).toEqual([]);
    return (await replicaReadsSince(since)) > 0;
  };

  beforeAll(async () => {
    primaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-primary-'));
    fs.chmodSync(primaryDir, 0o755);
    primary = await startEmbeddedPostgres(primaryDir, pino({ level: 'silent' }));
    replica = await startStreamingReplica(primary.url, primaryDir);
    standby = new pg.Pool({ connectionString: replica.url, max: 2 });
    // Its idle connections end when the replica is stopped on purpose (below).
    standby.on('error', () => {});
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-replica-app-'));
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: primary.url,
      DATABASE_READ_URL: replica.url,
      STICKY_API_KEYS: apiKey,
      UPLOAD_WORKERS: '1',
      IMPORT_WORKERS: '1',
      LOCAL_SIGN_IN: '1',
    });
    admin = new pg.Pool({ connectionString: primary.url, max: 2 });
    // Written on the primary, as the server writes them.
    const person = await insertPersonWithCredentials(admin, {
      email: 'ria@example.com',
      name: 'Ria',
    });
    cookie = person.cookie;
    const { bearer } = person;
    const form = buildMultipart([
      { name: 'Tandem_otter.gif', bytes: await makeAnimation({ format: 'gif', size: 48 }) },
    ]);
    const uploaded = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': form.contentType },
      body: form.body,
    });
    expect(uploaded.status).toBe(202);
    const [receipt] = ((await uploaded.json()) as CreateUploadsResponse).uploads;
    // A plain loop: expect.poll only runs inside a test (the hook's timeout bounds this one).
    for (;;) {
      const { uploads } = (await (
        await fetch(`${server.url}/api/uploads?limit=10`, { headers: bearer })
      ).json()) as ListUploadsResponse;
      const upload = uploads.find((candidate) => candidate.id === receipt!.uploadId);
      expect(upload?.state).not.toBe('failed');
      if (upload?.state === 'ready') {
        itemId = upload.itemId!;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Its later renditions and the related lists are made behind it, each moving the catalog
    // version, which sends reads to the primary until the replica has replayed it. On a busy
    // machine that went on for a minute: the tests start once the jobs are done and the
    // versions have stood still for a second.
    let lastVersions = '';
    let stillSince = Date.now();
    for (;;) {
      const { rows } = await admin.query<{ versions: string; jobs: number }>(
        `SELECT (SELECT version FROM catalog_version) || '/' ||
           (SELECT version FROM popularity_version) AS versions,
         (SELECT count(*)::int FROM pgboss.job WHERE state IN ('created', 'retry', 'active')) AS jobs`,
      );
      const { versions, jobs } = rows[0]!;
      if (versions !== lastVersions || jobs > 0) {
        lastVersions = versions;
        stillSince = Date.now();
      } else if (Date.now() - stillSince >= 1_000) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 240_000);

  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
    }
    await admin?.end();
    await standby?.end();
    await replica?.destroy();
    await primary?.stop();
    for (const dir of [dataDir, primaryDir]) {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads search, trending and items by id from the replica once it has caught up', async () => {
    // Each read is tried until the replica serves it. Before a try the catalog version moves,
    // so nothing kept answers it without a read (the item's JSON, the query's ranking, the
    // trending page), and the try waits until the replica has replayed that move; a change
    // landing in between (a search's statistics, a counted view) sends the read to the
    // primary for the moment the replica takes to replay it (docs/scaling.md, "A read
    // replica"), and the read is tried again.
    for (const [route, check] of [
      [`/v1/gifs/${itemId}`, async () => expect(await titleById(itemId)).toBe('Tandem otter')],
      [
        '/v1/gifs/search?q=otter',
        async () => expect(await searchTitles('otter')).toEqual(['Tandem otter']),
      ],
      ['/v1/gifs/trending', async () => expect((await get('/v1/gifs/trending')).status).toBe(200)],
    ] as const) {
      await expect
        .poll(
          async () => {
            await admin.query('SELECT sticky_catalog_version_bump()');
            await expect.poll(isReplicaServing, { timeout: 60_000, interval: 20 }).toBe(true);
            const since = await replicaClock();
            await check();
            return (await replicaReadsSince(since)) > 0;
          },
          { timeout: 90_000, interval: 20, message: route },
        )
        .toBe(true);
    }
  }, 240_000);

  it('reads from the primary while the replica lags behind an edit, and keeps nothing stale', async () => {
    await expect.poll(isReplicaServing, { timeout: 60_000, interval: 20 }).toBe(true);
    await standby.query('SELECT pg_wal_replay_pause()');
    try {
      expect(
        (await write('PATCH', `/api/items/${itemId}`, { title: 'Tandem beaver' })).status,
      ).toBe(200);
      // The replica has not seen the edit…
      await expect
        .poll(async () => (await standby.query('SELECT pg_is_wal_replay_paused() AS p')).rows[0].p)
        .toBe(true);
      const stale = await standby.query<{ title: string }>(
        'SELECT title FROM items WHERE id = $1',
        [itemId],
      );
      expect(stale.rows[0]!.title).toBe('Tandem otter');
      // …so the server's reads go to the primary: the edit shows at once.
      const since = await replicaClock();
      expect(await searchTitles('beaver')).toEqual(['Tandem beaver']);
      expect(await searchTitles('otter')).toEqual([]);
      expect(await titleById(itemId)).toBe('Tandem beaver');
      expect(await replicaReadsSince(since)).toBe(0);
    } finally {
      await standby.query('SELECT pg_wal_replay_resume()');
    }
    // Once the replica has replayed the edit it serves again, and shows the edit too.
    await expect.poll(isReplicaServing, { timeout: 60_000, interval: 20 }).toBe(true);
    expect(await searchTitles('beaver')).toEqual(['Tandem beaver']);
    expect(await searchTitles('otter')).toEqual([]);
    const since = await replicaClock();
    expect(await searchTitles('tandem')).toEqual(['Tandem beaver']);
    expect(await replicaReadsSince(since)).toBeGreaterThan(0);
  }, 120_000);

  it('keeps sessions, favorites and counted views on the primary', async () => {
    await expect.poll(isReplicaServing, { timeout: 60_000, interval: 20 }).toBe(true);
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((await write('PUT', `/api/favorites/${itemId}`)).status).toBe(200);
    const favorites = (await (
      await fetch(`${server.url}/api/favorites`, { headers: { cookie } })
    ).json()) as { ids: string[] };
    expect(favorites.ids).toEqual([itemId]);
    // A GET of /v1 that writes: its write goes to the primary, never the read-only replica.
    const seen = await get(`/v1/pingback_simple?gif_id=${itemId}&action_type=CLICK`, {
      cookie,
      'sec-fetch-site': 'same-origin',
    });
    expect(seen.status).toBe(200);
    const events = await admin.query(
      `SELECT kind FROM item_events WHERE item_id = $1 ORDER BY kind`,
      [itemId],
    );
    expect(events.rows.map((row: { kind: string }) => row.kind)).toContain('view');
  }, 120_000);

  it('answers from the primary while the replica is down, and from the replica once it is back', async () => {
    await expect.poll(isReplicaServing, { timeout: 60_000, interval: 20 }).toBe(true);
    await replica.stop();
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect(await searchTitles(`gone-${attempt}`)).toEqual([]);
        expect(await searchTitles('beaver')).toEqual(['Tandem beaver']);
        expect(await titleById(itemId)).toBe('Tandem beaver');
        expect((await get('/v1/stickers/trending')).status).toBe(200);
      }
      // Said once, not once per request.
      expect(
        server.output().match(/read replica \(DATABASE_READ_URL\) does not answer/g),
      ).toHaveLength(1);
    } finally {
      await replica.start();
    }
    await expect.poll(isReplicaServing, { timeout: 30_000, interval: 50 }).toBe(true);
  }, 120_000);

  it('refuses at start-up a read URL that is not a standby of the primary, or does not answer', async () => {
    const closedPort = await findFreePort();
    for (const [readUrl, expected] of [
      [
        primary.url,
        /^DATABASE_READ_URL \(127\.0\.0\.1:\d+\/sticky\) cannot be used: it is not a standby/,
      ],
      [
        primary.url.replace(/:\d+\//, `:${closedPort}/`),
        /^DATABASE_READ_URL \(127\.0\.0\.1:\d+\/sticky\) cannot be used: nothing answers there/,
      ],
    ] as const) {
      const database = connectDatabase(primary.url, { readUrl });
      try {
        const error = await database.replica!.check().catch((caught: unknown) => caught);
        expect((error as Error).message).toMatch(expected);
        expect((error as Error).message).not.toContain('\n');
      } finally {
        await database.close();
      }
    }
  });
});
