import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { createNotificationListener } from './notifications.ts';
import type { NotificationListener } from './notifications.ts';
import { connectReadReplica } from './read-replica.ts';
import type { ReadReplica, ReplicaLogger } from './read-replica.ts';
import * as schema from './schema.ts';

export type Database = ReturnType<typeof drizzle<typeof schema>>;

export interface DatabaseHandle {
  /**
   * Every statement of the app. With a read replica, the plain reads of catalog routes go to it
   * while it is caught up (`replica.runCatalogReads`); everything else goes to the primary.
   */
  db: Database;
  /** The primary's pool. */
  pool: pg.Pool;
  /** DATABASE_READ_URL's streaming replica, when set (docs/scaling.md, "A read replica"). */
  replica?: ReadReplica;
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
  /** A streaming replica of `url` for catalog reads (DATABASE_READ_URL). */
  readUrl?: string;
  /** Where the replica says it stopped or came back. */
  log?: ReplicaLogger;
  /**
   * Connections kept open however long they stay idle (0 by default: every idle one closes
   * after 30 s). A new connection takes about 5 ms to open, and its first statements about
   * 8 ms more at a million items while PostgreSQL loads what they use into that backend's
   * caches; the server keeps a few, warmed at start (catalog/warm-connections.ts).
   */
  keptConnections?: number;
}

export function connectDatabase(url: string, options: ConnectOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    min: options.keptConnections ?? 0,
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
  const reads = options.readUrl
    ? connectReadReplica({
        primary: pool,
        url: options.readUrl,
        max: options.max ?? 10,
        statementTimeoutMs: options.statementTimeoutMs,
        log: options.log,
      })
    : undefined;
  // Drizzle only calls query() and connect() on its client (read-replica.ts, ReadRoutingPool).
  const db = drizzle(reads ? (reads.router as unknown as pg.Pool) : pool, { schema });
  const notifications = createNotificationListener({
    connectionString: url,
    connectionTimeoutMillis: 5_000,
    application_name: 'sticky-listener',
  });
  return {
    db,
    pool,
    ...(reads ? { replica: reads.replica } : {}),
    notifications,
    close: async () => {
      await notifications.close();
      await reads?.replica.close();
      await pool.end();
    },
  };
}

/**
 * The handle with every statement of its `db` sent on `client`, one connection of its pool: for
 * work that must happen on a given connection (catalog/warm-connections.ts).
 */
export function bindDatabase(database: DatabaseHandle, client: pg.PoolClient): DatabaseHandle {
  // Drizzle calls query() on its client, which a pool's client answers as the pool does;
  // `$client` is typed after the pool.
  return { ...database, db: drizzle(client as unknown as pg.Pool, { schema }) };
}
