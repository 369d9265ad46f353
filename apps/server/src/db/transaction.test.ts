import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { withTransaction } from './transaction.ts';

/**
 * Two transactions that lock the same two rows in opposite orders: PostgreSQL ends one of them
 * (a deadlock, 40P01) and expects it to be run again.
 */
describe('withTransaction and deadlocks', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.pool.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
    await database.pool.query('INSERT INTO counters VALUES (1, 0), (2, 0)');
  }, 60_000);
  afterAll(async () => {
    await database?.destroy();
  });

  /** Locks `first`, waits until the other side holds its row, then locks `second`. */
  const lockInTurn = (
    first: number,
    second: number,
    isFirstLocked: Promise<void>,
    onFirstLocked: () => void,
    options: { isRetriedOnConflict?: boolean },
  ) =>
    withTransaction(
      database,
      async ({ executor }) => {
        await executor.executeSql('UPDATE counters SET n = n + 1 WHERE id = $1', [first]);
        onFirstLocked();
        await isFirstLocked;
        await executor.executeSql('UPDATE counters SET n = n + 1 WHERE id = $1', [second]);
      },
      options,
    );

  /** Runs the two in opposite orders; each waits for the other's first lock once. */
  async function collide(options: { isRetriedOnConflict?: boolean }) {
    let onALocked = () => {};
    let onBLocked = () => {};
    const isALocked = new Promise<void>((resolve) => (onALocked = resolve));
    const isBLocked = new Promise<void>((resolve) => (onBLocked = resolve));
    return Promise.allSettled([
      lockInTurn(1, 2, isBLocked, onALocked, options),
      lockInTurn(2, 1, isALocked, onBLocked, options),
    ]);
  }

  const counters = async () =>
    (await database.pool.query<{ n: number }>('SELECT n FROM counters ORDER BY id')).rows.map(
      (row) => row.n,
    );

  it('fails one of them with the deadlock by default', async () => {
    const before = await counters();
    const results = await collide({});
    const failed = results.filter((result) => result.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ code: '40P01' });
    // The ended one left nothing behind; the other committed.
    expect(await counters()).toEqual(before.map((n) => n + 1));
  });

  it('runs the ended one again when asked, so both commit', async () => {
    const before = await counters();
    const results = await collide({ isRetriedOnConflict: true });
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await counters()).toEqual(before.map((n) => n + 2));
  });
});
