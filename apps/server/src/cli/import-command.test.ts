import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { titleFromFileName } from '@sticky/contracts';
import { resolveFfmpegPath } from '../catalog/import/encode-video.ts';
import { collectImportSources, sourceUrlOf } from '../catalog/import/import-folder.ts';
import { importMedia } from '../catalog/import/import-media.ts';
import {
  listMissingRenditions,
  makeLaterRenditions,
  RENDITIONS_QUEUE,
} from '../catalog/import/later-renditions.ts';
import type { StoredItemKind } from '../catalog/import/later-renditions.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { readRunningClusterUrl } from '../db/embedded.ts';
import { createJobQueue } from '../jobs/job-queue.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { createTestDatabase } from '../test-support/database.ts';
import { makeAnimation } from '../test-support/media.ts';
import { runCli, startServerProcess, waitForExit } from '../test-support/processes.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { formatLacking, formatRefusal, formatTimeLeft } from './import-command.ts';

async function makeGif(hue: number, frames = 3): Promise<Buffer> {
  const images = await Promise.all(
    Array.from({ length: frames }, (_, index) =>
      sharp({
        create: {
          width: 24,
          height: 16,
          channels: 3,
          background: { r: hue, g: index * 60, b: 80 },
        },
      })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(images, { join: { animated: true } })
    .gif({ delay: Array(frames).fill(100) })
    .toBuffer();
}

describe('folder sources', () => {
  it('titles a file after its name when no manifest describes it', () => {
    expect(titleFromFileName('/x/happy-dance_2.gif')).toBe('Happy dance 2');
    expect(titleFromFileName('cat.webp')).toBe('Cat');
  });

  it('links a manifest source: a URL, a GitHub file, an npm package', () => {
    expect(sourceUrlOf('https://example.com/a.gif')).toBe('https://example.com/a.gif');
    expect(sourceUrlOf('somewhere')).toBeUndefined();
    expect(sourceUrlOf({ repo: 'google/wuffs', commit: 'abc', path: 'test/a.gif' })).toBe(
      'https://github.com/google/wuffs/blob/abc/test/a.gif',
    );
    expect(sourceUrlOf({ package: 'fluentui-emoji', version: '1.0.0', path: 'x' })).toBe(
      'https://www.npmjs.com/package/fluentui-emoji/v/1.0.0',
    );
  });

  it('refuses a manifest that is not one, naming the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-manifest-'));
    fs.writeFileSync(path.join(dir, 'manifest.json'), '{"items": [{"title": 3}]}');
    await expect(collectImportSources([dir])).rejects.toThrow(/manifest\.json does not look like/);
    fs.writeFileSync(path.join(dir, 'manifest.json'), '{ nope');
    await expect(collectImportSources([dir])).rejects.toThrow(/is not valid JSON/);
    fs.rmSync(dir, { recursive: true });
  });
});

describe('what the import says after its summary', () => {
  it('estimates the time left at the pace so far, once an item is done', () => {
    expect(formatTimeLeft(0, 0, 10)).toBe('estimating the time left');
    expect(formatTimeLeft(4_000, 2, 10)).toBe('about 16 s left');
    expect(formatTimeLeft(60_000, 2, 10)).toBe('about 4 min left');
    expect(formatTimeLeft(9_000, 10, 10)).toBe('about 0 s left');
  });

  it('counts refused files and items that lack sizes in plain English', () => {
    expect(formatRefusal(1)).toBe('1 file was not imported: the reasons are above.');
    expect(formatRefusal(3)).toBe('3 files were not imported: the reasons are above.');
    expect(formatLacking(['a'])).toBe(
      '1 item lacks some of its other sizes: `npm run sticky -- renditions` tries again.',
    );
    expect(formatLacking(['a', 'b'])).toBe(
      '2 items lack some of their other sizes: `npm run sticky -- renditions` tries again.',
    );
  });
});

