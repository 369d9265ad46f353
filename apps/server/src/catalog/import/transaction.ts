import { drizzle } from 'drizzle-orm/node-postgres';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { DatabaseHandle } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import type { SqlExecutor } from '../../jobs/job-queue.ts';

export type Transaction = NodePgDatabase<typeof schema>;

/**
 * A transaction on one pooled connection, seen two ways: Drizzle for our rows, and a plain SQL
 * executor for pg-boss, so a job is sent in the same transaction as the rows it is about (it
 * exists exactly when they do, whatever dies in between).
 */
export async function withTransaction<T>(
  database: DatabaseHandle,
  run: (transaction: { tx: Transaction; executor: SqlExecutor }) => Promise<T>,
): Promise<T> {
  const client = await database.pool.connect();
  let isBroken = false;
  try {
    await client.query('BEGIN');
    const tx = drizzle(client, { schema });
    const executor: SqlExecutor = {
      executeSql: (text: string, values?: unknown[]) => client.query(text, values),
    };
    const result = await run({ tx, executor });
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
