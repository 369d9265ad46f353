import { AsyncLocalStorage } from 'node:async_hooks';
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

/** A statement sent through the pool, with its parameters. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * The statements `run` sends through the pool (Drizzle sends every query through it), and
 * only those: work the app started before (its warm-up or maintenance at start) runs in
 * another async context and is not counted.
 */
export async function recordStatements(
  database: DatabaseHandle,
  run: () => Promise<unknown>,
): Promise<SentStatement[]> {
  const pool = database.pool;
  const query = pool.query.bind(pool);
  const sent: SentStatement[] = [];
  const context = new AsyncLocalStorage<true>();
  pool.query = ((...args: Parameters<typeof query>) => {
    if (!context.getStore()) return query(...args);
    const config = args[0] as string | { text: string; values?: unknown[] };
    const text = typeof config === 'string' ? config : config.text;
    const values =
      (typeof config === 'object' ? config.values : undefined) ??
      (Array.isArray(args[1]) ? (args[1] as unknown[]) : []);
    sent.push({ text, values });
    return query(...args);
  }) as typeof pool.query;
  try {
    await context.run(true, run);
  } finally {
    pool.query = query;
  }
  return sent;
}

/**
 * The statements `run` sends that read the catalog (items, their documents and renditions,
 * search terms, related lists): an answer served from what the app keeps sends none. Counting
 * a search or an event is not reading the catalog.
 */
export async function recordCatalogReads(
  database: DatabaseHandle,
  run: () => Promise<unknown>,
): Promise<string[]> {
  return (await recordStatements(database, run))
    .map(({ text }) => text)
    .filter((text) => /\b(items|item_documents|renditions|search_terms|related_\w+)\b/.test(text));
}

/** How many statements `run` sends through the pool. */
export async function countStatements(
  database: DatabaseHandle,
  run: () => Promise<unknown>,
): Promise<number> {
  return (await recordStatements(database, run)).length;
}

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/**
 * How many rows of `items` the statements `run` sent read, as EXPLAIN ANALYZE counts them (rows
 * kept, plus rows read and then dropped by a filter) with the plans of a large catalog: the
 * work a ranking does, which the number of rows it returns does not show.
 */
export async function countItemRowsRead(
  database: DatabaseHandle,
  run: () => Promise<unknown>,
): Promise<number> {
  const sent = (await recordStatements(database, run)).filter(
    ({ text }) => /^\s*(SELECT|WITH)\b/i.test(text) && /\bitems\b/.test(text),
  );
  const pool = database.pool;
  let total = 0;
  const visit = (node: PlanNode) => {
    if (node['Relation Name'] === 'items') {
      total +=
        ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        (node['Actual Loops'] ?? 1);
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  // A test catalog is small enough that reading the table whole is the cheaper plan; the
  // statements are judged as PostgreSQL plans them at scale, through their indexes.
  const client = await pool.connect();
  try {
    await client.query('SET enable_seqscan = off');
    for (const statement of sent) {
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
        statement.values,
      );
      visit(rows[0]!['QUERY PLAN'][0]!.Plan);
    }
  } finally {
    await client.query('RESET enable_seqscan');
    client.release();
  }
  return total;
}
