import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { createNotificationListener } from './notifications.ts';

describe('the notification listener', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('sends one statement at a time on its connection, from start to close', async () => {
    // pg queues statements sent while one runs, but warns that it will stop doing so.
    let running = 0;
    let mostAtOnce = 0;
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const result = (query as (...rest: unknown[]) => unknown).apply(this, args);
      // The pool's statements pass a callback and get nothing back: only promises are counted.
      if (!(result instanceof Promise)) return result;
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      return result.finally(() => {
        running -= 1;
      });
    } as typeof query);
    const listener = createNotificationListener({ connectionString: database.url });
    try {
      const heard: string[] = [];
      const seen: number[] = [];
      const handlers = (name: string) => ({
        onListening: async (
          read: Parameters<Parameters<typeof listener.listen>[1]['onListening']>[0],
        ) => {
          const { rows } = await read<{ n: number }>('SELECT 1 AS n');
          seen.push(rows[0]!.n);
        },
        onNotification: (payload: string) => heard.push(`${name}:${payload}`),
        onLost: () => {},
      });
      const stops = ['one', 'two', 'three'].map((name) =>
        listener.listen(`sticky_test_${name}`, handlers(name)),
      );
      await vi.waitFor(() => expect(seen).toEqual([1, 1, 1]));
      await database.pool.query(`SELECT pg_notify('sticky_test_two', 'hello')`);
      await vi.waitFor(() => expect(heard).toEqual(['two:hello']));
      for (const stop of stops) stop();
      await listener.close();
      expect(mostAtOnce).toBe(1);
    } finally {
      spy.mockRestore();
      await listener.close();
    }
  });
});
