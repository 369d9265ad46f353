import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import {
  isConflict,
  isDatabaseDiskFull,
  isDatabaseDown,
  isReadOnlyTransaction,
  isUniqueViolation,
  readDatabaseErrorCode,
} from './database-errors.ts';

/** Errors PostgreSQL really raises, as the pool throws them and as Drizzle wraps them. */
describe('database errors', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.pool.query('CREATE TABLE names (name text CONSTRAINT names_unique UNIQUE)');
    await database.pool.query("INSERT INTO names VALUES ('taken')");
  }, 60_000);
  afterAll(async () => {
    await database?.destroy();
  });

  const failureOf = (run: () => Promise<unknown>) =>
    run().then(
      () => expect.fail('the statement succeeded'),
      (error: unknown) => error,
    );

  it('reads a repeated unique key from the pool and through Drizzle, with its constraint', async () => {
    const fromPool = await failureOf(() =>
      database.pool.query("INSERT INTO names VALUES ('taken')"),
    );
    const fromDrizzle = await failureOf(() =>
      database.db.execute(sql`INSERT INTO names VALUES ('taken')`),
    );
    for (const error of [fromPool, fromDrizzle]) {
      expect(readDatabaseErrorCode(error)).toBe('23505');
      expect(isUniqueViolation(error)).toBe(true);
      expect(isUniqueViolation(error, 'names_unique')).toBe(true);
      expect(isUniqueViolation(error, 'another_constraint')).toBe(false);
      expect(isConflict(error)).toBe(false);
      expect(isDatabaseDown(error)).toBe(false);
    }
  });

  it('tells a write refused by a read-only transaction', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      const error = await failureOf(() => client.query("INSERT INTO names VALUES ('new')"));
      expect(isReadOnlyTransaction(error)).toBe(true);
      expect(isUniqueViolation(error)).toBe(false);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('takes a closed connection or a shutdown for the database being down, and 53100 for a full disk', () => {
    expect(isDatabaseDown(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseDown(new Error('wrapped', { cause: { code: '57P01' } }))).toBe(true);
    expect(isDatabaseDown({ code: 'ECONNREFUSED' })).toBe(true);
    expect(isDatabaseDiskFull(new Error('wrapped', { cause: { code: '53100' } }))).toBe(true);
    expect(isDatabaseDown(new Error('syntax error'))).toBe(false);
    expect(readDatabaseErrorCode(new Error('no code'))).toBeUndefined();
    expect(readDatabaseErrorCode(undefined)).toBeUndefined();
  });
});
