import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { DatabaseHandle } from './client.ts';
import * as schema from './schema.ts';

export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../drizzle',
);

/**
 * Applies pending migrations on one connection, which holds an advisory lock (two servers never
 * migrate at once) and has no statement_timeout: building an index on a large table may take
 * longer than any request should.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const client = await handle.pool.connect();
  try {
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock(726_517)');
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(726_517)').catch(() => {});
    await client.query('RESET statement_timeout').catch(() => {});
    client.release();
  }
}
