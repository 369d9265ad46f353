import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { StartupError } from '../lib/startup-error.ts';
import type { DatabaseHandle } from './client.ts';
import { withConnectionTransaction } from './transaction.ts';

export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../drizzle',
);

/** One migration of drizzle's journal as drizzle reads it, with its file name (`tag`) to name it by. */
export type Migration = MigrationMeta & {
  /** The file name without `.sql` (`0018_related_list_entries`). */
  tag: string;
};

/** The migrations of `folder`'s journal, in order, read as drizzle's migrator reads them. */
export function readMigrations(folder = migrationsFolder): Migration[] {
  const journal = JSON.parse(
    fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: Array<{ tag: string }> };
  return readMigrationFiles({ migrationsFolder: folder }).map((migration, index) => ({
    ...migration,
    tag: journal.entries[index]!.tag,
  }));
}

/** A migration that failed: the pending ones were all rolled back, so the database is as it was. */
export class MigrationError extends StartupError {
  constructor(
    readonly tag: string,
    cause: unknown,
  ) {
    const reason = (cause as Error)?.message?.split('\n')[0] ?? String(cause);
    super(
      `Migration ${tag}.sql failed: ${reason}. The database is unchanged (pending migrations run in one transaction); fix the cause and start again.`,
      { cause },
    );
    this.name = 'MigrationError';
  }
}

/**
 * Applies `migrations` that the database lacks on `client`, inside the caller's transaction,
 * and records them as drizzle's migrator does (the `drizzle.__drizzle_migrations` table, by
 * `created_at`), so either migrator reads the other's work. A failure names the file.
 */
export async function applyMigrations(
  client: pg.ClientBase,
  migrations: readonly Migration[],
): Promise<void> {
  await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
  await client.query(
    'CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  const { rows } = await client.query<{ created_at: string }>(
    'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1',
  );
  const last = rows[0] ? Number(rows[0].created_at) : undefined;
  for (const migration of migrations) {
    if (last !== undefined && migration.folderMillis <= last) continue;
    try {
      for (const statement of migration.sql) await client.query(statement);
    } catch (error) {
      throw new MigrationError(migration.tag, error);
    }
    await client.query(
      'INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)',
      [migration.hash, migration.folderMillis],
    );
  }
}

/**
 * Applies pending migrations on one connection, which holds an advisory lock (two servers never
 * migrate at once) and has no statement_timeout: building an index on a large table may take
 * longer than any request should. All pending migrations run in one transaction, as drizzle's
 * migrator runs them: one that fails leaves the database as it was, and start-up stops with one
 * line naming the file (docs/operations.md, "Upgrades"). drizzle's own migrator says only which
 * statement failed, hence this loop over its journal.
 */
export async function migrateDatabase(
  handle: DatabaseHandle,
  options: { folder?: string } = {},
): Promise<void> {
  const migrations = readMigrations(options.folder);
  await withConnectionTransaction(handle.pool, async (client) => {
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SELECT pg_advisory_xact_lock(726_517)');
    await applyMigrations(client, migrations);
  });
}
