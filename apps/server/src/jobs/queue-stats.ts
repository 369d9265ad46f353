import type { DatabaseHandle } from '../db/client.ts';
import { assertSchemaName } from './job-queue.ts';

export interface JobQueueStat {
  queue: string;
  /** pg-boss's state: `created` (waiting), `retry` (waiting to run again) or `active`. */
  state: string;
  count: number;
  /** Seconds since the oldest of them was created. */
  oldestAgeSeconds: number;
}

/**
 * Jobs not finished, by queue and state, with the age of the oldest (docs/operations.md,
 * "Metrics"): one grouped read of pg-boss's job table, which keeps only unfinished and recent
 * jobs. A database without the schema yet (no queue ever started) has none.
 */
export async function readJobQueueStats(
  database: DatabaseHandle,
  schema: string,
): Promise<JobQueueStat[]> {
  assertSchemaName(schema);
  const exists = await database.pool.query<{ found: string | null }>(
    'SELECT to_regclass($1) AS found',
    [`${schema}.job`],
  );
  if (!exists.rows[0]?.found) return [];
  const { rows } = await database.pool.query<{
    queue: string;
    state: string;
    count: number;
    age: number;
  }>(
    `SELECT name AS queue, state::text AS state, count(*)::int AS count,
            extract(epoch FROM now() - min(created_on))::float8 AS age
       FROM ${schema}.job
      WHERE state IN ('created', 'retry', 'active')
      GROUP BY name, state`,
  );
  return rows.map((row) => ({
    queue: row.queue,
    state: row.state,
    count: row.count,
    oldestAgeSeconds: Math.max(0, row.age),
  }));
}
