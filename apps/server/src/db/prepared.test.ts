import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { connectDatabase } from './client.ts';
import type { DatabaseHandle } from './client.ts';
import { executePrepared } from './prepared.ts';

describe('prepared statements', () => {
  let database: TestDatabase;
  let oneConnection: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection: what it has prepared is what the statements below left there.
    oneConnection = connectDatabase(database.url, { max: 1 });
  });
  afterAll(async () => {
    await oneConnection.close();
    await database.destroy();
  });

  const prepared = async () =>
    (
      await oneConnection.pool.query<{ name: string; statement: string }>(
        `SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'sticky_%'`,
      )
    ).rows;

  it('answers as db.execute does, and each text is prepared once per connection', async () => {
    const statement = (value: number) =>
      sql`SELECT ${value}::int AS value, timestamptz '2026-01-02 03:04:05+00' AS at`;
    const first = await executePrepared<{ value: number; at: string }>(
      oneConnection.db,
      statement(1),
    );
    const second = await executePrepared<{ value: number; at: string }>(
      oneConnection.db,
      statement(2),
    );
    const plain = await oneConnection.db.execute<{ value: number; at: string }>(statement(2));
    expect(first.rows).toEqual([{ value: 1, at: plain.rows[0]!.at }]);
    expect(second.rows).toEqual(plain.rows);
    expect(await prepared()).toEqual([
      expect.objectContaining({ statement: expect.stringContaining('$1::int AS value') }),
    ]);
  });

  it('gives another text a name of its own', async () => {
    const other = await executePrepared<{ doubled: number }>(
      oneConnection.db,
      sql`SELECT ${21}::int * 2 AS doubled`,
    );
    expect(other.rows).toEqual([{ doubled: 42 }]);
    const names = (await prepared()).map((row) => row.name);
    expect(new Set(names).size).toBe(2);
  });
});
