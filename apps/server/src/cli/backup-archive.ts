import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { create as createTar, extract as extractTar, list as listTar } from 'tar';
import { isContentAddressedPath } from '../storage/media-paths.ts';
import { applyMigrations, migrationsFolder, readMigrations } from '../db/migrate.ts';
import { withConnectionTransaction } from '../db/transaction.ts';
import { defaultJobSchema } from '../jobs/job-queue.ts';
import { CliError } from './cli-command.ts';

/** What `backup` writes beside the data, and `restore` checks first (docs/operations.md). */
export interface BackupManifest {
  format: 'sticky-backup';
  formatVersion: 1;
  stickyVersion: string;
  createdAt: string;
  /** The last migration applied: restore builds the schema up to it, the server the rest. */
  migration: { count: number; tag: string };
  postgresVersion: string;
  counts: { items: number; users: number; uploads: number; favorites: number };
  /** `local`: DATA_DIR/media is in the archive; `s3`: the bucket is backed up apart. */
  media: 'local' | 's3';
  /** Tables in the order they are restored, with the columns their files hold. */
  tables: Array<{ name: string; columns: string[]; file: string }>;
  sequences: Array<{ name: string; value: string | null; isCalled: boolean }>;
  /** Every other entry of the archive, with its SHA-256 and size. */
  files: Record<string, { sha256: string; bytes: number }>;
}

const manifestName = 'manifest.json';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

function readStickyVersion(): string {
  const file = path.join(migrationsFolder, '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Files under `dir`, relative to it, that are media files (content-addressed names). */
function listMediaFiles(mediaDir: string): string[] {
  if (!fs.existsSync(mediaDir)) return [];
  return (fs.readdirSync(mediaDir, { recursive: true }) as string[])
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((entry) => isContentAddressedPath(entry))
    .sort();
}

/**
 * The tables of the public schema, parents before the tables that refer to them (so foreign
 * keys hold row by row as they are copied in), with their stored columns (generated ones are
 * made again, never copied).
 */
async function listTables(
  client: pg.ClientBase,
): Promise<Array<{ name: string; columns: string[] }>> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(
    `SELECT c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                          AND a.attgenerated = ''
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
      GROUP BY c.relname
      ORDER BY c.relname`,
  );
  const { rows: references } = await client.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace AND n.nspname = 'public'
      WHERE c.contype = 'f' AND c.conrelid <> c.confrelid`,
  );
  const ordered: typeof rows = [];
  const placed = new Set<string>();
  const visit = (table: (typeof rows)[number], trail: Set<string>) => {
    if (placed.has(table.name) || trail.has(table.name)) return;
    trail.add(table.name);
    for (const { child, parent } of references) {
      const parentTable = rows.find((row) => row.name === parent.replace(/^"|"$/g, ''));
      if (child.replace(/^"|"$/g, '') === table.name && parentTable) visit(parentTable, trail);
    }
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of rows) visit(table, new Set());
  return ordered;
}

async function count(client: pg.ClientBase, table: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${quote(table)}`,
  );
  return rows[0]!.n;
}

/**
 * Writes one archive of the database and DATA_DIR/media (docs/operations.md, "Backups"). The
 * rows are read in one REPEATABLE READ snapshot, as pg_dump reads them: every table as of one
 * moment, whatever the running server commits meanwhile. The media are listed after it: they
 * are content-addressed and never rewritten, so each file the snapshot refers to is already
 * there and whole, and a file added later is only one more. They are linked (or copied) into
 * the staging folder first, so a file deleted meanwhile cannot leave the archive without it.
 */
