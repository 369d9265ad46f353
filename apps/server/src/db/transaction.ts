import { drizzle } from 'drizzle-orm/node-postgres';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from 'pg-boss';
import type { DatabaseHandle } from './client.ts';
import { isConflict } from './database-errors.ts';
import * as schema from './schema.ts';

export type Transaction = NodePgDatabase<typeof schema>;

/**
 * Runs SQL for pg-boss: on the pool, or on one transaction's connection so a job is sent with
 * the rows it is about. It answers what node-postgres answers (an array of results for several
 * statements in one query, which pg-boss needs whole).
 */
export type SqlExecutor = Pick<Db, 'executeSql'>;

/**
 * A transaction on one pooled connection, seen two ways: Drizzle for our rows, and a plain SQL
 * executor for pg-boss, so a job is sent in the same transaction as the rows it is about (it
 * exists exactly when they do, whatever dies in between).
 */
export async function withTransaction<T>(
  database: DatabaseHandle,
  run: (transaction: { tx: Transaction; executor: SqlExecutor }) => Promise<T>,
  options: { isRetriedOnConflict?: boolean } = {},
): Promise<T> {
  if (!options.isRetriedOnConflict) return runTransaction(database, run);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runTransaction(database, run);
    } catch (error) {
      if (attempt >= conflictAttempts || !isConflict(error)) throw error;
    }
  }
}

/**
 * PostgreSQL ends one of two transactions that wait on each other's rows (a deadlock, found
 * after `deadlock_timeout`, 1 s) or that cannot both be serialized, and expects it to be tried
 * again: an edit beside an import can meet the same counter rows in another order through the
 * items' triggers (docs/architecture.md, "Runtime", "Deadlocks"). Only for a transaction whose
 * whole effect is in the database, so running it again changes nothing else.
 */
const conflictAttempts = 3;

async function runTransaction<T>(
  database: DatabaseHandle,
  run: (transaction: { tx: Transaction; executor: SqlExecutor }) => Promise<T>,
): Promise<T> {
  return withConnectionTransaction(database.pool, (client) =>
    run({
      tx: drizzle(client, { schema }),
      executor: { executeSql: (text: string, values?: unknown[]) => client.query(text, values) },
    }),
  );
}

/**
 * A transaction on one connection of `pool`, for work that needs the connection itself (COPY,
 * advisory locks, pg-boss's SQL): `begin` opens it, COMMIT ends it, a failure rolls it back.
 */
export async function withConnectionTransaction<T>(
  pool: pg.Pool,
  run: (client: pg.PoolClient) => Promise<T>,
  options: { begin?: string } = {},
): Promise<T> {
  const client = await pool.connect();
  let isBroken = false;
  try {
    await client.query(options.begin ?? 'BEGIN');
    const result = await run(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      isBroken = true;
    });
    throw error;
  } finally {
    // A connection that could not even roll back is dropped, not handed to the next caller.
    client.release(isBroken);
  }
}
