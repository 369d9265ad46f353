import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePort } from '../db/embedded.ts';

export interface StreamingReplica {
  /** The replica's URL: the primary's, on the replica's port. */
  url: string;
  stop: () => Promise<void>;
  /** Starts it again (same data, same port) and resolves once it streams. */
  start: () => Promise<void>;
  /** Stops it, drops its slot on the primary and removes its files. */
  destroy: () => Promise<void>;
}

/** What pg_basebackup leaves out: files of the running server, and contents it rebuilds. */
const skippedFiles = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'pg_internal.init',
  'backup_label',
  'tablespace_map',
  'current_logfiles',
]);
const emptiedDirs = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_stat_tmp',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
]);

/** Copies a running cluster's files; one that vanishes while we copy (a temp file) is skipped. */
function copyCluster(from: string, to: string, isTop = true): void {
  fs.mkdirSync(to, { mode: 0o700 });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    try {
      if (entry.isDirectory()) {
        if (isTop && emptiedDirs.has(entry.name)) {
          fs.mkdirSync(target, { mode: 0o700 });
          if (entry.name === 'pg_wal') {
            fs.mkdirSync(path.join(target, 'archive_status'), { mode: 0o700 });
            fs.mkdirSync(path.join(target, 'summaries'), { mode: 0o700 });
          }
        } else {
          copyCluster(source, target, false);
        }
      } else if (!skippedFiles.has(entry.name)) {
        fs.copyFileSync(source, target);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** The cluster folder of an embedded PostgreSQL started on `dataDir` (db/embedded.ts). */
function clusterDirOf(dataDir: string): string {
  const note = path.join(dataDir, 'pg-location');
  return fs.existsSync(note)
    ? fs.readFileSync(note, 'utf8').split('\n')[0]!.trim()
    : path.join(dataDir, 'pg');
}

/** As db/embedded.ts gives its PostgreSQL: the path and locale, nothing of ours. */
function postgresEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { LC_MESSAGES: 'C' };
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'TZ']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}

function spawnStandby(
  binary: string,
  pgDir: string,
  port: number,
  owner: { uid: number; gid: number } | undefined,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      binary,
      [
        '-D',
        pgDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'lc_messages=C',
        '-c',
        'max_connections=200',
      ],
      { ...owner, cwd: '/', env: postgresEnv(), stdio: 'pipe' },
    );
    let output = '';
    const onData = (chunk: Buffer) => {
      output = (output + String(chunk)).slice(-4_000);
      if (output.includes('ready to accept read-only connections')) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the standby ended (${code}): ${output}`)));
  });
}

/**
 * A hot standby of the embedded PostgreSQL started on `primaryDataDir`, made as pg_basebackup
 * would (the embedded package ships only initdb, pg_ctl and postgres): a physical replication
 * slot, pg_backup_start, a copy of the data folder, pg_backup_stop's backup_label,
 * standby.signal and primary_conninfo; then started on a port of its own, resolved once it
 * streams. As root, it runs as the primary's owner (the postgres user).
 */
export async function startStreamingReplica(
  primaryUrl: string,
  primaryDataDir: string,
): Promise<StreamingReplica> {
  const primaryPgDir = clusterDirOf(primaryDataDir);
  const postmasterPid = Number(
    fs.readFileSync(path.join(primaryPgDir, 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  // The binary the primary runs, which its user can surely run too.
  const binary = fs.readlinkSync(`/proc/${postmasterPid}/exe`);
  const stat = fs.statSync(primaryPgDir);
  const owner = process.getuid?.() === 0 ? { uid: stat.uid, gid: stat.gid } : undefined;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-replica-'));
  fs.chmodSync(home, 0o755);
  const pgDir = path.join(home, 'pg');
  const slot = `sticky_test_replica_${process.pid}`;
  const name = 'sticky-test-replica';
  const primary = new pg.Client({ connectionString: primaryUrl });
  await primary.connect();
  try {
    await primary.query('SELECT pg_create_physical_replication_slot($1, true)', [slot]);
    // Non-exclusive: started and stopped on this one connection.
    await primary.query(`SELECT pg_backup_start('sticky test replica', true)`);
    copyCluster(primaryPgDir, pgDir);
    const { rows } = await primary.query<{ labelfile: string }>(
      'SELECT labelfile FROM pg_backup_stop(false)',
    );
    fs.writeFileSync(path.join(pgDir, 'backup_label'), rows[0]!.labelfile);
  } finally {
    await primary.end();
  }
  const source = new URL(primaryUrl);
  const conninfo = [
    `host=${source.hostname}`,
    `port=${source.port}`,
    `user=${decodeURIComponent(source.username)}`,
    `password=${decodeURIComponent(source.password)}`,
    `application_name=${name}`,
  ].join(' ');
  fs.appendFileSync(
    path.join(pgDir, 'postgresql.auto.conf'),
    `\nprimary_conninfo = '${conninfo}'\nprimary_slot_name = '${slot}'\nhot_standby = on\n`,
  );
  fs.writeFileSync(path.join(pgDir, 'standby.signal'), '');
  if (owner) spawnSync('chown', ['-R', `${owner.uid}:${owner.gid}`, pgDir]);
  fs.chmodSync(pgDir, 0o700);

  const port = await findFreePort();
  const replicaUrl = new URL(primaryUrl);
  replicaUrl.port = String(port);
  let child: ChildProcess | undefined;

  const waitUntilStreaming = async () => {
    const client = new pg.Client({ connectionString: primaryUrl });
    await client.connect();
    try {
      for (;;) {
        const { rows } = await client.query<{ state: string }>(
          'SELECT state FROM pg_stat_replication WHERE application_name = $1',
          [name],
        );
        if (rows[0]?.state === 'streaming') return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await client.end();
    }
  };

  const start = async () => {
    child = await spawnStandby(binary, pgDir, port, owner);
    child.removeAllListeners('exit');
    await waitUntilStreaming();
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      // Fast shutdown: ends its clients (Sticky's reads among them) at once.
      running.kill('SIGINT');
    });
  };

  await start();
  return {
    url: replicaUrl.toString(),
    stop,
    start,
    destroy: async () => {
      await stop();
      const client = new pg.Client({ connectionString: primaryUrl });
      await client.connect();
      await client
        .query('SELECT pg_drop_replication_slot($1)', [slot])
        .catch(() => {})
        .finally(() => client.end());
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