export async function writeBackup(options: {
  pool: pg.Pool;
  mediaDir: string | undefined;
  stagingRoot: string;
  output: string;
}): Promise<BackupManifest> {
  const staging = path.join(options.stagingRoot, `.backup-${randomBytes(6).toString('hex')}`);
  await fsp.mkdir(path.join(staging, 'database'), { recursive: true });
  const files: BackupManifest['files'] = {};
  try {
    const snapshot = await withConnectionTransaction(
      options.pool,
      async (client): Promise<Omit<BackupManifest, 'files' | 'createdAt' | 'media'>> => {
        await client.query('SET LOCAL statement_timeout = 0');
        const { rows: applied } = await client.query<{ created_at: string }>(
          'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at',
        );
        const known = readMigrations();
        const last = applied.at(-1);
        const migration = known.find((entry) => String(entry.folderMillis) === last?.created_at);
        if (!migration) {
          throw new CliError(
            'The database has a migration this version of Sticky does not know: back it up with the version that made it.',
          );
        }
        const tables = await listTables(client);
        for (const table of tables) {
          const file = `database/${table.name}.copy`;
          const target = path.join(staging, file);
          const columns = table.columns.map(quote).join(', ');
          await pipeline(
            client.query(copyTo(`COPY ${quote(table.name)} (${columns}) TO STDOUT`)),
            fs.createWriteStream(target),
          );
          files[file] = await hashFile(target);
        }
        const { rows: sequences } = await client.query<{
          name: string;
          value: string | null;
          is_called: boolean;
        }>(
          `SELECT s.relname AS name, pg_sequence_last_value(s.oid)::text AS value,
                pg_sequence_last_value(s.oid) IS NOT NULL AS is_called
           FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace AND n.nspname = 'public'
          WHERE s.relkind = 'S'`,
        );
        const { rows: version } = await client.query<{ server_version: string }>(
          'SHOW server_version',
        );
        return {
          format: 'sticky-backup',
          formatVersion: 1,
          stickyVersion: readStickyVersion(),
          migration: { count: applied.length, tag: migration.tag },
          postgresVersion: version[0]!.server_version,
          counts: {
            items: await count(client, 'items'),
            users: await count(client, 'users'),
            uploads: await count(client, 'uploads'),
            favorites: await count(client, 'favorites'),
          },
          tables: tables.map((table) => ({ ...table, file: `database/${table.name}.copy` })),
          sequences: sequences.map((row) => ({
            name: row.name,
            value: row.value,
            isCalled: row.is_called,
          })),
        };
      },
      { begin: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' },
    );

    const mediaFiles = options.mediaDir ? listMediaFiles(options.mediaDir) : [];
    for (const relative of mediaFiles) {
      const source = path.join(options.mediaDir!, relative);
      const target = path.join(staging, 'media', relative);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      try {
        await fsp.link(source, target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue; // deleted since it was listed: no row refers to it now
        await fsp.copyFile(source, target);
      }
      files[`media/${relative}`] = await hashFile(target);
    }

    const manifest: BackupManifest = {
      ...snapshot,
      createdAt: new Date().toISOString(),
      media: options.mediaDir ? 'local' : 's3',
      files,
    };
    await fsp.writeFile(path.join(staging, manifestName), JSON.stringify(manifest, null, 2));
    // Written beside its final name, then renamed: a half-written archive never has that name.
    const partial = `${options.output}.partial-${randomBytes(4).toString('hex')}`;
    try {
      await createTar({ gzip: true, file: partial, cwd: staging, portable: true, strict: true }, [
        manifestName,
        ...Object.keys(files),
      ]);
      await fsp.rename(partial, options.output);
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw error;
    }
    return manifest;
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

/**
 * Checks `archive` whole before anything is written, then unpacks it into `staging`. A first
 * read hashes every entry as it streams by: it must read to its end without error (a truncated
 * or corrupt gzip or tar stops here), hold a manifest this version reads, every file the
 * manifest lists with its SHA-256, and nothing else. Only then is it unpacked.
 */
export async function unpackVerified(archive: string, staging: string): Promise<BackupManifest> {
  const name = path.basename(archive);
  const found = new Map<string, { sha256: string; bytes: number }>();
  const unexpected: string[] = [];
  let manifestText = '';
  try {
    await listTar({
      file: archive,
      strict: true,
      onReadEntry: (entry) => {
        const entryPath = entry.path.replace(/^\.\//, '');
        if (entry.type === 'Directory') return;
        if (entry.type !== 'File' && entry.type !== 'OldFile') unexpected.push(entryPath);
        const hash = createHash('sha256');
        let bytes = 0;
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          bytes += chunk.length;
          if (entryPath === manifestName) chunks.push(chunk);
        });
        entry.on('end', () => {
          found.set(entryPath, { sha256: hash.digest('hex'), bytes });
          if (entryPath === manifestName) manifestText = Buffer.concat(chunks).toString('utf8');
        });
      },
    });
  } catch (error) {
    throw new CliError(
      `The archive ${name} is truncated or damaged (${(error as Error).message.split('\n')[0]}); nothing was restored.`,
    );
  }
  if (unexpected.length > 0) {
    throw new CliError(
      `The archive ${name} holds ${unexpected[0]}, which no Sticky backup holds; nothing was restored.`,
    );
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestText) as BackupManifest;
  } catch {
    throw new CliError(
      `${name} is not a Sticky backup (no readable ${manifestName}); nothing was restored.`,
    );
  }
  if (manifest.format !== 'sticky-backup' || manifest.formatVersion !== 1) {
    throw new CliError(`${name} is not a Sticky backup this version reads; nothing was restored.`);
  }
  for (const entry of found.keys()) {
    if (entry !== manifestName && !manifest.files[entry]) {
      throw new CliError(
        `The archive ${name} is altered: ${entry} is not in its manifest; nothing was restored.`,
      );
    }
  }
  for (const [entry, expected] of Object.entries(manifest.files)) {
    const actual = found.get(entry);
    if (!actual) {
      throw new CliError(
        `The archive ${name} is incomplete: ${entry} is missing; nothing was restored.`,
      );
    }
    if (actual.sha256 !== expected.sha256 || actual.bytes !== expected.bytes) {
      throw new CliError(
        `The archive ${name} is altered: ${entry} does not match its checksum; nothing was restored.`,
      );
    }
  }
  await fsp.mkdir(staging, { recursive: true });
  await extractTar({ file: archive, cwd: staging, strict: true });
  return manifest;
}

/** Whether the database holds anything of an instance: a person, an item or an upload. */
export async function hasInstanceRows(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM items)
            OR EXISTS (SELECT 1 FROM uploads) AS found`,
  );
  return rows[0]!.found;
}

/** Whether DATA_DIR/media holds a media file. */
export function hasMediaFiles(mediaDir: string): boolean {
  return listMediaFiles(mediaDir).length > 0;
}

/**
 * Restores the verified database files in one transaction: every schema of the instance
 * dropped, the migrations up to the backup's applied again (the server applies newer ones at
 * its next start, docs/operations.md, "Upgrades"), the tables emptied of what migrations seed,
 * the rows copied in with the tables' own triggers off (their counters come in as rows too),
 * the sequences set. A failure anywhere rolls all of it back.
 */
export async function restoreDatabase(
  pool: pg.Pool,
  staging: string,
  manifest: BackupManifest,
): Promise<void> {
  const migrations = readMigrations();
  const known = migrations[manifest.migration.count - 1];
  if (!known || known.tag !== manifest.migration.tag) {
    throw new CliError(
      `The backup was made by a newer Sticky (migration ${manifest.migration.tag}): restore it with that version or a later one; nothing was restored.`,
    );
  }
  await withConnectionTransaction(pool, async (client) => {
    await client.query('SET LOCAL statement_timeout = 0');
    for (const schema of ['public', 'drizzle', defaultJobSchema]) {
      await client.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
    }
    await client.query('CREATE SCHEMA public');
    await applyMigrations(client, migrations.slice(0, manifest.migration.count));
    const names = manifest.tables.map((table) => quote(table.name));
    if (names.length > 0) await client.query(`TRUNCATE ${names.join(', ')}`);
    for (const name of names) await client.query(`ALTER TABLE ${name} DISABLE TRIGGER USER`);
    for (const table of manifest.tables) {
      const columns = table.columns.map(quote).join(', ');
      await pipeline(
        fs.createReadStream(path.join(staging, table.file)),
        client.query(copyFrom(`COPY ${quote(table.name)} (${columns}) FROM STDIN`)),
      );
    }
    for (const name of names) await client.query(`ALTER TABLE ${name} ENABLE TRIGGER USER`);
    for (const sequence of manifest.sequences) {
      if (sequence.value === null) continue;
      await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
        quote(sequence.name),
        sequence.value,
        sequence.isCalled,
      ]);
    }
  });
}

/** Moves the verified media into DATA_DIR/media: renames on one file system, never a copy. */
export async function moveMedia(staging: string, mediaDir: string): Promise<number> {
  const source = path.join(staging, 'media');
  const files = listMediaFiles(source);
  for (const relative of files) {
    const target = path.join(mediaDir, relative);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(path.join(source, relative), target);
  }
  return files.length;
}
