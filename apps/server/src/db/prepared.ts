import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { QueryResult, QueryResultRow } from 'pg';
import type { Database } from './client.ts';

/**
 * Runs `query` as a named prepared statement: each connection parses and plans it once and
 * then only binds and executes it (docs/architecture.md, "Runtime"). Only for a
 * statement whose text never depends on its input, every value a parameter: each distinct
 * text is one more statement kept by every connection that runs it. The name is a digest of
 * the text, so two texts can never share one.
 */
export async function executePrepared<Row extends QueryResultRow>(
  db: Database,
  query: SQL,
): Promise<QueryResult<Row>> {
  const compiled = new PgDialect().sqlToQuery(query);
  const name = `sticky_${createHash('sha256').update(compiled.sql).digest('base64url').slice(0, 24)}`;
  // Drizzle's own path (types parsed as db.execute parses them, the read replica's routing),
  // which db.execute takes without a name.
  const prepared = db._.session.prepareQuery(compiled, undefined, name, false);
  return (await prepared.execute()) as QueryResult<Row>;
}
