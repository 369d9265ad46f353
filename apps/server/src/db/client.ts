import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { createNotificationListener } from './notifications.ts';
import type { NotificationListener } from './notifications.ts';
import * as schema from './schema.ts';

export type Database = ReturnType<typeof drizzle<typeof schema>>;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  /** LISTEN/NOTIFY on a connection of its own, opened on the first `listen`. */
  notifications: NotificationListener;
  close: () => Promise<void>;
}

export interface ConnectOptions {
  max?: number;
  /**
   * statement_timeout of every pooled connection: a statement running longer is cancelled
   * (SQLSTATE 57014), so no request holds a connection for long (docs/architecture.md,
   * "Runtime"). Unset: no limit (CLI imports, tests).
   */
  statementTimeoutMs?: number;
}

export function connectDatabase(url: string, options: ConnectOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    // Fail fast when the database is gone instead of queueing requests forever.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor may a checked-out one (a transaction between two statements) when the database dies:
  // with nobody listening, its 'error' event would end the process. Its next query fails
  // instead, and the pool drops it when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = drizzle(pool, { schema });
  const notifications = createNotificationListener({
    connectionString: url,
    connectionTimeoutMillis: 5_000,
    application_name: 'sticky-listener',
  });
  return {
    db,
    pool,
    notifications,
    close: async () => {
      await notifications.close();
      await pool.end();
    },
  };
}
