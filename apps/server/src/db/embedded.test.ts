import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquireDataDirLock,
  DataDirBusyError,
  embeddedSharedBuffers,
  sharedBuffersFor,
  startEmbeddedPostgres,
} from './embedded.ts';

const log = pino({ level: 'silent' });

async function countRows(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT count(*)::int AS n FROM notes')).rows[0].n;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-embedded-'));
    fs.chmodSync(dataDir, 0o755);
  });
  afterAll(() => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('initialises, keeps data across restarts, and recovers from a crash', async () => {
    const first = await startEmbeddedPostgres(dataDir, log);
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    // Its buffer cache is sized to this machine, not PostgreSQL's default 128 MB.
    const { rows } = await client.query<{ megabytes: number }>(
      "SELECT setting::bigint * 8 / 1024 AS megabytes FROM pg_settings WHERE name = 'shared_buffers'",
    );
    expect(`${rows[0]!.megabytes}MB`).toBe(embeddedSharedBuffers());
    await client.query('CREATE TABLE notes (body text)');
    await client.query("INSERT INTO notes VALUES ('kept')");
    await client.end();
    const pid = first.pid();
    expect(pid).toBeGreaterThan(0);

    // A crash of the Node process leaves PostgreSQL running with its pid file: kill -9 does
    // not reach children. The next start must take over cleanly.
    const second = await startEmbeddedPostgres(dataDir, log);
    expect(second.pid()).not.toBe(pid);
    expect(await countRows(second.url)).toBe(1);

    // A stale pid file whose process is gone is removed.
    await second.stop();
    fs.writeFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), '999999\n');
    const third = await startEmbeddedPostgres(dataDir, log);
    expect(await countRows(third.url)).toBe(1);
    await third.stop();
  }, 60_000);

  it('sizes its buffer cache to a quarter of memory, from 128 MB to 4 GB', () => {
    const gigabyte = 1024 ** 3;
    expect(sharedBuffersFor(256 * 1024 ** 2)).toBe('128MB');
    expect(sharedBuffersFor(2 * gigabyte)).toBe('512MB');
    expect(sharedBuffersFor(8 * gigabyte)).toBe('2048MB');
    expect(sharedBuffersFor(64 * gigabyte)).toBe('4096MB');
  });

  it('lets only one server use a DATA_DIR', () => {
    const lockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-lock-'));
    const release = acquireDataDirLock(lockDir);
    // The lock names a live process (this one is alive, but a different pid is needed).
    fs.writeFileSync(path.join(lockDir, 'sticky.pid'), String(process.ppid));
    expect(() => acquireDataDirLock(lockDir)).toThrow(DataDirBusyError);
    expect(() => acquireDataDirLock(lockDir)).toThrow(/Another Sticky server/);
    // A lock left by a dead process is taken over.
    fs.writeFileSync(path.join(lockDir, 'sticky.pid'), '999999');
    const again = acquireDataDirLock(lockDir);
    again();
    release();
    expect(fs.existsSync(path.join(lockDir, 'sticky.pid'))).toBe(false);
    fs.rmSync(lockDir, { recursive: true, force: true });
  });
});
