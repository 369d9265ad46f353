import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase } from '../db/client.ts';
import type { DatabaseHandle } from '../db/client.ts';

export interface TestDatabase extends DatabaseHandle {
  url: string;
  /** Closes the pool and drops the database. */
  destroy: () => Promise<void>;
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database cloned from the run's template (milliseconds, not a migration). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`),
  );
  const url = inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`);
  const handle = connectDatabase(url);
  return {
    ...handle,
    url,
    destroy: async () => {
      await handle.close();
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** How many statements `run` sends through the pool (Drizzle sends every query through it). */
export async function countStatements(
  database: DatabaseHandle,
  run: () => Promise<unknown>,
): Promise<number> {
  const pool = database.pool;
  const query = pool.query.bind(pool);
  let statements = 0;
  pool.query = ((...args: Parameters<typeof query>) => {
    statements += 1;
    return query(...args);
  }) as typeof pool.query;
  try {
    await run();
  } finally {
    pool.query = query;
  }
  return statements;
}
