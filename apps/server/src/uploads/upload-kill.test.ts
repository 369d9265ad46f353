import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CreateUploadsResponse } from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/sessions.ts';
import { listDescendants } from '../catalog/import/process-tree.ts';
import { planRenditions } from '../catalog/import/rendition-plan.ts';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { listFilesUnder } from '../test-support/files.ts';
import { isProcessAlive, startServerProcess, waitForExit } from '../test-support/processes.ts';
import { buildMultipart, makeAnimation } from '../test-support/uploads.ts';
import { uploadTempDir } from './uploads-service.ts';

const FILES = 10;

/**
 * The server killed with SIGKILL while it makes uploads into items (docs/uploads.md, "Processing
 * that survives anything"): no upload may be lost or half made, and the next server, or any
 * other on the database, finishes them.
 */
describe('uploads when the server is killed with kill -9 mid-batch', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let secret: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-upload-kill-'));
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      IMPORT_WORKERS: '1',
      UPLOAD_WORKERS: '1',
    };
    // A person with a personal token, as a script would upload.
    const userId = randomUUID();
    await database.pool.query(
      `INSERT INTO users (id, issuer, subject, email, name) VALUES ($1, 'test', $1, 'kill@example.com', 'Kim')`,
      [userId],
    );
    secret = `sticky_${randomBytes(32).toString('base64url')}`;
    await database.pool.query(
      `INSERT INTO api_tokens (id, user_id, name, token_hash) VALUES ($1, $2, 'test', $3)`,
      [randomUUID(), userId, hashToken(secret)],
    );
  }, 60_000);
  afterAll(async () => {
    await database?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const count = async (sql: string) => (await database.pool.query<{ n: number }>(sql)).rows[0]!.n;

  it('leaves whole items and waiting uploads only, and the next server makes every one', async () => {
    const first = await startServerProcess(env);
    const files = await Promise.all(
      Array.from({ length: FILES }, async (_, index) => ({
        name: `batch-${index}.gif`,
        bytes: await makeAnimation({ format: 'gif', frames: 12, size: 160 + index }),
      })),
    );
    const form = buildMultipart(files, { tags: 'batch' });
    const response = await fetch(`${first.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': form.contentType },
      body: form.body,
    });
    expect(response.status, first.output()).toBe(202);
    const { uploads } = (await response.json()) as CreateUploadsResponse;
    expect(uploads.every((upload) => upload.state === 'processing')).toBe(true);

    // Killed once some are made, one is being made, and the rest are still to do.
    const activeJobs =
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'process-uploads' AND state = 'active'";
    const isMidBatch = async () =>
      (await count("SELECT count(*)::int AS n FROM uploads WHERE state = 'ready'")) >= 1 &&
      (await count(activeJobs)) === 1;
    for (;;) {
      await expect.poll(isMidBatch, { timeout: 120_000, interval: 20 }).toBe(true);
      // Frozen, it changes nothing more: still mid-job now, it dies mid-job (on a busy machine
      // the job could end between the look and the kill).
      first.child.kill('SIGSTOP');
      if (await isMidBatch()) break;
      first.child.kill('SIGCONT');
    }
    const helpers = listDescendants(first.child.pid!);
    first.child.kill('SIGKILL');
    await waitForExit(first.child);
    await expect.poll(() => helpers.filter(isProcessAlive), { timeout: 30_000 }).toEqual([]);

    // It died mid-job: its job stays active until its missed heartbeats give it back.
    expect(await count(activeJobs)).toBe(1);
    // What the dead server left: whole items, and every other upload still waiting with its bytes.
    const processing = await count(
      "SELECT count(*)::int AS n FROM uploads WHERE state = 'processing'",
    );
    expect(processing).toBeGreaterThan(0);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM uploads u WHERE state = 'processing' AND NOT EXISTS (SELECT 1 FROM upload_files f WHERE f.upload_id = u.id)",
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM uploads WHERE state = 'ready' AND item_id IS NULL",
      ),
    ).toBe(0);
    const plan = planRenditions({ sourceFormat: 'gif', isAnimated: true, isTransparent: false });
    const ready = plan
      .filter((entry) => entry.tier === 'ready')
      .map((entry) => `${entry.name}.${entry.format}`);
    const renditions = await database.pool.query<{ item_id: string; names: string[] }>(
      `SELECT i.id AS item_id, array_agg(r.name || '.' || r.format) AS names
       FROM items i LEFT JOIN renditions r ON r.item_id = i.id GROUP BY i.id`,
    );
    for (const row of renditions.rows) {
      expect(
        ready.every((name) => row.names.includes(name)),
        row.item_id,
      ).toBe(true);
    }

    // The next server picks the dead one's jobs up (their heartbeats stopped) and finishes.
    const second = await startServerProcess(env);
    try {
      await expect
        .poll(() => count("SELECT count(*)::int AS n FROM uploads WHERE state = 'processing'"), {
          timeout: 180_000,
          interval: 250,
        })
        .toBe(0);
      expect(await count("SELECT count(*)::int AS n FROM uploads WHERE state = 'ready'")).toBe(
        FILES,
      );
      expect(await count('SELECT count(DISTINCT item_id)::int AS n FROM uploads')).toBe(FILES);
      expect(await count('SELECT count(*)::int AS n FROM items')).toBe(FILES);

      // Then the later renditions, the dead server's included (its jobs come back once their
      // heartbeats are missed): every job ends done, none waits, runs or failed for good.
      const unfinishedJobs = `SELECT count(*)::int AS n FROM pgboss.job
        WHERE name IN ('process-uploads', 'make-renditions') AND state IN ('created', 'retry', 'active')`;
      await expect.poll(() => count(unfinishedJobs), { timeout: 240_000, interval: 500 }).toBe(0);
      expect(
        await count(
          "SELECT count(*)::int AS n FROM pgboss.job WHERE name IN ('process-uploads', 'make-renditions') AND state <> 'completed'",
        ),
      ).toBe(0);
      const made = await database.pool.query<{ item_id: string; names: string[] }>(
        `SELECT i.id AS item_id, array_agg(r.name || '.' || r.format) AS names
         FROM items i LEFT JOIN renditions r ON r.item_id = i.id GROUP BY i.id`,
      );
      const planned = plan.map((entry) => `${entry.name}.${entry.format}`);
      for (const row of made.rows) {
        expect(
          planned.filter((name) => !row.names.includes(name)),
          row.item_id,
        ).toEqual([]);
      }

      // Nothing left over: no staged bytes, no request folder, no file no rendition refers to
      // (staging folders such as .incoming included).
      expect(await count('SELECT count(*)::int AS n FROM upload_files')).toBe(0);
      const tempDir = uploadTempDir({ dataDir } as Parameters<typeof uploadTempDir>[0]);
      expect(fs.existsSync(tempDir) ? listFilesUnder(tempDir) : []).toEqual([]);
      const mediaDir = path.join(dataDir, 'media');
      const referenced = new Set(
        (await database.pool.query<{ path: string }>('SELECT path FROM renditions')).rows.map(
          (row) => row.path,
        ),
      );
      const onDisk = listFilesUnder(mediaDir).map((file) => path.relative(mediaDir, file));
      expect(onDisk.filter((file) => !referenced.has(file))).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await waitForExit(second.child);
    }
  }, 400_000);
});
