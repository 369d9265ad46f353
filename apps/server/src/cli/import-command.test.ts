import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titleFromFileName } from '@sticky/contracts';
import { collectImportSources, sourceUrlOf } from '../catalog/import/import-folder.ts';
import { createTestDatabase } from '../test-support/database.ts';
import { runCli, startServerProcess, waitForExit } from '../test-support/processes.ts';
import type { TestDatabase } from '../test-support/database.ts';

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
    expect(result.code).toBe(0);
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
    try {
      const result = await runCli(['import', input], { DATA_DIR: shared });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Imported 1, skipped 0 as duplicates, rejected 0');
      // The running server serves it at once: one database, one media folder.
      const search = await fetch(
        `${url}/v1/gifs/search?q=beside&api_key=beside-the-server-key-0123456789abcdef`,
      );
      const { data } = (await search.json()) as { data: Array<{ title: string }> };
      expect(data.map((item) => item.title)).toEqual(['Beside the server']);
      const still = await fetch(`${url}/readyz`);
      expect(still.status).toBe(200);
    } finally {
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
