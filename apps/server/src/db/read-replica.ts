import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { StartupError } from '../lib/startup-error.ts';
import { isConflict, isReadOnlyTransaction } from './database-errors.ts';

/** What the replica says when something goes wrong, and when it is back. */
export interface ReplicaLogger {
  warn: (details: object, message: string) => void;
  info: (details: object, message: string) => void;
}

/**
 * A streaming replica for catalog reads (docs/scaling.md, "A read replica"). Statements go to it
 * only inside `runCatalogReads` and only while it has replayed every change the app knows of;
 * everything else (writes, transactions, sessions, /api) goes to the primary.
 */
export interface ReadReplica {
  /**
   * Runs `work` with its plain reads sent to the replica while it is caught up. After the first
   * statement that writes (or a transaction), the rest of `work` reads from the primary: it may
   * read what it just wrote.
   */
  runCatalogReads: <T>(work: () => T) => T;
  /**
   * A change was committed or announced (a new catalog or popularity version): reads go to the
   * primary until the replica has replayed the primary's WAL as of now.
   */
  noteChange: () => void;
  /**
   * Start-up check: the replica answers and is a standby of the primary's cluster, same
   * database; else a StartupError whose message is the one line the server stops with.
   */
  check: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * What Drizzle asks of its client (drizzle-orm/node-postgres/session.js): `query` for every
 * statement, `connect` for a transaction's own connection. Its name says "Pool" because that is
 * how Drizzle tells a pool (take a connection for a transaction) from a single client.
 */
export interface ReadRoutingPool {
  query: pg.Pool['query'];
  connect: () => Promise<pg.PoolClient>;
}

export interface ReadReplicaOptions {
  primary: pg.Pool;
  url: string;
  max: number;
  statementTimeoutMs?: number;
  log?: ReplicaLogger;
}

/** While behind, how soon the replica's replay position is asked again (doubling up to the last). */
const firstPollMs = 5;
const maxPollMs = 250;
/** While the replica does not answer, how often it is tried. */
const downPollMs = 1_000;

/** Plain reads: a SELECT or WITH that neither writes nor locks nor calls what writes. */
const readingStatement = /^\s*(select|with)\b/i;
const writingWords =
  /\b(insert|update|delete|merge|truncate|nextval|setval|pg_notify|pg_advisory_\w+|set_config|for\s+(key\s+)?share)\b/i;

function isPlainRead(text: string): boolean {
  return readingStatement.test(text) && !writingWords.test(text);
}

/** The replica is gone or not accepting connections (stopped, restarting, unreachable). */
function isReplicaLost(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^(08|57P0[1-4]|53300)/.test(code)) return true;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ETIMEDOUT…
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|ECONN|EHOSTUNREACH/.test(
    message,
  );
}

function statementText(config: unknown): string {
  if (typeof config === 'string') return config;
  const text = (config as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

/** host:port/database of a URL, without its user or password (for messages). */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return 'the URL given';
  }
}

const identitySql = `SELECT (SELECT system_identifier FROM pg_control_system())::text AS system_identifier,
  current_database() AS database, pg_is_in_recovery() AS is_standby`;

interface Identity {
  system_identifier: string;
  database: string;
  is_standby: boolean;
}

/**
 * Connects the replica (its pool is opened lazily, like the primary's) and returns it with the
 * pool-like router Drizzle runs every statement through. Reads-your-writes costs no request
 * anything: when the app learns of a change it reads the primary's WAL insert position once and
 * polls the replica's replay position until it is there; meanwhile, catalog reads go to the
 * primary. So an answer kept under a catalog version is never made from a replica that has not
 * replayed it (docs/catalog.md, "Caches and versions").
 */
