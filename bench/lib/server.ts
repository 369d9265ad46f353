import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase } from '../../apps/server/src/db/client.ts';
import type { DatabaseHandle } from '../../apps/server/src/db/client.ts';
import { startStickyServer } from '../../e2e/support/server.ts';
import type { StickyServer } from '../../e2e/support/server.ts';

/** The key other apps pass as `api_key`; only this loopback server knows it. */
export const benchApiKey = 'sticky-bench-key-0123456789abcdefghij';

export interface BenchServer extends StickyServer {
  /** A pool on the server's own embedded PostgreSQL (the bench's side door). */
  database: DatabaseHandle;
  databaseUrl: string;
}

export function createDataDir(label: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sticky-bench-${label}-`));
  // As root, PostgreSQL runs as another user that must be able to enter DATA_DIR.
  fs.chmodSync(dataDir, 0o755);
  return dataDir;
}

/**
 * The URL of the embedded PostgreSQL a server started in `dataDir`: its port is in
 * postmaster.pid (line 4), its password in DATA_DIR/pg-password (db/embedded.ts).
 */
export function embeddedDatabaseUrl(dataDir: string): string {
  const pid = fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  const port = Number(pid[3]);
  if (!Number.isInteger(port) || port <= 0)
    throw new Error(`no port in ${dataDir}/pg/postmaster.pid`);
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://sticky:${password}@127.0.0.1:${port}/sticky`;
}

/**
 * The real server (`npm run serve`'s command, as the browser tests start it) on a free
 * loopback port, with its embedded PostgreSQL in `dataDir`, no starter catalog, and the bench's
 * api_key. The bench also gets a pool on the same database. `root` runs another checkout's
 * server (a baseline's work tree, bench/lib/baseline.ts) on a database of its own.
 */
export async function startBenchServer(
  dataDir: string,
  env: Record<string, string> = {},
  options: { root?: string } = {},
): Promise<BenchServer> {
  const server = await startStickyServer(
    {
      SEED_STARTER_CATALOG: 'false',
      STICKY_API_KEYS: benchApiKey,
      // The bench is one key asking thousands of times a second: not what the limit is for.
      API_RATE_LIMIT_PER_MINUTE: '100000000',
      // All of it from one address (loopback): the per-address share must not refuse it either.
      API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '100000000',
      SESSION_SECRET: 'sticky-bench-session-secret-0123456789abcdef',
      ...env,
    },
    { dataDir, timeoutMs: 240_000, root: options.root },
  );
  // Should the bench die without stopping it, the server (and its PostgreSQL) must not outlive it.
  const killOnExit = () => {
    if (server.process.exitCode === null) server.process.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const databaseUrl = embeddedDatabaseUrl(dataDir);
  // Kept and warmed as the server keeps its own (server.ts), so the in-process run's first
  // statements do not pay for new connections the server's do not.
  const database = connectDatabase(databaseUrl, { max: 4, keptConnections: 2 });
  return {
    ...server,
    database,
    databaseUrl,
    stop: async () => {
      await database.close().catch(() => {});
      await server.stop();
      process.removeListener('exit', killOnExit);
    },
  };
}