describe('npm run sticky -- import', () => {
  let database: TestDatabase;
  let folder: string;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-import-'));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-data-'));
    const first = await makeGif(200);
    fs.writeFileSync(path.join(folder, 'first.gif'), first);
    fs.writeFileSync(path.join(folder, 'first-again.gif'), first);
    fs.writeFileSync(
      path.join(folder, 'second.webp'),
      await sharp(await makeGif(30), { animated: true })
        .webp()
        .toBuffer(),
    );
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'just some words');
    fs.writeFileSync(
      path.join(folder, 'manifest.json'),
      JSON.stringify({
        items: [
          {
            file: 'first.gif',
            title: 'First one',
            tags: ['One', 'first'],
            type: 'sticker',
            category: 'animated-text',
            rating: 'pg',
          },
          { file: 'gone.gif', title: 'Gone' },
        ],
      }),
    );
  });
  afterAll(async () => {
    await database.destroy();
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports a folder with its manifest and sums up what happened to each file', async () => {
    const result = await runCli(['import', folder], {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      IMPORT_WORKERS: '1',
    });
    expect(result.stderr).not.toMatch(/Error/);
    // Two files refused: the exit code says so, and the summary says why.
    expect(result.code).toBe(65);
    expect(result.stderr).toContain('2 files were not imported: the reasons are above.');
    expect(result.stdout).toMatch(/^Imported 2, skipped 1 as duplicates, rejected 2 \(4 files/m);
    expect(result.stdout).toMatch(/first(-again)?\.gif: same as item [0-9A-Za-z]{18}/);
    expect(result.stdout).toContain('notes.txt: it is not a GIF, WebP, PNG or JPEG image');
    expect(result.stdout).toContain('gone.gif: listed in manifest.json but not found');

    const items = await database.pool.query(
      'SELECT title, type, rating, tags, original_format FROM items ORDER BY title',
    );
    expect(items.rows).toEqual([
      {
        title: 'First one',
        type: 'sticker',
        rating: 'pg',
        tags: ['one', 'first'],
        original_format: 'gif',
      },
      { title: 'Second', type: 'gif', rating: 'g', tags: [], original_format: 'webp' },
    ]);
    const category = await database.pool.query(
      `SELECT c.name, c.name_encoded FROM categories c JOIN item_categories ic ON ic.category_id = c.id`,
    );
    expect(category.rows).toEqual([{ name: 'Animated text', name_encoded: 'animated-text' }]);
    const job = await database.pool.query('SELECT finished_at, summary FROM import_jobs');
    expect(job.rows).toHaveLength(1);
    expect(job.rows[0].finished_at).not.toBeNull();
    expect(job.rows[0].summary).toMatchObject({ imported: 2, duplicates: 1 });

    const again = await runCli(['import', path.join(folder, 'first.gif')], {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Imported 0, skipped 1 as duplicates, rejected 0/m);
    // Imports stay public, listed in search and trending (docs/uploads.md, "Visibility").
    const shown = await database.pool.query('SELECT DISTINCT visibility, is_indexable FROM items');
    expect(shown.rows).toEqual([{ visibility: 'public', is_indexable: true }]);
  });

  it('imports unlisted when asked with --visibility, and names a wrong value', async () => {
    const input = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-unlisted-'));
    fs.writeFileSync(path.join(input, 'quiet-one.gif'), await makeGif(77));
    try {
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, IMPORT_WORKERS: '1' };
      const wrong = await runCli(['import', input, '--visibility', 'friends'], env);
      expect(wrong.code).toBe(64);
      expect(wrong.stderr).toContain(
        '--visibility must be public, unlisted or private, got "friends"',
      );
      const result = await runCli(['import', input, '--visibility', 'unlisted'], env);
      expect(result.code, result.stderr).toBe(0);
      const row = await database.pool.query(
        `SELECT visibility, is_indexable FROM items WHERE title = 'Quiet one'`,
      );
      expect(row.rows).toEqual([{ visibility: 'unlisted', is_indexable: false }]);
    } finally {
      fs.rmSync(input, { recursive: true, force: true });
    }
  });

  it('imports nothing below the free-space floor, and says why in one line', async () => {
    const itemsBefore = await database.pool.query('SELECT count(*)::int AS n FROM items');
    // A floor no disk reaches: a petabyte.
    const result = await runCli(['import', folder], {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      MIN_FREE_DISK_MB: String(1024 ** 3),
    });
    expect(result.code).toBe(75);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Nothing was imported: the disk of DATA_DIR \(.+\) has \d+ MB free, under MIN_FREE_DISK_MB \(1073741824 MB\)\. Free some space and run this again\.$/,
      ),
    ]);
    expect(result.stderr).toContain(`DATA_DIR (${dataDir})`);
    expect(result.stdout).not.toMatch(/Imported/);
    const itemsAfter = await database.pool.query('SELECT count(*)::int AS n FROM items');
    expect(itemsAfter.rows[0].n).toBe(itemsBefore.rows[0].n);
  });

  it('says to stop the server (or use DATABASE_URL) when a server holds DATA_DIR', async () => {
    const busy = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-busy-'));
    // This test process is alive: it stands in for a running server.
    fs.writeFileSync(path.join(busy, 'sticky.pid'), String(process.pid));
    const result = await runCli(['import', folder], { DATA_DIR: busy });
    expect(result.code).toBe(75);
    // No PostgreSQL of that DATA_DIR is running here to join.
    expect(result.stderr).toContain(`A Sticky server (pid ${process.pid}) is running`);
    expect(result.stderr).toContain('Stop the server');
    expect(result.stderr).toContain('DATABASE_URL');
    expect(fs.readFileSync(path.join(busy, 'sticky.pid'), 'utf8')).toBe(String(process.pid));
    fs.rmSync(busy, { recursive: true, force: true });
  });

  it('imports beside a running server, into the embedded database that server holds', async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-beside-'));
    const input = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-beside-input-'));
    fs.writeFileSync(path.join(input, 'beside-the-server.gif'), await makeGif(201, 4));
    const server = await startServerProcess({
      DATA_DIR: shared,
      STICKY_API_KEYS: 'beside-the-server-key-0123456789abcdef',
    });
    const { url } = server;
    const pool = new pg.Pool({ connectionString: readRunningClusterUrl(shared)!, max: 1 });
    try {
      // The server shows its rendition workers from its first heartbeat on (job-queue.ts).
      await waitForRegisteredWorker({ pool });
      const result = await runCli(['import', input], { DATA_DIR: shared });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Imported 1, skipped 0 as duplicates, rejected 0');
      expect(result.stdout).toContain('the running server makes the other sizes.');
      // The running server serves it at once: one database, one media folder.
      const search = await fetch(
        `${url}/v1/gifs/search?q=beside&api_key=beside-the-server-key-0123456789abcdef`,
      );
      const { data } = (await search.json()) as { data: Array<{ title: string }> };
      expect(data.map((item) => item.title)).toEqual(['Beside the server']);
      const still = await fetch(`${url}/readyz`);
      expect(still.status).toBe(200);
      // And it makes them.
      const { rows } = await pool.query<{ id: string }>('SELECT id FROM items');
      await expect
        .poll(() => listMissingOf({ pool }, rows[0]!.id), { timeout: 60_000 })
        .toEqual([]);
    } finally {
      await pool.end();
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
      fs.rmSync(shared, { recursive: true, force: true });
      fs.rmSync(input, { recursive: true, force: true });
    }
  }, 180_000);

  it('imports beside a running server on the same external PostgreSQL (DATABASE_URL)', async () => {
    const external = await createTestDatabase();
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-external-'));
    const input = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-external-input-'));
    fs.writeFileSync(path.join(input, 'external-postgres-puffin.gif'), await makeGif(202, 4));
    const key = 'external-postgres-key-0123456789abcdef';
    const server = await startServerProcess({
      DATA_DIR: shared,
      DATABASE_URL: external.url,
      STICKY_API_KEYS: key,
    });
    try {
      const result = await runCli(['import', input], {
        DATA_DIR: shared,
        DATABASE_URL: external.url,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Imported 1, skipped 0 as duplicates, rejected 0');
      // The running server finds it at once (its caches follow the database's catalog
      // version) and serves its files.
      const search = await fetch(`${server.url}/v1/gifs/search?q=puffin&api_key=${key}`);
      const { data } = (await search.json()) as {
        data: Array<{ title: string; images: { original: { url: string } } }>;
      };
      expect(data.map((item) => item.title)).toEqual(['External postgres puffin']);
      const file = await fetch(data[0]!.images.original.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/gif');
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
      await external.destroy();
      fs.rmSync(shared, { recursive: true, force: true });
      fs.rmSync(input, { recursive: true, force: true });
    }
  }, 180_000);

  it('explains its usage on an unknown command or a missing argument', async () => {
    const unknown = await runCli(['frobnicate'], { DATA_DIR: dataDir });
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    expect(unknown.stdout).toContain('import');
    const missing = await runCli(['import'], { DATA_DIR: dataDir });
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain('Usage: npm run sticky -- import');
  });
});

/** The later renditions an item's plan has and it lacks (later-renditions.ts). */
async function listMissingOf(
  database: Pick<DatabaseHandle, 'pool'>,
  itemId: string,
): Promise<string[]> {
  const { rows } = await database.pool.query<{
    type: string;
    original_format: StoredItemKind['originalFormat'];
    frames: number;
    existing: string[];
  }>(
    `SELECT i.type, i.original_format, i.frames,
       array(SELECT r.name || '.' || r.format FROM renditions r WHERE r.item_id = i.id) AS existing
     FROM items i WHERE i.id = $1`,
    [itemId],
  );
  const row = rows[0]!;
  return listMissingRenditions(
    { type: row.type, originalFormat: row.original_format, frames: row.frames },
    new Set(row.existing),
    resolveFfmpegPath() !== undefined,
  );
}

/** Each item's rendition job, by the state pg-boss's job table gives it. */
async function readJobStates(
  database: DatabaseHandle,
  itemIds: readonly string[],
): Promise<string[]> {
  const { rows } = await database.pool.query<{ state: string }>(
    `SELECT state FROM pgboss.job WHERE name = $1 AND data->>'itemId' = ANY($2::text[])
     ORDER BY data->>'itemId'`,
    [RENDITIONS_QUEUE, itemIds],
  );
  return rows.map((row) => row.state);
}

async function readItemId(database: DatabaseHandle, title: string): Promise<string> {
  const { rows } = await database.pool.query<{ id: string }>(
    'SELECT id FROM items WHERE title = $1',
    [title],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

/**
 * Resolves once pg-boss's instance registry shows a live worker of the renditions queue: what
 * the CLI reads to know that a server will make the other sizes.
 */
async function waitForRegisteredWorker(database: Pick<DatabaseHandle, 'pool'>): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await database.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pgboss.instance i, jsonb_array_elements(i.workers) w
             WHERE i.stopped_on IS NULL AND w->>'queue' = $1`,
            [RENDITIONS_QUEUE],
          )
        ).rows[0]!.n,
      { timeout: 60_000, interval: 200 },
    )
    .toBeGreaterThan(0);
}

describe('npm run sticky -- import: the other sizes of what it imported', () => {
  let testApp: TestApp;
  /** The test's own queue: it sends the backlog's jobs and runs none. */
  let jobs: JobQueue;
  let input: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    testApp = await createTestApp();
    jobs = createJobQueue({ database: testApp.database });
    await jobs.start();
    input = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-cli-sizes-'));
    env = {
      DATABASE_URL: testApp.database.url,
      DATA_DIR: testApp.dataDir,
      IMPORT_WORKERS: '1',
    };
  });
  afterEach(async () => {
    await jobs.stop();
    await testApp.close();
    fs.rmSync(input, { recursive: true, force: true });
  });

  const makeFile = async (name: string, seed: number) => {
    const bytes = await makeAnimation({ frames: 3, width: 32, height: 24, seed });
    fs.writeFileSync(path.join(input, name), bytes);
    return { file: path.join(input, name), bytes };
  };

  /** Items in the catalog whose later renditions are still queued: the catalog's backlog. */
  const importBacklog = async (seeds: number[]) => {
    const ids: string[] = [];
    for (const seed of seeds) {
      const outcome = await importMedia(
        { config: testApp.config, database: testApp.database, media: testApp.media, jobs },
        {
          bytes: await makeAnimation({ frames: 3, width: 32, height: 24, seed }),
          fileName: `backlog-${seed}.gif`,
          metadata: { title: `Backlog ${seed}`, tags: [], type: 'gif' },
        },
      );
      if (outcome.status !== 'imported') throw new Error(JSON.stringify(outcome));
      ids.push(outcome.itemId);
    }
    expect(await readJobStates(testApp.database, ids)).toEqual(ids.map(() => 'created'));
    return ids;
  };

  /**
   * A server's rendition workers, busy with the backlog: each backlog job is held (a slow
   * rendition) until the test ends, while any other item's renditions are made at once.
   */
  const startBusyServer = async (backlog: readonly string[]) => {
    const server = createJobQueue({ database: testApp.database, heartbeatSeconds: 1 });
    await server.start();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await server.work<{ itemId: string }>(
      RENDITIONS_QUEUE,
      { concurrency: backlog.length + 2, pollingIntervalSeconds: 0.5 },
      async ({ itemId }) => {
        if (backlog.includes(itemId)) await released;
        else await makeLaterRenditions(testApp, itemId);
      },
    );
    await waitForRegisteredWorker(testApp.database);
    return {
      stop: async () => {
        release();
        await server.stop({ timeoutMs: 5_000 });
      },
    };
  };

  it('returns once its items are in beside a server busy with a backlog, for a new file and a duplicate', async () => {
    const backlog = await importBacklog([1, 2, 3]);
    const server = await startBusyServer(backlog);
    try {
      const fresh = await makeFile('fresh-arrival.gif', 10);
      const result = await runCli(['import', fresh.file], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^Imported 1, skipped 0 as duplicates, rejected 0/m);
      expect(result.stdout).toContain(
        'Imported items are visible now; the running server makes the other sizes.',
      );
      // It returned with the backlog still undone: it waited for none of it.
      expect(await readJobStates(testApp.database, backlog)).toEqual(
        backlog.map(() => expect.stringMatching(/^(created|active)$/)),
      );

      const duplicate = path.join(input, 'same-as-backlog.gif');
      fs.writeFileSync(
        duplicate,
        await makeAnimation({ frames: 3, width: 32, height: 24, seed: 1 }),
      );
      const again = await runCli(['import', duplicate], env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^Imported 0, skipped 1 as duplicates, rejected 0/m);
      expect(await readJobStates(testApp.database, backlog)).toEqual(
        backlog.map(() => expect.stringMatching(/^(created|active)$/)),
      );

      // The server makes the new item's other sizes from the job the import queued.
      const freshId = await readItemId(testApp.database, 'Fresh arrival');
      await expect
        .poll(() => listMissingOf(testApp.database, freshId), { timeout: 60_000 })
        .toEqual([]);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('without a server, makes the other sizes of the items it imported, and only those', async () => {
    const backlog = await importBacklog([4, 5]);
    const first = await makeFile('first-of-two.gif', 11);
    const second = await makeFile('second-of-two.gif', 12);
    const result = await runCli(['import', first.file, second.file], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Imported 2, skipped 0 as duplicates, rejected 0/m);
    expect(result.stdout).not.toContain('running server');

    const ownIds = [
      await readItemId(testApp.database, 'First of two'),
      await readItemId(testApp.database, 'Second of two'),
    ];
    for (const itemId of ownIds) expect(await listMissingOf(testApp.database, itemId)).toEqual([]);
    // Their jobs are done, so no server makes them again.
    expect(await readJobStates(testApp.database, ownIds)).toEqual(['completed', 'completed']);
    // The other items' missing renditions stay missing, queued for a server.
    for (const itemId of backlog) {
      expect(await listMissingOf(testApp.database, itemId)).not.toEqual([]);
    }
    expect(await readJobStates(testApp.database, backlog)).toEqual(['created', 'created']);
  }, 120_000);

  it('without a server, finishes the item of a file already there that a stopped run left without its other sizes', async () => {
    // Two items whose jobs wait: as a run stopped with Ctrl-C leaves them.
    const [stopped, other] = await importBacklog([8, 9]);
    const again = path.join(input, 'stopped-run.gif');
    fs.writeFileSync(again, await makeAnimation({ frames: 3, width: 32, height: 24, seed: 8 }));
    const result = await runCli(['import', again], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Imported 0, skipped 1 as duplicates, rejected 0/m);
    expect(await listMissingOf(testApp.database, stopped!)).toEqual([]);
    expect(await listMissingOf(testApp.database, other!)).not.toEqual([]);
    expect(await readJobStates(testApp.database, [other!])).toEqual(['created']);
  }, 120_000);

  it('--wait beside a busy server waits for its own items’ sizes, not the backlog', async () => {
    const backlog = await importBacklog([6, 7]);
    const server = await startBusyServer(backlog);
    try {
      const own = await makeFile('waited-for.gif', 13);
      const result = await runCli(['import', '--wait', own.file], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('the running server makes the other sizes.');
      expect(result.stdout).toContain('Every size of these items is made.');
      // When it returned, its item had every size and the backlog was still undone.
      const ownId = await readItemId(testApp.database, 'Waited for');
      expect(await listMissingOf(testApp.database, ownId)).toEqual([]);
      expect(await readJobStates(testApp.database, backlog)).toEqual(
        backlog.map(() => expect.stringMatching(/^(created|active)$/)),
      );
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('exits non-zero with the reason when a file is refused', async () => {
    const notes = path.join(input, 'notes.txt');
    fs.writeFileSync(notes, 'just some words');
    const kept = await makeFile('kept-one.gif', 14);
    const result = await runCli(['import', notes, kept.file], env);
    expect(result.code).toBe(65);
    expect(result.stdout).toMatch(/^Imported 1, skipped 0 as duplicates, rejected 1/m);
    expect(result.stdout).toContain('notes.txt: it is not a GIF, WebP, PNG or JPEG image');
    expect(result.stderr.trim()).toBe('1 file was not imported: the reasons are above.');
  }, 120_000);
});
