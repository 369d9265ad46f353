import fsp from 'node:fs/promises';
import path from 'node:path';
import { createStagingDir } from '../catalog/import/media-files.ts';
import { contentHashOf, hashContent } from '../storage/media-paths.ts';
import { createLocalMediaStore, createS3MediaStore } from '../storage/media-store.ts';
import type { MediaStore } from '../storage/media-store.ts';
import type { CliCommand } from './cli-command.ts';
import { CliError, createProgressBar, parseCommandArgs, usageExitCode } from './cli-command.ts';
import { openCatalog, readCliConfig } from './open-catalog.ts';

const usage = `npm run sticky -- storage migrate --to s3|local [--remove-source]

Copies every media file the catalog refers to from the other store to the one named: from
DATA_DIR/media to the S3 bucket of S3_* (--to s3), or back (--to local). Each copy is read back
and its SHA-256 checked against its name before anything else happens to it; a file already
there and whole is skipped, so an interrupted run is resumed by running it again. With
--remove-source, each source file is deleted once its copy is verified (never before). Then set
STORAGE to the new store and restart the server.`;

export interface MigrationSummary {
  copied: number;
  alreadyThere: number;
  removedFromSource: number;
  missing: string[];
  failed: Array<{ key: string; reason: string }>;
}

/** Whether the target holds the file whole: its content's SHA-256 is its name. */
async function isWhole(store: MediaStore, key: string): Promise<boolean> {
  const bytes = await store.read(key);
  return bytes !== undefined && hashContent(bytes) === contentHashOf(key);
}

/**
 * Moves `keys` from one store to the other (docs/scaling.md, "Moving media"): copy, read back,
 * check the hash, and only then (with `removeSource`) delete the source.
 */
export async function migrateMedia(options: {
  keys: readonly string[];
  from: MediaStore;
  to: MediaStore;
  stagingRoot: string;
  removeSource: boolean;
  onProgress?: (done: number, key: string) => void;
}): Promise<MigrationSummary> {
  const { from, to } = options;
  const summary: MigrationSummary = {
    copied: 0,
    alreadyThere: 0,
    removedFromSource: 0,
    missing: [],
    failed: [],
  };
  const staging = await createStagingDir(options.stagingRoot);
  try {
    let done = 0;
    for (const key of options.keys) {
      try {
        if (await isWhole(to, key)) {
          summary.alreadyThere += 1;
        } else {
          const bytes = await from.read(key);
          if (!bytes) {
            summary.missing.push(key);
            continue;
          }
          if (hashContent(bytes) !== contentHashOf(key)) {
            summary.failed.push({ key, reason: 'the source file does not match its name' });
            continue;
          }
          // A damaged copy from an earlier run is replaced, not kept.
          if (await to.has(key)) await to.remove(key);
          const staged = path.join(staging, path.basename(key));
          await fsp.writeFile(staged, bytes);
          await to.put(key, staged);
          if (!(await isWhole(to, key))) {
            summary.failed.push({ key, reason: 'the copy read back does not match its name' });
            continue;
          }
          summary.copied += 1;
        }
        if (options.removeSource && (await from.has(key))) {
          await from.remove(key);
          summary.removedFromSource += 1;
        }
      } catch (error) {
        summary.failed.push({ key, reason: (error as Error).message.split('\n')[0]! });
      } finally {
        done += 1;
        options.onProgress?.(done, key);
      }
    }
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
  return summary;
}

export const storageCommand: CliCommand = {
  summary: 'Move media between the local disk and an S3 bucket',
  usage,
  run: async (args) => {
    const { values, positionals } = parseCommandArgs(usage, {
      args,
      allowPositionals: true,
      options: {
        to: { type: 'string' },
        'remove-source': { type: 'boolean', default: false },
      },
    });
    if (positionals[0] !== 'migrate' || (values.to !== 's3' && values.to !== 'local')) {
      throw new CliError(`Usage: ${usage}`, usageExitCode);
    }
    const s3Config = readCliConfig({ ...process.env, STORAGE: 's3' });
    if (s3Config.storage.kind !== 's3') throw new CliError('S3 settings are missing', 78);
    const catalog = await openCatalog();
    const bucket = createS3MediaStore(s3Config.storage);
    const disk = createLocalMediaStore(catalog.config.mediaDir);
    try {
      const [from, to] = values.to === 's3' ? [disk, bucket] : [bucket, disk];
      try {
        await to.check();
        await from.check();
      } catch (error) {
        throw new CliError((error as Error).message, 69);
      }
      const { rows } = await catalog.database.pool.query<{ path: string }>(
        'SELECT DISTINCT path FROM renditions ORDER BY path',
      );
      const keys = rows.map((row) => row.path);
      const bar = createProgressBar(`Moving media to ${values.to} {bar} {value}/{total}`);
      bar.start(keys.length, 0);
      const summary = await migrateMedia({
        keys,
        from,
        to,
        stagingRoot: catalog.config.mediaDir,
        removeSource: values['remove-source'] ?? false,
        onProgress: (done) => bar.update(done),
      });
      bar.stop();
      console.log(
        `Copied ${summary.copied}, already there ${summary.alreadyThere}, removed from the source ${summary.removedFromSource}, missing ${summary.missing.length}, failed ${summary.failed.length} (${keys.length} files).`,
      );
      for (const key of summary.missing) console.log(`  missing from both: ${key}`);
      for (const { key, reason } of summary.failed) console.log(`  failed: ${key}: ${reason}`);
      if (summary.failed.length === 0) {
        console.log(`Set STORAGE=${values.to} and restart the server to serve media from there.`);
      }
      return summary.failed.length > 0 ? 1 : 0;
    } finally {
      bucket.close();
      await catalog.close();
    }
  },
};