export function connectReadReplica(options: ReadReplicaOptions): {
  replica: ReadReplica;
  router: ReadRoutingPool;
} {
  const { primary, log } = options;
  const replicaPool = new pg.Pool({
    connectionString: options.url,
    max: options.max,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'sticky-reads',
  });
  // The replay position is asked on a connection of its own, so polling never waits behind
  // the reads (nor they behind it).
  const watchPool = new pg.Pool({
    connectionString: options.url,
    max: 1,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'sticky-replay-watch',
  });
  // As on the primary (client.ts): a lost connection fails its query, never the process.
  for (const pool of [replicaPool, watchPool]) {
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
  }
  const scopes = new AsyncLocalStorage<{ isPrimaryOnly: boolean }>();
  let isServing = false;
  let isDown = false;
  let isClosed = false;
  let isChangePending = false;
  let isWatching = false;
  let catchingUp: Promise<void> | undefined;
  let pause: { timer: NodeJS.Timeout; wake: () => void } | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (isClosed) {
        resolve();
        return;
      }
      const wake = () => {
        clearTimeout(timer);
        pause = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      pause = { timer, wake };
    });

  const markDown = (error: unknown) => {
    isServing = false;
    if (!isDown) {
      isDown = true;
      log?.warn(
        { err: error, replica: describeUrl(options.url) },
        'the read replica (DATABASE_READ_URL) does not answer: catalog reads go to the primary until it does',
      );
    }
  };

  /** Until the replica has replayed the primary's position as of the last change, then serve. */
  const catchUp = async () => {
    let target: string | undefined;
    let delay = firstPollMs;
    while (!isClosed) {
      if (isChangePending) {
        isChangePending = false;
        target = undefined;
      }
      try {
        // The insert position, not the write position: a commit made with synchronous_commit
        // off may not be written yet, and the replica must replay it too.
        target ??= (
          await primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')
        ).rows[0]!.lsn;
      } catch {
        // The primary does not answer: neither does anything else; try again shortly.
        await sleep(downPollMs);
        continue;
      }
      let hasReplayed: boolean;
      try {
        const { rows } = await watchPool.query<{ has_replayed: boolean | null }>(
          'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS has_replayed',
          [target],
        );
        hasReplayed = rows[0]?.has_replayed === true;
      } catch (error) {
        markDown(error);
        await sleep(downPollMs);
        delay = firstPollMs;
        continue;
      }
      if (isDown) {
        isDown = false;
        log?.info({ replica: describeUrl(options.url) }, 'the read replica answers again');
        // What it must have replayed is the primary's position now, not before it went away.
        target = undefined;
        continue;
      }
      if (hasReplayed && !isChangePending) {
        if (!isClosed) isServing = true;
        return;
      }
      if (hasReplayed) continue;
      await sleep(delay);
      delay = Math.min(delay * 2, maxPollMs);
    }
  };

  const noteChange = () => {
    isWatching = true;
    isServing = false;
    isChangePending = true;
    if (isClosed || catchingUp) return;
    catchingUp = catchUp().finally(() => {
      catchingUp = undefined;
    });
  };

  const query = async (config: unknown, values?: unknown) => {
    const scope = scopes.getStore();
    const text = statementText(config);
    const onPrimary = () => primary.query(config as pg.QueryConfig, values as unknown[]);
    if (!scope || scope.isPrimaryOnly) return onPrimary();
    if (!isPlainRead(text)) {
      // What this request reads next may be what it just wrote: from the primary.
      scope.isPrimaryOnly = true;
      return onPrimary();
    }
    if (!isServing) return onPrimary();
    try {
      return await replicaPool.query(config as pg.QueryConfig, values as unknown[]);
    } catch (error) {
      // The replica cannot run this (a write it refuses, or a conflict with replay): the primary can.
      if (isReadOnlyTransaction(error)) {
        scope.isPrimaryOnly = true;
        return onPrimary();
      }
      if (isConflict(error)) return onPrimary();
      if (!isReplicaLost(error)) throw error;
      markDown(error);
      noteChange();
      return onPrimary();
    }
  };

  const router: ReadRoutingPool = {
    query: query as pg.Pool['query'],
    connect: () => {
      const scope = scopes.getStore();
      // A transaction writes (or reads what it must see at once): the primary, from now on.
      if (scope) scope.isPrimaryOnly = true;
      return primary.connect();
    },
  };

  const replica: ReadReplica = {
    runCatalogReads: (work) => {
      // Nothing is read from the replica before it has replayed what the primary has now.
      if (!isWatching) noteChange();
      return scopes.run({ isPrimaryOnly: false }, work);
    },
    noteChange,
    check: async () => {
      const where = `DATABASE_READ_URL (${describeUrl(options.url)}) cannot be used`;
      let theirs: Identity;
      try {
        theirs = (await watchPool.query<Identity>(identitySql)).rows[0]!;
      } catch (error) {
        const reason = isReplicaLost(error) ? 'nothing answers there' : 'the connection is refused';
        throw new StartupError(`${where}: ${reason} (${(error as Error).message.split('\n')[0]})`, {
          cause: error,
        });
      }
      const ours = (await primary.query<Identity>(identitySql)).rows[0]!;
      if (!theirs.is_standby) {
        throw new StartupError(
          `${where}: it is not a standby (pg_is_in_recovery() is false). Point it at a streaming replica of DATABASE_URL's server, or leave it unset.`,
        );
      }
      if (theirs.system_identifier !== ours.system_identifier) {
        throw new StartupError(
          `${where}: it replicates another PostgreSQL (system identifier ${theirs.system_identifier}; DATABASE_URL's is ${ours.system_identifier}). Point it at a streaming replica of DATABASE_URL's server.`,
        );
      }
      if (theirs.database !== ours.database) {
        throw new StartupError(
          `${where}: it names the database "${theirs.database}", DATABASE_URL names "${ours.database}". Name the same database in both.`,
        );
      }
    },
    close: async () => {
      isClosed = true;
      isServing = false;
      pause?.wake();
      await catchingUp;
      await replicaPool.end();
      await watchPool.end();
    },
  };
  return { replica, router };
}
