import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { DatabaseHandle } from './client.ts';

export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../drizzle',
);

/** Applies pending migrations; an advisory lock keeps two servers from migrating at once. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const client = await handle.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(726_517)');
    await migrate(handle.db, { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(726_517)').catch(() => {});
    client.release();
  }
}
