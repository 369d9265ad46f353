import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  hasInstanceRows,
  hasMediaFiles,
  moveMedia,
  restoreDatabase,
  unpackVerified,
  writeBackup,
} from './backup-archive.ts';
import type { CliCommand } from './cli-command.ts';
import { CliError, parseCommandArgs, usageExitCode } from './cli-command.ts';
import { openCatalog, readCliConfig } from './open-catalog.ts';

const backupUsage = `npm run sticky -- backup <file.tar.gz>

Writes one archive of the instance: the database's rows, read in one consistent snapshot, and
the media files of DATA_DIR/media (with STORAGE=s3, the database only: back the bucket up with
its own tools), with a manifest of versions, counts and a SHA-256 of every entry. Works while
the server runs (docs/operations.md, "Backups").`;

const restoreUsage = `npm run sticky -- restore <file.tar.gz> [--force]

Restores an archive made by \`backup\` into the database and DATA_DIR of the configuration
(stop the server first). The whole archive is checked against its manifest before anything is
written; the database is restored in one transaction and the media moved in after it. Refuses a
database or DATA_DIR that already holds an instance unless --force (which replaces it).`;

/** `1 item`, `2 items`: the summary lines' counts. */
function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function describeCounts(counts: {
  items: number;
  users: number;
  uploads: number;
  favorites: number;
}) {
  return [
    countOf(counts.items, 'item', 'items'),
    countOf(counts.users, 'person', 'people'),
    countOf(counts.uploads, 'upload', 'uploads'),
    countOf(counts.favorites, 'favorite', 'favorites'),
  ].join(', ');
}

export const backupCommand: CliCommand = {
  summary: 'Write one archive of the database and media (works while the server runs)',
  usage: backupUsage,
  run: async (args) => {
    const { positionals } = parseCommandArgs(backupUsage, {
      args,
      allowPositionals: true,
      options: {},
    });
    if (positionals.length !== 1) throw new CliError(`Usage: ${backupUsage}`, usageExitCode);
    const output = path.resolve(positionals[0]!);
    if (fs.existsSync(output)) {
      throw new CliError(`${output} already exists: name a new file.`, usageExitCode);
    }
    // Beside a running server, its own (embedded or external) database is read.
    const catalog = await openCatalog();
    try {
      const isLocal = catalog.config.storage.kind === 'local';
      const manifest = await writeBackup({
        pool: catalog.database.pool,
        mediaDir: isLocal ? catalog.config.mediaDir : undefined,
        stagingRoot: catalog.config.dataDir,
        output,
      });
      const mediaCount = Object.keys(manifest.files).filter((f) => f.startsWith('media/')).length;
      console.log(
        `Backed up ${describeCounts(manifest.counts)}` +
          (isLocal
            ? ` and ${countOf(mediaCount, 'media file', 'media files')}`
            : ' (media: in the S3 bucket, not here)') +
          ` to ${output} (migration ${manifest.migration.tag}).`,
      );
      return 0;
    } finally {
      await catalog.close();
    }
  },
};

export const restoreCommand: CliCommand = {
  summary: 'Restore an archive made by backup into an empty instance',
  usage: restoreUsage,
  run: async (args) => {
    const { values, positionals } = parseCommandArgs(restoreUsage, {
      args,
      allowPositionals: true,
      options: { force: { type: 'boolean', default: false } },
    });
    if (positionals.length !== 1) throw new CliError(`Usage: ${restoreUsage}`, usageExitCode);
    const archive = path.resolve(positionals[0]!);
    if (!fs.existsSync(archive)) throw new CliError(`${archive} does not exist.`, 66);
    const config = readCliConfig();
    await fsp.mkdir(config.dataDir, { recursive: true });
    // Unpacked and checked whole in DATA_DIR, so the media move in by rename.
    const staging = path.join(config.dataDir, `.restore-${randomBytes(6).toString('hex')}`);
    try {
      const manifest = await unpackVerified(archive, staging);
      const catalog = await openCatalog({ config, exclusiveFor: 'restore' });
      try {
        const pool = catalog.database.pool;
        const isLocal = config.storage.kind === 'local';
        if (!values.force) {
          if (await hasInstanceRows(pool)) {
            throw new CliError(
              'The database already holds an instance (people, items or uploads): restore into an empty one, or add --force to replace it.',
            );
          }
          if (isLocal && hasMediaFiles(config.mediaDir)) {
            throw new CliError(
              `${config.mediaDir} already holds media files: restore into an empty DATA_DIR, or add --force.`,
            );
          }
        }
        if (manifest.media === 'local' && !isLocal) {
          throw new CliError(
            'The backup holds media files but STORAGE is s3: restore with STORAGE=local, then `npm run sticky -- storage migrate --to s3`.',
          );
        }
        await restoreDatabase(pool, staging, manifest);
        const moved = isLocal ? await moveMedia(staging, config.mediaDir) : 0;
        console.log(
          `Restored ${describeCounts(manifest.counts)} and ${countOf(moved, 'media file', 'media files')} from ${path.basename(archive)} (made ${manifest.createdAt}, migration ${manifest.migration.tag}).`,
        );
        return 0;
      } finally {
        await catalog.close();
      }
    } finally {
      await fsp.rm(staging, { recursive: true, force: true, maxRetries: 5 });
    }
  },
};
