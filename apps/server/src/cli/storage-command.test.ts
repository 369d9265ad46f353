import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAddressedPath } from '../storage/media-paths.ts';
import { createLocalMediaStore, createS3MediaStore } from '../storage/media-store.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
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

const keyOf = (bytes: Buffer) =>
  contentAddressedPath(createHash('sha256').update(bytes).digest('hex'), 'gif');

/** An item whose renditions are `keys`: what `storage migrate` moves. */
async function referToFiles(database: TestDatabase, keys: readonly string[]): Promise<void> {
  const [itemId] = await insertCatalogItems(database, [{ title: 'Moved', renditions: 'none' }]);
  const names = ['original', 'original_still', 'fixed_width', 'fixed_height', 'downsized'];
  await database.pool.query(
    `INSERT INTO renditions (item_id, name, format, width, height, frames, bytes, path)
     SELECT $1, name, 'gif', 10, 10, 1, 10, path FROM unnest($2::text[], $3::text[]) AS t(name, path)`,
    [itemId, names.slice(0, keys.length), keys],
  );
}

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

  it('keeps a source whose bytes do not match its name, says it failed, exits 1, and moves the others', async () => {
    // A catalog, a DATA_DIR and a bucket of its own: the other tests' files stay as they are.
    const ownS3 = await startTestS3();
    const ownDatabase = await createTestDatabase();
    const ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-migrate-bad-'));
    try {
      const mediaDir = path.join(ownDataDir, 'media');
      const good = [Buffer.from('a whole file'), Buffer.from('another whole file')].map(keyOf);
      // Named after bytes it no longer holds (changed on the disk since it was stored).
      const bad = keyOf(Buffer.from('what the name promises'));
      const badBytes = Buffer.from('bytes that changed on the disk');
      for (const [key, bytes] of [
        [good[0]!, Buffer.from('a whole file')],
        [good[1]!, Buffer.from('another whole file')],
        [bad, badBytes],
      ] as const) {
        fs.mkdirSync(path.dirname(path.join(mediaDir, key)), { recursive: true });
        fs.writeFileSync(path.join(mediaDir, key), bytes);
      }
      await referToFiles(ownDatabase, [...good, bad]);

      const moved = await runCli(['storage', 'migrate', '--to', 's3', '--remove-source'], {
        DATABASE_URL: ownDatabase.url,
        DATA_DIR: ownDataDir,
        SEED_STARTER_CATALOG: 'false',
        ...ownS3.env,
        STORAGE: 'local',
      });
      expect(moved.code, moved.stderr).toBe(1);
      expect(moved.stdout).toContain(
        'Copied 2, already there 0, removed from the source 2, missing 0, failed 1 (3 files).',
      );
      expect(moved.stdout).toContain(`  failed: ${bad}: the source file does not match its name`);
      expect(moved.stdout).not.toContain('Set STORAGE=s3');
      // The bad file is still on the disk, as it was, and nowhere else; the others moved.
      expect(mediaFilesUnder(mediaDir)).toEqual([bad]);
      expect(fs.readFileSync(path.join(mediaDir, bad)).equals(badBytes)).toBe(true);
      expect(await ownS3.listKeys()).toEqual([...good].sort());
    } finally {
      await ownS3.close();
      await ownDatabase.destroy();
      fs.rmSync(ownDataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('keeps a source the target refused to store, and says why', async () => {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-migrate-refused-'));
    const local = createLocalMediaStore(staging);
    const bucket = createS3MediaStore(s3.storage);
    const contents = ['stored at once', 'refused by the bucket', 'stored after it'].map((text) =>
      Buffer.from(text),
    );
    const keys = contents.map(keyOf);
    const refused = keys[1]!;
    // The real bucket, but one write refused as a full or read-only bucket refuses it.
    const refusing: MediaStore = {
      ...bucket,
      put: async (key, stagedFile) => {
        if (key === refused) throw new Error('AccessDenied: Access Denied');
        return bucket.put(key, stagedFile);
      },
    };
    try {
      for (const [index, key] of keys.entries()) {
        fs.mkdirSync(path.dirname(path.join(staging, key)), { recursive: true });
        fs.writeFileSync(path.join(staging, key), contents[index]!);
      }
      const summary = await migrateMedia({
        keys,
        from: local,
        to: refusing,
        stagingRoot: staging,
        removeSource: true,
      });
      expect(summary).toEqual({
        copied: 2,
        alreadyThere: 0,
        removedFromSource: 2,
        missing: [],
        failed: [{ key: refused, reason: 'AccessDenied: Access Denied' }],
      });
      expect((await local.read(refused))!.equals(contents[1]!)).toBe(true);
      expect(await bucket.has(refused)).toBe(false);
      for (const key of [keys[0]!, keys[2]!]) {
        expect(await local.has(key), key).toBe(false);
        expect(await bucket.has(key), key).toBe(true);
        await bucket.remove(key);
      }
    } finally {
      bucket.close();
      fs.rmSync(staging, { recursive: true, force: true });
    }
  });

  it('stops with one line when STORAGE names a bucket that cannot be used', async () => {
    const result = await runCli(['storage', 'migrate', '--to', 'local'], {
      ...env,
      ...s3.env,
      S3_BUCKET: 'no-such-bucket',
    });
    expect(result.stderr.trim()).toBe(
      `S3 bucket "no-such-bucket" at ${s3.endpoint} cannot be used: the bucket does not exist`,
    );
    expect(result.code).toBe(69);
  }, 60_000);

  it('stops an import with the same one line when the bucket cannot be used', async () => {
    const result = await runCli(['import', dataDir], {
      ...env,
      ...s3.env,
      STORAGE: 's3',
      S3_BUCKET: 'no-such-bucket',
    });
    expect(result.stderr.trim()).toBe(
      `S3 bucket "no-such-bucket" at ${s3.endpoint} cannot be used: the bucket does not exist`,
    );
    expect(result.code).toBe(69);
  }, 60_000);
});
