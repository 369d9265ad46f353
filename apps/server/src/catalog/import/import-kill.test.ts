import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/database.ts';
import type { TestDatabase } from '../../test-support/database.ts';
import { listFilesUnder } from '../../test-support/files.ts';
import { makeAnimation } from '../../test-support/media.ts';
import { isProcessAlive, waitForExit } from '../../test-support/processes.ts';
import { MEDIA_TEMP_DIR } from '../../storage/media-paths.ts';
import { listDescendants } from './process-tree.ts';
import { planRenditions } from './rendition-plan.ts';
import { CAPTIONS_QUEUE } from '../captions/caption-job.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const FILES = 14;

function startImport(folder: string, env: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/cli/main.ts', 'import', folder],
    {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/**
 * The CLI import killed with SIGKILL half-way (a power cut, the OOM killer): what it leaves must
 * be whole items or nothing, its files cleaned at the next start, its queued renditions made by
 * the next run, and a re-run must import everything.
 */
describe('an import killed with kill -9', () => {
  let database: TestDatabase;
  let dataDir: string;
  let folder: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-kill-data-'));
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-kill-input-'));
    for (let index = 0; index < FILES; index += 1) {
      const bytes = await makeAnimation({ frames: 16 + index, width: 220 + index, height: 160 });
      fs.writeFileSync(path.join(folder, `clip-${String(index).padStart(2, '0')}.gif`), bytes);
    }
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      IMPORT_WORKERS: '2',
      SEED_STARTER_CATALOG: 'false',
    };
  }, 60_000);
  afterAll(async () => {
    await database?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const mediaDir = () => path.join(dataDir, 'media');
  const query = async <T extends object>(text: string, values: unknown[] = []) =>
    (await database.pool.query<T & Record<string, unknown>>(text, values)).rows;
  const planned = (tier: 'ready' | 'all') =>
    planRenditions({ sourceFormat: 'gif', isAnimated: true, isTransparent: false })
      .filter((entry) => tier === 'all' || entry.tier === 'ready')
      .map((entry) => `${entry.name}.${entry.format}`)
      .sort();
  const renditionsByItem = async () => {
    const rows = await query<{ item_id: string; name: string; format: string }>(
      'SELECT item_id, name, format FROM renditions',
    );
    const byItem = new Map<string, string[]>();
    for (const row of rows) {
      byItem.set(row.item_id, [...(byItem.get(row.item_id) ?? []), `${row.name}.${row.format}`]);
    }
    return byItem;
  };

  it('leaves whole items only, nothing the next run does not clean, and the re-run finishes all', async () => {
    const first = startImport(folder, env);
    let stderr = '';
    first.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    // Kill it once some items are stored and more are on their way.
    await expect
      .poll(
        async () => (await query<{ n: number }>('SELECT count(*)::int AS n FROM items'))[0]!.n,
        {
          timeout: 120_000,
          interval: 50,
        },
      )
      .toBeGreaterThanOrEqual(2);
    const helpers = listDescendants(first.pid!);
    expect(helpers.length, stderr).toBeGreaterThan(0);
    first.kill('SIGKILL');
    await waitForExit(first);
    // Its decoders and encoders notice and go too: nothing keeps running for a dead import.
    await expect.poll(() => helpers.filter(isProcessAlive), { timeout: 30_000 }).toEqual([]);

    // Whatever is in the database is whole: every stored item has every rendition it is
    // shown with, and every rendition's file is there.
    const items = await query<{ id: string }>('SELECT id FROM items');
    expect(items.length).toBeLessThan(FILES);
    const byItem = await renditionsByItem();
    for (const { id } of items) {
      const names = byItem.get(id) ?? [];
      expect(
        planned('ready').every((name) => names.includes(name)),
        id,
      ).toBe(true);
    }
    for (const { path: file } of await query<{ path: string }>('SELECT path FROM renditions')) {
      expect(fs.existsSync(path.join(mediaDir(), file)), file).toBe(true);
    }

    // The next run: cleans what the dead one left, imports the rest (the stored ones are
    // duplicates), and makes every queued rendition, the dead run's jobs included.
    const second = startImport(folder, env);
    let output = '';
    second.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    second.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    expect(await waitForExit(second), output).toBe(0);
    expect(output).toContain(`skipped ${items.length} as duplicates`);

    const all = await renditionsByItem();
    expect(all.size).toBe(FILES);
    for (const [id, names] of all) expect(names.sort(), id).toEqual(planned('all'));
    // No staging folder, and no file that no rendition refers to.
    const staging = path.join(mediaDir(), MEDIA_TEMP_DIR);
    expect(fs.existsSync(staging) ? fs.readdirSync(staging) : []).toEqual([]);
    const referenced = new Set(
      (await query<{ path: string }>('SELECT path FROM renditions')).map((row) => row.path),
    );
    const onDisk = listFilesUnder(mediaDir()).map((file) => path.relative(mediaDir(), file));
    expect(onDisk.filter((file) => !referenced.has(file))).toEqual([]);
    const unfinished = await query<{ n: number }>(
      // Captions are read by a running server, never by the import (docs/catalog.md, "Captions").
      `SELECT count(*)::int AS n FROM pgboss.job WHERE state < 'completed' AND name <> '${CAPTIONS_QUEUE}'`,
    );
    expect(unfinished).toEqual([{ n: 0 }]);
  }, 300_000);
});
