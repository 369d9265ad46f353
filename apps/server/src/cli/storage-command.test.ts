import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAddressedPath } from '../catalog/media-paths.ts';
import { createLocalMediaStore, createS3MediaStore } from '../storage/media-store.ts';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { listFilesUnder } from '../test-support/files.ts';
import { makeAnimation } from '../test-support/media.ts';
import { runCli } from '../test-support/processes.ts';
import { startTestS3 } from '../test-support/s3.ts';
import type { TestS3 } from '../test-support/s3.ts';
import { migrateMedia } from './storage-command.ts';

const mediaFilesUnder = (mediaDir: string) =>
  listFilesUnder(mediaDir)
    .map((file) => path.relative(mediaDir, file))
    .filter((file) => !file.startsWith('.'))
    .sort();

describe('npm run sticky -- storage migrate', () => {
  let s3: TestS3;
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    s3 = await startTestS3();
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-migrate-'));
    env = { DATABASE_URL: database.url, DATA_DIR: dataDir, SEED_STARTER_CATALOG: 'false' };
    const input = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-migrate-input-'));
    for (const seed of [1, 2]) {
      fs.writeFileSync(
        path.join(input, `clip-${seed}.gif`),
        await makeAnimation({ frames: 3, width: 40, seed }),
      );
    }
    const imported = await runCli(['import', input], env);
    expect(imported.code, imported.stderr).toBe(0);
    fs.rmSync(input, { recursive: true, force: true });
  }, 120_000);
  afterAll(async () => {
    await s3?.close();
    await database?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('moves every file to the bucket and back, verified, the source removed only after', async () => {
    const mediaDir = path.join(dataDir, 'media');
    const referenced = (
      await database.pool.query<{ path: string }>('SELECT DISTINCT path FROM renditions')
    ).rows
      .map((row) => row.path)
      .sort();
    expect(referenced.length).toBeGreaterThan(10);
    expect(mediaFilesUnder(mediaDir)).toEqual(referenced);

    const toS3 = await runCli(['storage', 'migrate', '--to', 's3', '--remove-source'], {
      ...env,
      ...s3.env,
      STORAGE: 'local',
    });
    expect(toS3.code, toS3.stderr).toBe(0);
    expect(toS3.stdout).toContain(
      `Copied ${referenced.length}, already there 0, removed from the source ${referenced.length}, missing 0, failed 0`,
    );
    expect(toS3.stdout).toContain('Set STORAGE=s3 and restart the server');
    expect(await s3.listKeys()).toEqual(referenced);
    expect(mediaFilesUnder(mediaDir)).toEqual([]);

    // And back: every file on the disk again, each the bytes its name says.
    const back = await runCli(['storage', 'migrate', '--to', 'local', '--remove-source'], {
      ...env,
      ...s3.env,
    });
    expect(back.code, back.stderr).toBe(0);
    expect(mediaFilesUnder(mediaDir)).toEqual(referenced);
    for (const key of referenced) {
      const bytes = fs.readFileSync(path.join(mediaDir, key));
      expect(key).toContain(createHash('sha256').update(bytes).digest('hex'));
    }
    expect(await s3.listKeys()).toEqual([]);
  }, 180_000);

  it('resumes: keeps whole copies, replaces a damaged one, never removes a source it could not copy', async () => {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-migrate-stage-'));
    const local = createLocalMediaStore(staging);
    const bucket = createS3MediaStore(s3.storage);
    const put = async (store: typeof local, bytes: Buffer, key?: string) => {
      const name =
        key ?? contentAddressedPath(createHash('sha256').update(bytes).digest('hex'), 'gif');
      const file = path.join(staging, `${Math.random()}.part`);
      fs.writeFileSync(file, bytes);
      await store.put(name, file);
      return name;
    };
    try {
      const whole = await put(local, Buffer.from('already copied'));
      await put(bucket, Buffer.from('already copied'));
      const damaged = await put(local, Buffer.from('copied badly before'));
      await put(bucket, Buffer.from('not what the name says'), damaged);
      const fresh = await put(local, Buffer.from('not copied yet'));
      const gone = contentAddressedPath('f'.repeat(64), 'gif');
      const summary = await migrateMedia({
        keys: [whole, damaged, fresh, gone],
        from: local,
        to: bucket,
        stagingRoot: staging,
        removeSource: true,
      });
      expect(summary).toMatchObject({
        copied: 2,
        alreadyThere: 1,
        removedFromSource: 3,
        missing: [gone],
        failed: [],
      });
      expect((await bucket.read(damaged))!.toString()).toBe('copied badly before');
      expect(await local.has(fresh)).toBe(false);
    } finally {
      bucket.close();
      fs.rmSync(staging, { recursive: true, force: true });
    }
  });
});
